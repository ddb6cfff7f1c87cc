// Opens the HTTP client a command uses: the tenant's base URL (flag, environment,
// profile) or the embedded sandbox, the profile's scheme word and timeout, and the
// credential (environment over stored, D1/D2). Loaded only by commands that talk HTTP.

import type { ApiOptions, Context } from '../context.js';
import type { Credential } from '../auth/credential-types.js';
import { AuthError, UsageError } from '../output/errors.js';
import type { HttpClient } from './http-types.js';
import { maxResponseBytes } from './response-cap.js';

const DEFAULT_TIMEOUT_S = 30;

export async function connect(ctx: Context, options: ApiOptions = {}): Promise<HttpClient> {
  const { globals, io } = ctx;
  const [config, { parseBaseUrl }, { createHttpClient }] = await Promise.all([
    import('../config/config.js'),
    import('../config/settings.js'),
    import('./http.js'),
  ]);
  const cfg = config.loadConfig(io.env);
  const profile = config.currentProfileName(globals, cfg);
  const settings = config.profileSettings(cfg, profile);

  let baseUrl: string;
  let apiKeyScheme = settings['api-key-scheme'] ?? 'bo';
  let credential: Credential | null;
  let closeSandbox: (() => Promise<void>) | undefined;

  if (globals.sandbox && !globals.baseUrl) {
    const { openEmbeddedSandbox } = await import('../sandbox/embedded.js');
    const sandbox = await openEmbeddedSandbox(io.env);
    baseUrl = sandbox.url;
    apiKeyScheme = sandbox.apiKey.scheme;
    closeSandbox = sandbox.close;
    // A `bo --sandbox login` token wins; otherwise the sandbox's own API key. Credentials
    // from the environment belong to a real tenant and never go to the sandbox (D3).
    // The store is asked only when the profile has stored something: a keychain call
    // costs a helper process, which a plain sandbox run need not pay.
    const sandboxKey: Credential = { kind: 'apiKey', key: sandbox.apiKey.key, secret: sandbox.apiKey.secret };
    credential =
      options.credential !== undefined
        ? options.credential
        : options.anonymous
          ? null
          : settings['credential-store']
            ? ((await (await ctx.credentials()).get(profile).catch(() => null)) ?? sandboxKey)
            : sandboxKey;
  } else {
    const url = globals.baseUrl ?? settings['base-url'];
    if (!url) {
      throw new UsageError(`no base URL for profile "${profile}"`, {
        hint: 'pass --base-url https://<tenant>, run `bo config set base-url <url>`, or try `bo --sandbox …`',
      });
    }
    baseUrl = parseBaseUrl(url, globals.baseUrl ? '--base-url' : 'base-url');
    credential = options.credential !== undefined ? options.credential : options.anonymous ? null : await storedCredential(ctx, profile);
  }

  const client = createHttpClient({
    baseUrl,
    credential,
    apiKeyScheme,
    timeoutMs: (globals.timeout ?? settings.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
    maxRetries: globals.maxRetries,
    noLog: !globals.log,
    trace: globals.verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
    sleep: ctx.clock.sleep,
    signal: ctx.signal,
    maxResponseBytes: maxResponseBytes(io.env, settings['max-response-mb']),
  });
  if (!closeSandbox) return client;
  const close = closeSandbox;
  return {
    baseUrl: client.baseUrl,
    request: (o) => client.request(o),
    close: () => {
      client.close();
      return close() as unknown as void;
    },
  };
}

async function storedCredential(ctx: Context, profile: string): Promise<Credential> {
  const { resolveCredential } = await import('../auth/credentials.js');
  const resolved = await resolveCredential(ctx).catch((err: unknown) => {
    // Reading, not storing: say what the user can do about it here.
    if ((err as AuthError).code !== 'keychain_unavailable') throw err;
    throw new AuthError(`not signed in (profile "${profile}"): ${(err as Error).message}`, {
      code: 'keychain_unavailable',
      hint: 'sign in with `bo login --insecure-storage`, or set BO_TOKEN (or BO_API_KEY and BO_API_SECRET)',
    });
  });
  if (!resolved.credential) {
    throw new AuthError(`not signed in (profile "${profile}")`, {
      hint: 'run `bo login`, `bo auth set-key`, or set BO_TOKEN / BO_API_KEY and BO_API_SECRET',
    });
  }
  return resolved.credential;
}
