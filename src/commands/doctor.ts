// `bo doctor`: why `bo` does not work here, and the command that fixes it. Every check
// has a stable id and a severity; a check that fails names its fix. Local checks read
// only (the profile, the credential as `bo auth status` reads it, the session bus, the
// state folder, the runtime); the network ones send at most 3 GETs, each with
// donotlog=1, none that changes anything: /.well-known/jwks.json without a credential
// (TLS, proxy, the tenant's Date; D5: also what a token's signature is checked against),
// one `accounts list --limit 1` with the credential, and with --sandbox the embedded
// sandbox's fixtures (in this process). Exit 1 when a check failed; warnings do not fail.
import { lstatSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Socket } from 'node:net';
import { defineCommand } from '../command.js';
import type { Context } from '../context.js';
import type { Credential } from '../api/http-types.js';
import { resolveCredential, type ResolvedCredential } from '../auth/credentials.js';
import { originRefusal } from '../auth/origin.js';
import { decodeJwt, expiryOf, verifyRs256 } from '../auth/jwt-claims.js';
import { BoError } from '../errors.js';
import { boCommand } from '../hints.js';
import { configPath } from '../config/config.js';
import { baseUrlName, caFileInEffect, parseBaseUrl } from '../config/settings.js';
import { dataFolder, makeDataFolder } from '../sandbox/state-path.js';
import { sessionBusPath } from '../auth/stores/secret-service.js';
import { DbusConnection } from '../auth/stores/dbus.js';
import { stateFolder } from '../files/state.js';
import { callerOf, changeableAbove, foreignWords, judgesOwners } from '../files/owner.js';
import { journalFolder, readRuns } from '../journal/read.js';
import { listPlans } from '../plan/store.js';
import { misreadsEscapedKeys } from '../api/json-parse.js';
import { VERSION } from '../version.js';
import { ConnectionFailure } from '../api/http-attempt.js';
import { ProxyFailure } from '../api/proxy-env.js';
import { CertificateRefused, peerOf } from '../api/verified-tls.js';
import { writeJsonValue } from '../output/json-stream.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Check {
  id: string;
  ok: boolean;
  severity: Severity;
  message: string;
  /** The command (or step) that fixes it; null when nothing needs fixing. */
  fix: string | null;
}

/**
 * Node release lines and the day upstream support ends (https://github.com/nodejs/release),
 * as of 2026-12-01. A line past its end is a warning; a line not listed is "unknown".
 */
export const NODE_LINES: ReadonlyArray<readonly [major: number, endOfLife: string]> = [
  [20, '2026-04-30'],
  [22, '2027-04-30'],
  [24, '2028-04-30'],
  [26, '2029-04-30'],
];

/** Over this skew against the tenant's clock, TOTP codes are refused. */
const SKEW_LIMIT_S = 30;
/** A token with fewer days left than this is "near its end". */
const TOKEN_NEAR_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const pass = (id: string, message: string): Check => ({ id, ok: true, severity: 'info', message, fix: null });
const fail = (id: string, severity: 'error' | 'warning', message: string, fix: string): Check => ({ id, ok: false, severity, message, fix });

export default defineCommand({
  path: ['doctor'],
  summary: 'Check the profile, credential, keychain, network, clock, state folder and runtime',
  description:
    'Check what bo needs here, each finding with the command that fixes it: the profile (base URL, origin, protected, ' +
    'the settings file), the credential (kind and where it is kept, never its value; a token\'s days left), the keychain ' +
    '(whether the Secret Service is on the session bus, asked without unlocking anything), TLS and the network (the tenant ' +
    'reached through the proxy the environment names, the CA file, which step fails), the clock (skew against the tenant\'s ' +
    'Date header; over 30 s TOTP codes are refused), the state folder (owner, mode, free space, interrupted runs, pending ' +
    'plans), the runtime (Node line and its end of life, the escaped-key bug, the single executable) and with --sandbox what ' +
    'the embedded sandbox holds. It sends at most 3 GET requests, kept out of the activity log, none that changes anything. ' +
    '--json prints {"checks":[{"id","ok","severity","message","fix"}]}. Exit 1 when a check failed; warnings do not fail.',
  examples: ['bo doctor', 'bo doctor --json', 'bo --sandbox doctor', 'bo -p staging doctor --json --jq \'.checks[] | select(.ok | not)\''],
  async run(ctx) {
    const checks = await runChecks(ctx);
    if (ctx.globals.json || ctx.globals.jsonl || ctx.globals.jq !== undefined) {
      // --jsonl: the same object on one line.
      await writeJsonValue(ctx, { checks }, ctx.globals.jsonl && !ctx.globals.json ? undefined : 2);
    } else {
      const width = Math.max(...checks.map((c) => c.id.length));
      const lines = checks.map((c) => {
        const mark = c.ok ? 'ok  ' : c.severity === 'error' ? 'FAIL' : 'warn';
        return `${mark}  ${c.id.padEnd(width)}  ${c.message}${c.fix ? `\n      ${' '.repeat(width)}  fix: ${c.fix}` : ''}\n`;
      });
      ctx.io.stdout.write(lines.join(''));
    }
    const failed = checks.filter((c) => !c.ok && c.severity === 'error');
    if (failed.length > 0) {
      throw new BoError(`${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((c) => c.id).join(', ')}`, { code: 'failed' });
    }
  },
});

/** Every check, in a stable order. */
export async function runChecks(ctx: Context): Promise<Check[]> {
  const bo = (rest: string) => boCommand(ctx.globals, rest);
  const checks: Check[] = [];
  const keychain = probeKeychain(ctx); // asked while the rest runs; bounded by its own timer

  // profile
  const { name: profile, settings } = await ctx.profile();
  const settingsFile = configPath(ctx.io.env);
  let baseUrl: string | undefined;
  if (ctx.globals.sandbox) {
    checks.push(pass('profile', `profile "${profile}" on the embedded sandbox (--sandbox); settings file ${settingsFile}`));
  } else {
    const url = ctx.globals.baseUrl ?? settings['base-url'];
    let origin: string | undefined;
    let refusal: string | undefined;
    try {
      // Checked as every command checks it (D3: https, or http on loopback).
      origin = url ? new URL(parseBaseUrl(url, baseUrlName(ctx.globals.baseUrl, ctx.io.env))).origin : undefined;
    } catch (err) {
      refusal = messageOf(err);
    }
    if (!url || !origin) {
      checks.push(
        fail('profile', 'error', `profile "${profile}": ${refusal ?? 'no base URL'}; settings file ${settingsFile}`, bo('config set base-url https://<tenant>')),
      );
    } else {
      baseUrl = url;
      const shown = ctx.globals.baseUrl !== undefined ? ' (from --base-url or BO_BASE_URL)' : '';
      checks.push(
        pass('profile', `profile "${profile}", base URL ${url}${shown}, origin ${origin}, ${settings.protected ? 'protected' : 'not protected'}; settings file ${settingsFile}`),
      );
    }
  }

  // credential
  let resolved: ResolvedCredential | undefined;
  try {
    resolved = await resolveCredential(ctx, {
      sandboxKey: async () => {
        const { embeddedApiKey } = await import('../sandbox/embedded.js');
        makeDataFolder(ctx.io.env);
        const { key, secret } = await embeddedApiKey(ctx.io.env);
        return { kind: 'apiKey', key, secret };
      },
    });
  } catch (err) {
    checks.push(fail('credential', 'error', `the credential cannot be read: ${messageOf(err)}`, `${bo('login --insecure-storage')}, or set BO_TOKEN (or BO_API_KEY and BO_API_SECRET)`));
  }
  const credential: Credential | null = resolved?.credential ?? null;
  let refused = false;
  if (resolved && !credential) {
    checks.push(fail('credential', 'error', `not signed in (profile "${profile}"); nothing in ${resolved.location}`, `${bo('login')} or ${bo('auth set-key')}`));
  } else if (resolved && credential) {
    const where = resolved.source === 'env' ? `the environment (${resolved.location})` : `${resolved.backend}: ${resolved.location}`;
    const kind = credential.kind === 'token' ? 'a token' : `an API key (key ${credential.key})`;
    const refusal = resolved.source === 'store' && baseUrl ? originRefusal(profile, resolved.origin, baseUrl) : undefined;
    if (refusal) {
      refused = true;
      checks.push(fail('credential', 'error', `${kind} in ${where}: ${refusal.message}`, bo('login')));
    } else if (credential.kind === 'token') {
      const jwt = decodeJwt(credential.token);
      const expires = expiryOf(jwt) ?? (credential.expiresAt ? new Date(credential.expiresAt) : undefined);
      const now = ctx.clock.now().getTime();
      if (!expires) checks.push(pass('credential', `${kind} in ${where}; its expiry is not known`));
      else if (expires.getTime() <= now) {
        checks.push(fail('credential', 'error', `${kind} in ${where} expired at ${expires.toISOString()}`, bo('login')));
      } else {
        const days = (expires.getTime() - now) / DAY_MS;
        const left = days < 1 ? `${Math.max(1, Math.round((days * 24 * 60) / 60))} hour(s)` : `${Math.floor(days)} day(s)`;
        checks.push(
          days < TOKEN_NEAR_DAYS
            ? fail('credential', 'warning', `${kind} in ${where} expires in ${left} (${expires.toISOString()})`, bo('login'))
            : pass('credential', `${kind} in ${where}, expires in ${left} (${expires.toISOString()})`),
        );
      }
    } else {
      checks.push(pass('credential', `${kind} in ${where}`));
    }
  }

  checks.push(await keychain);

  // Every request of the run within the profile's timeout, all together: a deadline
  // for the whole, besides each request's own (connection.ts's default: 30 s).
  const timeoutMs = (ctx.globals.timeout ?? settings.timeout ?? 30) * 1000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, deadline]);
  /** A Ctrl-C stops the run as everywhere; the deadline is a finding. */
  const late = (err: unknown): unknown => {
    if (ctx.signal.aborted) throw err;
    return deadline.aborted ? new BoError(`no answer within the timeout (${timeoutMs / 1000} s)`, { code: 'timeout' }) : err;
  };

  // tls / network / clock: one unauthenticated GET
  let jwks: unknown;
  let reached = false;
  if (baseUrl !== undefined || ctx.globals.sandbox) {
    const ca = ctx.globals.sandbox ? undefined : caFileInEffect(ctx.io.env, settings);
    const caText = ca ? `, trusting ${ca.path} (${ca.name})` : '';
    try {
      const api = await ctx.api({ anonymous: true, signal });
      const started = Date.now();
      const res = await api.request({ method: 'GET', path: '/.well-known/jwks.json', root: true, anonymous: true, query: { donotlog: 1 }, maxRetries: 0 });
      const took = Date.now() - started;
      reached = true;
      jwks = res.status === 200 ? res.body : undefined;
      checks.push(pass('network', `reached ${api.baseUrl}${caText}${proxyText(ctx)}`));
      checks.push(ctx.globals.sandbox ? pass('clock', "the embedded sandbox keeps this machine's clock") : clockCheck(ctx, res.headers.date, took));
    } catch (err) {
      checks.push(networkFailure(ctx, late(err), caText));
    }
  }

  // the credential at work: one `accounts list --limit 1`
  if (credential && reached && !refused) {
    try {
      if (credential.kind === 'token' && jwks !== undefined) {
        const signature = await verifyRs256(credential.token, jwks);
        if (!signature.valid) checks.push(fail('token-signature', 'error', `the token does not verify against the tenant's keys: ${signature.reason}`, bo('login')));
      }
      const api = await ctx.api({ credential, signal });
      await api.request({ method: 'GET', path: '/crm/accounts', query: { limit: 1, donotlog: 1 }, maxRetries: 0 });
      checks.push(pass('api', 'the credential lists accounts'));
    } catch (caught) {
      const err = late(caught);
      const status = err instanceof BoError ? err.status : undefined;
      const fix = credential.kind === 'token' ? bo('login') : bo('auth set-key');
      if (status === 401) checks.push(fail('api', 'error', 'the tenant rejected the credential (401)', fix));
      else if (status === 403) checks.push(fail('api', 'warning', 'the credential is valid but may not list accounts (403)', 'ask the tenant\'s administrator for the permission'));
      else checks.push(fail('api', 'error', `listing one account failed: ${messageOf(err)}`, (err as BoError).hint ?? bo('doctor --verbose')));
    }
  }

  checks.push(...stateChecks(ctx));
  checks.push(runtimeCheck());
  if (ctx.globals.sandbox) checks.push(await sandboxCheck(ctx));
  return checks;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function proxyText(ctx: Context): string {
  if (ctx.globals.sandbox) return ' (in this process)';
  const env = ctx.io.env;
  const name = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].find((n) => env[n]);
  return name ? ` (the environment names a proxy: ${name})` : '';
}

/** Which step failed (DNS, connect, proxy, TLS, certificate), and the fix for it. */
function networkFailure(ctx: Context, err: unknown, caText: string): Check {
  const bo = (rest: string) => boCommand(ctx.globals, rest);
  const message = messageOf(err);
  const cause = err instanceof Error ? err.cause : undefined;
  if (err instanceof BoError && err.code === 'timeout') return fail('network', 'error', `timeout: ${message}${caText}`, bo('config set timeout <seconds>'));
  if (!(err instanceof BoError) || err.code !== 'network') {
    // A CA file that cannot be read, a proxy variable that is not a URL, a timeout.
    const isCa = /ca-file|BO_CA_FILE|certificate/i.test(message);
    return fail('network', 'error', `${isCa ? 'certificate' : 'request'}: ${message}${caText}`, (err as BoError).hint ?? (isCa ? bo('config unset ca-file') : bo('doctor --verbose')));
  }
  if (cause instanceof ProxyFailure || (err as BoError).code === 'auth') {
    return fail('network', 'error', `proxy: ${message}`, (err as BoError).hint ?? 'fix HTTPS_PROXY/HTTP_PROXY or list the host in NO_PROXY');
  }
  const failure = cause instanceof ConnectionFailure ? cause : undefined;
  const code = failure?.code ?? '';
  if (failure?.cause instanceof CertificateRefused || /CERT|SELF_SIGNED|UNABLE_TO/.test(code)) {
    const peer = peerOf(failure?.cause);
    return fail('network', 'error', `certificate: ${message}${peer ? ` (${peer})` : ''}${caText}`, bo('config set ca-file <pem-file>'));
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fail('network', 'error', `DNS: ${message}`, bo('config set base-url https://<tenant>'));
  if (/^(ERR_SSL|EPROTO|ERR_TLS)/.test(code)) return fail('network', 'error', `TLS: ${message}${caText}`, 'check that the base URL is an https:// server');
  return fail('network', 'error', `connect: ${message}`, (err as BoError).hint ?? bo('config set base-url https://<tenant>'));
}

function clockCheck(ctx: Context, date: string | undefined, tookMs: number): Check {
  const theirs = date ? Date.parse(date) : NaN;
  if (Number.isNaN(theirs)) return fail('clock', 'warning', 'the tenant sent no Date header: the clock cannot be compared', 'check the time with: timedatectl');
  // The server's second, compared with this machine's at the middle of the request.
  const ours = ctx.clock.now().getTime() - tookMs / 2;
  const skew = Math.round((ours - theirs) / 1000);
  const words = `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the tenant's`;
  if (Math.abs(skew) > SKEW_LIMIT_S) {
    return fail('clock', 'warning', `this clock is ${words}: TOTP codes will be refused at sign-in`, 'set the clock from the network: sudo timedatectl set-ntp true');
  }
  return pass('clock', `this clock is ${Math.abs(skew) <= 1 ? 'in step with' : words} the tenant's`);
}

/** Whether the Secret Service is on the session bus: NameHasOwner/ListActivatableNames, which never prompt or unlock. */
async function probeKeychain(ctx: Context): Promise<Check> {
  const bo = (rest: string) => boCommand(ctx.globals, rest);
  const store = ctx.globals.sandbox
    ? 'the file store (--sandbox)'
    : (await ctx.profile()).settings['credential-store'] === 'file'
      ? 'the file store (--insecure-storage)'
      : 'the keychain';
  if (process.platform !== 'linux' && process.platform !== 'freebsd') {
    return pass('keychain', `${store} is in use; the ${process.platform === 'darwin' ? 'macOS Keychain' : 'Windows Credential Manager'} is not probed`);
  }
  const fix = `start a Secret Service (gnome-keyring, KeePassXC), or ${bo('login --insecure-storage')}`;
  const address = ctx.io.env.DBUS_SESSION_BUS_ADDRESS;
  const path = sessionBusPath(ctx.io.env);
  if (!path) {
    return fail('keychain', 'warning', `no session bus ${address ? `on a Unix socket (DBUS_SESSION_BUS_ADDRESS=${address})` : '(DBUS_SESSION_BUS_ADDRESS is not set)'}: no Secret Service; ${store} is in use`, fix);
  }
  const { connect } = process.getBuiltinModule('node:net') as typeof import('node:net');
  const socket: Socket = connect(path);
  const bus = new DbusConnection(socket);
  const ask = (member: string, body?: string[]) =>
    bus.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member, ...(body ? { signature: 's', body } : {}) });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the session bus did not answer in 2 s')), 2000);
  });
  try {
    const [owned] = await Promise.race([ask('NameHasOwner', ['org.freedesktop.secrets']), timeout]);
    if (owned === true) return pass('keychain', `the Secret Service is on the session bus; ${store} is in use`);
    const [names] = await Promise.race([ask('ListActivatableNames'), timeout]);
    if (Array.isArray(names) && names.includes('org.freedesktop.secrets')) {
      return pass('keychain', `the Secret Service starts when asked (activatable on the session bus); ${store} is in use`);
    }
    return fail('keychain', 'warning', `no Secret Service on the session bus; ${store} is in use`, fix);
  } catch (err) {
    return fail('keychain', 'warning', `the session bus cannot be reached (${path.replace(/\0/g, '@')}: ${messageOf(err)}); ${store} is in use`, fix);
  } finally {
    clearTimeout(timer);
    bus.close();
  }
}

/** The state folder, journal and plans folder: owner, mode, free space; interrupted runs; pending plans. */
function stateChecks(ctx: Context): Check[] {
  const bo = (rest: string) => boCommand(ctx.globals, rest);
  const env = ctx.io.env;
  const state = stateFolder(env);
  const SAFE = 'export BO_STATE_DIR=<a folder of your own>';
  if (state === undefined) return [fail('state', 'warning', 'no state folder: HOME is not set (no journal, no plans)', SAFE)];
  const checks: Check[] = [];
  const who = callerOf();
  const parts: string[] = [];
  let foreign: string | undefined;
  if (judgesOwners) {
    // The nearest folder above that exists: what is not made yet is made 0700 later.
    let existing = dirname(state);
    while (!lstatSync(existing, { throwIfNoEntry: false }) && existing !== dirname(existing)) existing = dirname(existing);
    let above: ReturnType<typeof changeableAbove>;
    try {
      above = changeableAbove(existing, who);
    } catch (err) {
      foreign = `the folders above the state folder ${state} cannot be checked: ${messageOf(err)}`;
    }
    if (above) foreign = `the state folder ${state} is in ${above.folder}, which ${foreignWords(above.how)}`;
  }
  for (const [label, folder] of [
    ['state folder', state],
    ['journal', `${state}/journal`],
    ['plans', `${state}/plans`],
  ] as const) {
    const st = lstatSync(folder, { throwIfNoEntry: false });
    if (!st) {
      parts.push(`${label} ${folder} (not made yet)`);
      continue;
    }
    if (st.isSymbolicLink() || !st.isDirectory()) foreign ??= `the ${label} ${folder} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`;
    else if (judgesOwners && st.uid !== who.uid) foreign ??= `the ${label} ${folder} is owned by another user (uid ${st.uid})`;
    parts.push(`${label} ${folder} (uid ${st.uid}, mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`);
  }
  let free = '';
  for (let dir = state; ; dir = dirname(dir)) {
    try {
      const fs = statfsSync(dir);
      free = `; ${formatBytes(fs.bavail * fs.bsize)} free`;
      break;
    } catch {
      if (dir === dirname(dir)) break;
    }
  }
  if (foreign) {
    checks.push(fail('state', 'error', `${foreign}: the journal and plans cannot be used`, SAFE));
    return checks;
  }
  checks.push(pass('state', `${parts.join(', ')}${free}`));

  const journal = journalFolder(env);
  try {
    const interrupted = journal ? readRuns(journal, () => undefined).filter((r) => r.summary.state === 'interrupted') : [];
    if (interrupted.length > 0) {
      const first = interrupted[0]!.summary;
      checks.push(
        fail('journal', 'warning', `${interrupted.length} interrupted run${interrupted.length === 1 ? '' : 's'}, the latest ${first.id} (${first.command}, ${first.done} done)`, bo(`batch resume ${first.id}`)),
      );
    } else checks.push(pass('journal', 'no interrupted run'));
  } catch (err) {
    checks.push(fail('journal', 'error', `the journal cannot be read: ${messageOf(err)}`, SAFE));
  }
  try {
    const plans = listPlans(env);
    checks.push(plans.length > 0 ? fail('plans', 'warning', `${plans.length} pending plan${plans.length === 1 ? '' : 's'}`, bo('plan list')) : pass('plans', 'no pending plan'));
  } catch (err) {
    checks.push(fail('plans', 'error', `the plans cannot be read: ${messageOf(err)}`, SAFE));
  }
  return checks;
}

function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

/** The Node line and its end of life (NODE_LINES), the escaped-key bug, the single executable. */
export function runtimeCheck(now = new Date(), version = process.versions.node): Check {
  const major = Number(version.split('.')[0]);
  const line = NODE_LINES.find(([m]) => m === major);
  const sea = (process.getBuiltinModule('node:sea') as typeof import('node:sea') | undefined)?.isSea() ?? false;
  const what = sea ? `the single executable bo ${VERSION} with embedded Node ${version}` : `bo ${VERSION} on Node ${version}`;
  const bug = misreadsEscapedKeys() ? '; this runtime misreads escaped JSON keys (bo reads those answers itself)' : '';
  const fix = sea ? 'install a newer bo' : 'install a supported Node release (https://nodejs.org)';
  if (!line) return fail('runtime', 'warning', `${what}: Node ${major} is not a line bo knows the support of${bug}`, fix);
  if (now.toISOString().slice(0, 10) > line[1]) return fail('runtime', 'warning', `${what}: Node ${major} reached its end of life on ${line[1]}${bug}`, fix);
  return pass('runtime', `${what}: Node ${major} is supported until ${line[1]}${bug}`);
}

/** With --sandbox: how many records of each kind the embedded sandbox holds. */
async function sandboxCheck(ctx: Context): Promise<Check> {
  try {
    const api = await ctx.api({ anonymous: true });
    const res = await api.request({ method: 'GET', path: '/__sandbox/fixtures', root: true, anonymous: true, query: { donotlog: 1 }, maxRetries: 0 });
    const body = (res.body ?? {}) as Record<string, unknown>;
    const counts = Object.entries(body)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => `${(v as unknown[]).length} ${k}`);
    return pass('sandbox', `the embedded sandbox (${dataFolder(ctx.io.env).path}) holds ${counts.join(', ')}`);
  } catch (err) {
    return fail('sandbox', 'error', `the embedded sandbox cannot be read: ${messageOf(err)}`, boCommand(ctx.globals, 'sandbox reset'));
  }
}
