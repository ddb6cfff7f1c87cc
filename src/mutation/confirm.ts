// Confirmations: destructive mutations and every mutation on a protected profile ask on
// a terminal, and need --yes otherwise. The question names the profile and origin.

import type { Context } from '../context.js';
import { BoError, UsageError } from '../errors.js';

export interface Where {
  profile: string;
  /** The base URL in effect (the embedded sandbox's under --sandbox). */
  origin: string;
  protected: boolean;
}

export async function confirmMutation(
  ctx: Context,
  what: string,
  where: Where,
  options: { destructive: boolean; yes: boolean; batch: boolean },
): Promise<void> {
  if (options.yes || (!options.destructive && !where.protected)) return;
  const place = `on profile "${where.profile}" (${where.origin})`;
  const why = where.protected ? `profile "${where.profile}" is protected` : 'this cannot be undone';
  if (options.batch) {
    // A batch reads its records from stdin, so there is nobody to ask.
    throw new UsageError(`${what} ${place} needs --yes: ${why}`);
  }
  if (!ctx.globals.input) {
    throw new UsageError(`${what} ${place} needs confirmation; pass --yes (${why})`);
  }
  const prompter = await ctx.prompter();
  const ok = await prompter.confirm(`${what} ${place}?`, { default: false });
  if (!ok) throw new BoError('not confirmed; nothing was sent', { code: 'not_confirmed' });
}

/** Where requests go, as confirmations name it; the embedded sandbox listens on a new port every run: named, not its address. */
export function whereOf(ctx: Context, profile: { profile: string; protected: boolean }, baseUrl: string): Where {
  return { ...profile, origin: ctx.globals.sandbox ? 'the embedded sandbox' : baseUrl };
}

/** The profile in effect and whether it is protected; reads no credential. */
export async function profileInEffect(ctx: Context): Promise<{ profile: string; protected: boolean }> {
  const { name, settings } = await ctx.profile();
  return { profile: name, protected: settings.protected === true };
}
