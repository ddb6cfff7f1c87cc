// Runs the login flow for a command context and keeps its result: the token goes to
// the profile's credential store, and one line on stderr says who is signed in where
// and until when. Nothing is stored unless the whole flow succeeded (Ctrl-C, a refused
// code, a failed store: nothing half-written).

import type { Context } from '../../context.js';
import type { CredentialStore } from '../credential-types.js';
import { tokensApi } from '../../api/tokens.js';
import { openCredentialStore, rememberStored } from '../credentials.js';
import { baseUrlName, parseBaseUrl } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { EMBEDDED_SANDBOX_ORIGIN, originOf } from '../origin.js';
import { runLogin } from '../login-flow.js';
import type { LoginOptions } from './options.js';
import { createScreen, qrTerminal } from './screen.js';
import { stdinLines } from './stdin-lines.js';
import { boCommand } from '../../hints.js';

export interface StorageChoice {
  insecureStorage: boolean;
  /** --yes: replace the profile's saved base URL without a terminal to tell. */
  yes?: boolean;
}

async function openStore(ctx: Context, choice: StorageChoice): Promise<CredentialStore> {
  // Under --sandbox ctx.credentials() is already the 0600 file (credentials.ts).
  if (!choice.insecureStorage || ctx.globals.sandbox) return ctx.credentials();
  return openCredentialStore(ctx.io.env, await ctx.profile(), { insecure: true });
}

export function tenantHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** " until 2027-03-01", with the time when that is within two days; "" when unknown. */
export function until(expiresAt: Date | undefined, now: Date): string {
  if (!expiresAt) return '';
  const [date, time] = expiresAt.toISOString().split('T') as [string, string];
  const soon = expiresAt.getTime() - now.getTime() < 2 * 24 * 3600 * 1000;
  return soon ? ` until ${date} ${time.slice(0, 5)} UTC` : ` until ${date}`;
}

export async function signInAndStore(ctx: Context, options: LoginOptions, choice: StorageChoice): Promise<void> {
  // The profile name is checked before anything is sent.
  const { name: profile, settings } = await ctx.profile();
  await checkReplacedBaseUrl(ctx, profile, settings['base-url'], choice.yes === true);
  // A missing keychain is found before the person types anything or a code is spent.
  const store = await openStore(ctx, choice);
  await store.get(profile).catch((err: { code?: string }) => {
    if (err?.code === 'keychain_unavailable') throw err;
  });
  const http = await ctx.api({ credential: null });
  // So is a certificate this machine does not trust: a TLS handshake, nothing sent.
  try {
    await http.handshake?.();
  } catch (err) {
    http.close();
    throw err;
  }
  const prompter = ctx.globals.input ? await ctx.prompter() : null;
  const lines = stdinLines(ctx.io.stdin);
  try {
    const result = await runLogin({
      api: tokensApi(http, ctx.signal),
      prompter,
      screen: createScreen(ctx.io.stderr, ctx.io.stderrIsTTY, qrTerminal(ctx)),
      clock: ctx.clock,
      signal: ctx.signal,
      env: ctx.io.env,
      readLine: () => lines.next(),
      options,
      loginCommand: boCommand(ctx.globals, 'login'),
    });
    // The token belongs to the origin that issued it and is sent nowhere else; under
    // --sandbox, to the embedded sandbox itself (it listens on a new port every run).
    const sandbox = ctx.globals.sandbox;
    await store.set(profile, {
      kind: 'token',
      token: result.accessToken,
      ...(result.expiresAt ? { expiresAt: result.expiresAt.toISOString() } : {}),
      username: result.username,
      origin: sandbox ? EMBEDDED_SANDBOX_ORIGIN : originOf(http.baseUrl)!,
    });
    const tenant = sandbox ? 'sandbox' : tenantHost(http.baseUrl);
    ctx.io.stderr.write(`Signed in as ${result.username} (${tenant})${until(result.expiresAt, ctx.clock.now())}.\n`);
    // The profile records where the token is (so a run need not ask the keychain when
    // nothing is stored) and the base URL it was issued for, replacing an older one.
    // A sandbox token is always in the file: the profile's own backend stays as it was.
    const saved = sandbox ? undefined : rememberStored(ctx.io.env, profile, store.backend, http.baseUrl);
    if (saved) ctx.io.stderr.write(`Saved ${saved} as the base URL of profile "${profile}".\n`);
    // What --insecure-storage gave up, said where it happened (README "Credentials").
    if (choice.insecureStorage && !sandbox) {
      ctx.io.stderr.write(`The token is stored unencrypted in ${store.location} (a file only you can read, mode 0600), not in the OS keychain.\n`);
    }
  } finally {
    lines.close();
    http.close();
  }
}

/**
 * --base-url (BO_BASE_URL) naming another tenant than the profile's saved base URL: the
 * login replaces it, so say which one goes; with nobody at a terminal to read that, only
 * with --yes (exit 2 otherwise, before anything is sent or asked).
 */
async function checkReplacedBaseUrl(ctx: Context, profile: string, saved: string | undefined, yes: boolean): Promise<void> {
  if (ctx.globals.sandbox || ctx.globals.baseUrl === undefined || saved === undefined) return;
  const from = baseUrlName(ctx.globals.baseUrl, ctx.io.env);
  const wanted = parseBaseUrl(ctx.globals.baseUrl, from);
  if (wanted === saved) return;
  if (!ctx.globals.input && !yes) {
    throw new UsageError(`${from} ${wanted} would replace ${saved}, the base URL of profile "${profile}"; pass --yes to replace it, or use another profile (-p <name>)`);
  }
  ctx.io.stderr.write(`Signing in to ${wanted}, replacing ${saved} as the base URL of profile "${profile}".\n`);
}
