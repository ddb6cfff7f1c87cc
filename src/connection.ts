// The composition root: the one place that turns the run's profile (resolved once, in
// the context) into a base URL, a credential and a transport, and opens the HTTP client
// a command uses with them (ARCHITECTURE principle 7). src/api/ knows none of this. --sandbox comes
// first and reads no base URL at all: the embedded sandbox with its own key (or a
// credential bound to it). Otherwise the tenant's base URL (flag, environment,
// profile), the profile's scheme word and timeout, and the credential: the
// environment's (the caller's explicit choice, sent to the base URL in effect) over the
// stored one, which is sent only to the origin it belongs to (D1/D2/D3).
// The sandbox's admin commands (`bo sandbox users|…`) come through here too: the served
// sandbox at --base-url, else the embedded one in process, with no credential.
// Loaded only by commands that talk HTTP.

import type { ApiOptions, Context } from './context.js';
import type { SecureContext } from 'node:tls';
import { directExchange, type Exchange } from './api/http-attempt.js';
import { createHttpClient } from './api/http.js';
import { loadCaFile as readCaFile } from './api/ca-file.js';
import { resolveCredential } from './auth/credentials.js';
import { originRefusal } from './auth/origin.js';
import { makeDataFolder } from './sandbox/state-path.js';
import type { Credential, HttpClient } from './api/http-types.js';
import { AuthError, UsageError } from './errors.js';
import { maxResponseBytes } from './api/response-cap.js';
import { baseUrlName, caFileInEffect, parseBaseUrl } from './config/settings.js';
import { VERSION } from './version.js';
import { boCommand, keychainMissingHint, rejectedHint, signInHint } from './hints.js';

const DEFAULT_TIMEOUT_S = 30;

/** What every request says it is. */
export const USER_AGENT = `bo/${VERSION} node/${process.versions.node}`;

export async function connect(ctx: Context, options: ApiOptions = {}): Promise<HttpClient> {
  const { globals, io } = ctx;
  const { name: profile, settings } = await ctx.profile();
  // The admin endpoints take no credential: none is read, none is sent.
  const anonymous = options.anonymous || options.sandboxAdmin;
  const wanted = (resolve: () => Promise<Credential>) =>
    options.credential !== undefined ? Promise.resolve(options.credential) : anonymous ? Promise.resolve(null) : resolve();

  let baseUrl: string;
  let apiKeyScheme = settings['api-key-scheme'] ?? 'bo';
  let credential: Credential | null;
  /** The variables a credential from the environment came from, for the 401 hint. */
  let fromEnv: string[] | undefined;
  let closeSandbox: (() => Promise<void>) | undefined;
  let transport: Exchange | undefined;
  const served = options.sandboxAdmin ? servedSandboxUrl(ctx) : undefined;

  if (served) {
    baseUrl = served; // a served sandbox: over the network, through the proxy in effect
    credential = null;
  } else if (globals.sandbox || options.sandboxAdmin) {
    // Wins over --base-url, BO_BASE_URL and every credential source: a user who asked
    // for the sandbox never reaches a tenant. (The admin commands land here without
    // --base-url: the embedded sandbox.)
    // In this process, each request handed over as a call: no port, no socket (embedded.ts).
    const { connectEmbeddedSandbox } = await import('./sandbox/embedded.js');
    makeDataFolder(io.env);
    const sandbox = await connectEmbeddedSandbox(io.env);
    baseUrl = sandbox.url;
    transport = directExchange(sandbox.answer);
    apiKeyScheme = sandbox.apiKey.scheme;
    closeSandbox = sandbox.close;
    try {
      credential = await wanted(async () => {
        const sandboxKey: Credential = { kind: 'apiKey', key: sandbox.apiKey.key, secret: sandbox.apiKey.secret };
        const resolved = await resolveCredential(ctx, { sandboxKey: async () => sandboxKey });
        return resolved.credential ?? sandboxKey;
      });
    } catch (err) {
      await sandbox.close();
      throw err;
    }
  } else {
    const url = globals.baseUrl ?? settings['base-url'];
    if (!url) {
      throw new UsageError(`no base URL for profile "${profile}"`, {
        hint: `pass --base-url https://<tenant>, run \`${boCommand(globals, 'config set base-url <url>')}\`, or try \`bo --sandbox …\``,
      });
    }
    baseUrl = parseBaseUrl(url, baseUrlName(globals.baseUrl, io.env));
    credential = await wanted(async () => {
      const resolved = await credentialFor(ctx, profile, baseUrl);
      fromEnv = resolved.env;
      return resolved.credential;
    });
  }

  // A company CA (the profile's ca-file, or BO_CA_FILE) for a server reached over the
  // network; read now, so a missing or empty file is exit 2 before anything is sent.
  const caFile = transport ? undefined : await loadCaFile(io.env, settings);

  const client = createHttpClient({
    baseUrl,
    ...(caFile ? { secureContext: caFile.secureContext, caFile: caFile.shown } : {}),
    credential,
    apiKeyScheme,
    timeoutMs: (globals.timeout ?? settings.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
    maxRetries: globals.maxRetries,
    noLog: !globals.log,
    trace: globals.verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
    sleep: ctx.clock.sleep,
    signal: options.signal ?? ctx.signal,
    maxResponseBytes: maxResponseBytes(io.env, settings['max-response-mb']),
    env: transport ? undefined : io.env, // proxies; the embedded sandbox is in this process
    transport,
    secrets: ctx.secrets,
    userAgent: USER_AGENT,
    command: (rest) => boCommand(globals, rest),
    unauthorizedHint: rejectedHint(globals, {
      ...(fromEnv ? { env: fromEnv } : {}),
      ...(credential?.kind === 'apiKey' && !globals.sandbox ? { apiKeyScheme } : {}),
    }),
  });
  if (!closeSandbox) return client;
  const close = closeSandbox;
  return {
    baseUrl: client.baseUrl,
    ...(client.command ? { command: client.command } : {}),
    request: (o) => client.request(o),
    requestBytes: (o) => client.requestBytes(o),
    close: () => {
      client.close();
      return close() as unknown as void;
    },
  };
}

/** The CA file in effect, read and checked (src/api/ca-file.ts), with how the trace names it; undefined when none is set. */
async function loadCaFile(
  env: Context['io']['env'],
  settings: { 'ca-file'?: unknown },
): Promise<{ secureContext: SecureContext; shown: string } | undefined> {
  const wanted = caFileInEffect(env, settings);
  if (!wanted) return undefined;
  const file = readCaFile(wanted.path, wanted.name, env);
  return { secureContext: file.secureContext, shown: `${file.path} (${wanted.name})` };
}

/**
 * The served sandbox the admin commands act on: --base-url or BO_BASE_URL, checked like
 * any base URL. Undefined means the embedded one; a profile's base-url is a tenant and
 * never counts, so a reset never hits a tenant.
 */
export function servedSandboxUrl(ctx: Context): string | undefined {
  return ctx.globals.baseUrl === undefined ? undefined : parseBaseUrl(ctx.globals.baseUrl, baseUrlName(ctx.globals.baseUrl, ctx.io.env));
}

/**
 * The credential for a request to `baseUrl`: the environment's (with the names of its
 * variables), or a stored one that belongs there.
 */
async function credentialFor(ctx: Context, profile: string, baseUrl: string): Promise<{ credential: Credential; env?: string[] }> {
  const resolved = await resolveCredential(ctx).catch((err: unknown) => {
    // Reading, not storing: say what the user can do about it here.
    if ((err as AuthError).code !== 'keychain_unavailable') throw err;
    throw new AuthError(`not signed in (profile "${profile}"): ${(err as Error).message}`, {
      code: 'keychain_unavailable',
      hint: keychainMissingHint(ctx.globals),
    });
  });
  if (!resolved.credential) {
    throw new AuthError(`not signed in (profile "${profile}")`, {
      code: 'not_signed_in',
      hint: signInHint(ctx.globals),
    });
  }
  if (resolved.source === 'store') {
    const refusal = originRefusal(profile, resolved.origin, baseUrl);
    if (refusal) throw refusal;
  }
  return { credential: resolved.credential, ...(resolved.source === 'env' ? { env: resolved.location.split(' + ') } : {}) };
}

