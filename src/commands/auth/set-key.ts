// `bo auth set-key`: stores an API key pair (D1) for the current profile. The secret
// is never a flag (it would sit in shell history and `ps`): it comes from the first
// line of stdin with --secret-stdin, or from a hidden prompt on a terminal.
import { defineCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { AuthError, BoError, UsageError } from '../../errors.js';
import { CertificateRefused } from '../../api/verified-tls.js';
import { baseUrlName, parseBaseUrl } from '../../config/settings.js';
import { openCredentialStore, rememberStored } from '../../auth/credentials.js';
import { EMBEDDED_SANDBOX_ORIGIN, originOf } from '../../auth/origin.js';
import { envCredentialNames } from '../../auth/stores/env.js';
import { say, warn } from '../../output/print.js';
import { readFirstLine } from '../../input/read-text.js';
import { option } from '../../input/declare.js';

export default defineCommand({
  path: ['auth', 'set-key'],
  summary: 'Store an API key and secret for the current profile',
  description:
    'Store an API key pair in the OS keychain (or, with --insecure-storage, a 0600 file in the config folder; ' +
    'with --sandbox always that file). ' +
    'The secret is read from the first line of stdin with --secret-stdin, or asked for without echo on a terminal. ' +
    'The key belongs to the base URL in effect (--base-url, BO_BASE_URL or the profile\'s base-url), which is saved ' +
    'in the profile: it is sent to that origin only, never to another base URL. ' +
    "Before anything is asked, the tenant's certificate is checked (a TLS handshake, nothing sent): one this machine " +
    'does not trust is exit 1; a tenant that cannot be reached is a warning, and the key is stored.',
  examples: [
    { example: 'bo auth set-key --base-url https://acme.example.com --key ak_live_123   # asks for the secret', needs: "a terminal, and a tenant's API key" },
    { example: 'printf %s "$SECRET" | bo auth set-key --key ak_live_123 --secret-stdin', needs: "a tenant's API key and the OS keychain" },
  ],
  options: [
    option.text('--key <key>', 'the API key id (asked for on a terminal when absent)'),
    option.switch('--secret-stdin', 'read the secret from the first line of stdin'),
    option.switch('--insecure-storage', 'store in a 0600 file instead of the OS keychain'),
  ] as const,
  async run(ctx, _args, opts) {
    const { name: profile, settings } = await ctx.profile();

    // The key is stored against the origin it is for, and sent nowhere else: with no
    // base URL in effect there is nothing to bind it to.
    const url = ctx.globals.baseUrl ?? settings['base-url'];
    let baseUrl: string | undefined;
    if (!ctx.globals.sandbox) {
      if (!url) {
        throw new UsageError(`no base URL for profile "${profile}": pass --base-url <url> with the tenant this key belongs to`);
      }
      baseUrl = parseBaseUrl(url, baseUrlName(ctx.globals.baseUrl, ctx.io.env));
    }
    const origin = baseUrl === undefined ? EMBEDDED_SANDBOX_ORIGIN : originOf(baseUrl)!;

    // The key is sent as `<key>:<secret>` (D1): a colon or a space would split it.
    const oneWord = (k: string) => {
      if (!/^[^\s:]+$/.test(k)) throw new UsageError('--key must be one word with no spaces or colons');
    };
    if (opts.key !== undefined) oneWord(opts.key);
    else if (!ctx.globals.input) throw new AuthError('no API key given: pass --key <key>', { code: 'input_required' });
    let secret: string | undefined;
    if (opts.secretStdin) {
      secret = await readFirstLine('--secret-stdin', ctx.io.stdin);
      if (secret === '') throw new AuthError('--secret-stdin: stdin held no secret', { code: 'input_required' });
    } else if (!ctx.globals.input) {
      throw new AuthError('no API secret: pass --secret-stdin and write the secret on stdin', { code: 'input_required' });
    }
    // Before anything is asked: the tenant's certificate (nothing is sent).
    if (baseUrl !== undefined) await checkCertificate(ctx);

    let key = opts.key;
    if (key === undefined) {
      key = (await (await ctx.prompter()).input('API key')).trim();
      oneWord(key);
    }
    secret ??= await (await ctx.prompter()).password('API secret', { validate: (v) => (v ? true : 'the secret is required') });

    // Under --sandbox ctx.credentials() is the 0600 file already (credentials.ts).
    const store = opts.insecureStorage && !ctx.globals.sandbox
      ? await openCredentialStore(ctx.io.env, await ctx.profile(), { insecure: true })
      : await ctx.credentials();
    await store.set(profile, { kind: 'apiKey', key, secret, origin });
    say(ctx, `Stored API key ${key} for profile "${profile}" in ${store.location}.`);
    const saved = ctx.globals.sandbox ? undefined : rememberStored(ctx.io.env, profile, store.backend, baseUrl);
    if (saved) say(ctx, `Saved ${saved} as the base URL of profile "${profile}"; the key is sent there only.`);
    if (opts.insecureStorage) warn(ctx, 'the secret is stored unencrypted in that file (mode 0600).');
    const names = envCredentialNames(ctx.io.env);
    if (names.length) warn(ctx, `${names.join(' and ')} in the environment ${names.length > 1 ? 'take' : 'takes'} precedence over this key.`);
  },
});

/**
 * A certificate this machine does not trust is refused before anything is asked, as
 * `bo login` does: a TLS handshake with the tenant, nothing sent over it (the CA file
 * in effect is read and checked for it too). A tenant that cannot be reached now only
 * warns: the key is stored, and `bo auth status --verify` checks it later.
 */
async function checkCertificate(ctx: Context): Promise<void> {
  const http = await ctx.api({ credential: null });
  try {
    await http.handshake?.();
  } catch (err) {
    if (!(err instanceof BoError) || err.code !== 'network' || certificateRefused(err)) throw err;
    warn(ctx, `${err.message}; the key is stored without checking the tenant's certificate (bo auth status --verify checks it later)`);
  } finally {
    http.close();
  }
}

/** Whether the failure, or what caused it, is a certificate node:tls refused. */
function certificateRefused(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) if (e instanceof CertificateRefused) return true;
  return false;
}
