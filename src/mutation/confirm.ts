// Confirmations: destructive mutations and every mutation on a protected profile ask on
// a terminal, and need --yes otherwise. The question names the profile and origin, and
// what the target is when one cheap read can tell (the verb's `describe`). Declined:
// nothing is sent, "Nothing was changed.", exit 2.

import type { Context } from '../context.js';
import { DeclinedError, UsageError } from '../errors.js';
import { neutralise } from '../api/neutralise.js';

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
  options: {
    destructive: boolean;
    yes: boolean;
    batch: boolean;
    /** What the target is (`Acme Inc, 2 Trial`), read only when the question is asked. */
    describe?: () => Promise<string | undefined>;
  },
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
  const [prompter, described] = await Promise.all([ctx.prompter(), targetName(options.describe)]);
  const ok = await prompter.confirm(`${what}${described ? ` (${described})` : ''} ${place}?`, { default: false });
  // Declined: exit 2 as a confirmation not given; main.ts prints one plain line.
  if (!ok) throw new DeclinedError();
}

/**
 * What the target is as a confirmation names it (`Acme Inc, 2 Trial`): the verb's one
 * cheap read, neutralised; undefined when there is none or it failed. Also what a plan
 * made by `bo mcp --writes plan` shows (told to the caller's sink: value-sink.ts `target`).
 */
export async function targetName(describe: (() => Promise<string | undefined>) | undefined): Promise<string | undefined> {
  const described = await describe?.().catch(() => undefined);
  if (!described) return undefined;
  return neutralise(described);
}

/** The embedded sandbox as confirmations, dry runs, the journal and plans name it: it has no address of its own (a new port every run). */
export const EMBEDDED_SANDBOX = 'the embedded sandbox';

/** Where requests go, as confirmations name it; the embedded sandbox listens on a new port every run: named, not its address. */
export function whereOf(ctx: Context, profile: { profile: string; protected: boolean }, baseUrl: string): Where {
  return { ...profile, origin: ctx.globals.sandbox ? EMBEDDED_SANDBOX : baseUrl };
}

/** The profile in effect and whether it is protected; reads no credential. */
export async function profileInEffect(ctx: Context): Promise<{ profile: string; protected: boolean }> {
  const { name, settings } = await ctx.profile();
  return { profile: name, protected: settings.protected === true };
}
