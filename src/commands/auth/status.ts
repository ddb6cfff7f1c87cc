// `bo auth status [--verify]`: who the current profile is signed in as, with what, and
// where that credential is kept. Exit 4 when there is no usable credential, so CI can
// run it as a pre-flight check. Never prints a secret: for an API key only the key id.
import { defineCommand } from '../../command.js';

export default defineCommand<{ verify?: boolean }>({
  path: ['auth', 'status'],
  summary: 'Show the credential in use and where it is stored',
  description:
    'Show the profile, base URL, credential kind (token or API key), where it comes from ' +
    '(environment, keychain, file), who it belongs to (PersonUid, AccountUid) and when it expires. ' +
    '--verify checks the token signature against the tenant\'s /.well-known/jwks.json. ' +
    'Exit 4 when not signed in or the token is expired or invalid.',
  examples: ['bo auth status', 'bo auth status --verify --json', 'BO_TOKEN=… bo auth status'],
  configure: (cmd) => cmd.option('--verify', "check the token's signature against the tenant's JWK set"),
  async run(ctx, _args, opts) {
    const { resolveCredential } = await import('../../auth/credentials.js');
    const { loadConfig, profileSettings } = await import('../../config/config.js');
    const { decodeJwt, expiryOf, verifyRs256 } = await import('../../auth/jwt-claims.js');
    const { AuthError } = await import('../../output/errors.js');
    const { printRecord, say } = await import('../../output/print.js');

    const resolved = await resolveCredential(ctx);
    const { credential, profile } = resolved;
    if (!credential) {
      throw new AuthError(`not signed in (profile "${profile}")`, {
        code: 'not_signed_in',
        hint: 'run bo login or bo auth set-key, or set BO_TOKEN (or BO_API_KEY and BO_API_SECRET)',
      });
    }
    const baseUrl = ctx.globals.baseUrl ?? profileSettings(loadConfig(ctx.io.env), profile)['base-url'] ?? null;
    const jwt = credential.kind === 'token' ? decodeJwt(credential.token) : null;
    const claim = (name: string) => (typeof jwt?.payload[name] === 'string' ? (jwt.payload[name] as string) : null);
    const expires = expiryOf(jwt) ?? (credential.kind === 'token' && credential.expiresAt ? new Date(credential.expiresAt) : undefined);
    const expired = expires ? expires.getTime() <= ctx.clock.now().getTime() : false;

    let verified: string | undefined;
    let failure: string | undefined;
    if (opts.verify && credential.kind === 'token') {
      const api = await ctx.api({ anonymous: true });
      try {
        const res = await api.request({ method: 'GET', path: '/.well-known/jwks.json', root: true, anonymous: true });
        const check = await verifyRs256(credential.token, res.body);
        verified = check.valid ? `valid (key ${check.kid})` : `invalid: ${check.reason}`;
        if (!check.valid) failure = `the token signature does not verify against ${api.baseUrl}/.well-known/jwks.json: ${check.reason}`;
      } finally {
        api.close();
      }
    } else if (opts.verify) {
      say(ctx, '--verify checks token signatures; an API key is checked by the server on each request.');
    }

    const status = {
      profile,
      baseUrl,
      kind: credential.kind,
      source: resolved.backend,
      location: resolved.location,
      username: credential.kind === 'token' ? (credential.username ?? null) : null,
      personUid: claim('PersonUid') ?? claim('sub'),
      accountUid: claim('AccountUid'),
      key: credential.kind === 'apiKey' ? credential.key : null,
      expiresAt: expires?.toISOString() ?? null,
      expired,
      ...(verified !== undefined ? { signature: verified } : {}),
    };
    await printRecord(ctx, status, [
      ['Profile', profile],
      ['Base URL', baseUrl ?? '(not set)'],
      ['Kind', credential.kind === 'token' ? 'token' : 'API key'],
      ['Source', resolved.source === 'env' ? `environment (${resolved.location})` : `${resolved.backend}: ${resolved.location}`],
      ...(credential.kind === 'apiKey'
        ? [['Key', credential.key] as [string, unknown]]
        : ([
            ['User', status.username ?? ''],
            ['PersonUid', status.personUid ?? ''],
            ['AccountUid', status.accountUid ?? ''],
            ['Expires', status.expiresAt ? `${status.expiresAt}${expired ? ' (expired)' : ''}` : 'unknown'],
          ] as Array<[string, unknown]>)),
      ...(verified !== undefined ? [['Signature', verified] as [string, unknown]] : []),
    ]);
    if (expired) {
      throw new AuthError(`the token of profile "${profile}" expired at ${status.expiresAt}`, { hint: 'run bo login' });
    }
    if (failure) throw new AuthError(failure, { code: 'invalid_signature' });
  },
});
