// `bo auth status [--verify]`: who the current profile is signed in as, with what, and
// where that credential is kept. Exit 4 when there is no usable credential, so CI can
// run it as a pre-flight check. Never prints a secret: for an API key only the key id.
import { defineCommand } from '../../command.js';
import { resolveCredential } from '../../auth/credentials.js';
import { describeOrigin, originRefusal } from '../../auth/origin.js';
import { decodeJwt, expiryOf } from '../../auth/jwt-claims.js';
import { AuthError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { verifyCredential } from '../../auth/verify.js';
import { boCommand, keychainMissingHint, signInHint } from '../../hints.js';
import { caFileInEffect } from '../../config/settings.js';
import { makeDataFolder } from '../../sandbox/state-path.js';
import { option } from '../../input/declare.js';

export default defineCommand({
  printsRecords: true,
  path: ['auth', 'status'],
  summary: 'Show the credential in use and where it is stored',
  description:
    'Show the profile, base URL, credential kind (token or API key), where it comes from ' +
    '(environment, keychain, file, sandbox), the origin a stored credential belongs to, who it belongs to ' +
    '(PersonUid, AccountUid), when it expires, and the CA file trusted (ca-file or BO_CA_FILE) when one is set. --verify proves the credential works: a token by its ' +
    "signature and expiry against the tenant's /.well-known/jwks.json, an API key by listing one account " +
    '(GET /crm/accounts?limit=1, kept out of the activity log). Exit 4 when not signed in, when the stored ' +
    'credential belongs to another base URL, or when it is expired, invalid, rejected (401) or not permitted (403).',
  examples: ['bo auth status', 'bo auth status --verify --json', 'BO_TOKEN="$CI_TOKEN" bo auth status --verify'],
  options: [option.switch('--verify', 'prove the credential works (token: signature and expiry; API key: one request)')] as const,
  async run(ctx, _args, opts) {

    const { sandbox } = ctx.globals;
    const resolved = await resolveCredential(ctx, {
      sandboxKey: async () => {
        const { embeddedApiKey } = await import('../../sandbox/embedded.js');
        makeDataFolder(ctx.io.env);
        const { key, secret } = await embeddedApiKey(ctx.io.env);
        return { kind: 'apiKey', key, secret };
      },
    }).catch((err: unknown) => {
      // The store's own hint names --insecure-storage, which this command does not take.
      if ((err as { code?: string }).code !== 'keychain_unavailable') throw err;
      throw new AuthError((err as Error).message, { code: 'keychain_unavailable', hint: keychainMissingHint(ctx.globals) });
    });
    const { credential, profile } = resolved;
    if (!credential) {
      throw new AuthError(`not signed in (profile "${profile}")`, {
        code: 'not_signed_in',
        hint: signInHint(ctx.globals),
      });
    }
    const baseUrl = sandbox ? null : (ctx.globals.baseUrl ?? (await ctx.profile()).settings['base-url'] ?? null);
    // A stored credential goes only to its own origin: the one in effect must be it.
    const refusal =
      resolved.source === 'store' && baseUrl !== null ? originRefusal(profile, resolved.origin, baseUrl) : undefined;
    const jwt = credential.kind === 'token' ? decodeJwt(credential.token) : null;
    const claim = (name: string) => (typeof jwt?.payload[name] === 'string' ? (jwt.payload[name] as string) : null);
    const expires = expiryOf(jwt) ?? (credential.kind === 'token' && credential.expiresAt ? new Date(credential.expiresAt) : undefined);
    const expired = expires ? expires.getTime() <= ctx.clock.now().getTime() : false;
    const check = opts.verify && !refusal ? await verifyCredential(ctx, credential, resolved.source === 'env' ? resolved.location.split(' + ') : undefined) : undefined;

    const origin = resolved.source === 'store' ? (resolved.origin ?? null) : null;
    // The company CA the connections trust (ca-file, BO_CA_FILE); the embedded sandbox needs none.
    const ca = sandbox ? undefined : caFileInEffect(ctx.io.env, (await ctx.profile()).settings);
    const status = {
      profile,
      baseUrl,
      kind: credential.kind,
      source: resolved.backend,
      location: resolved.location,
      origin,
      username: credential.kind === 'token' ? (credential.username ?? null) : null,
      personUid: claim('PersonUid') ?? claim('sub'),
      accountUid: claim('AccountUid'),
      key: credential.kind === 'apiKey' ? credential.key : null,
      expiresAt: expires?.toISOString() ?? null,
      expired,
      ...(ca ? { caFile: ca.path } : {}),
      ...(check?.field ?? {}),
    };
    const source =
      resolved.source === 'env' ? `environment (${resolved.location})` : `${resolved.backend}: ${resolved.location}`;
    await printRecord(ctx, status, [
      ['Profile', profile],
      ['Base URL', sandbox ? '(embedded sandbox)' : (baseUrl ?? '(not set)')],
      ['Kind', credential.kind === 'token' ? 'token' : 'API key'],
      ['Source', source],
      ...(resolved.source === 'store'
        ? [['Belongs to', origin ? describeOrigin(origin) : '(not recorded: sign in again)'] as [string, unknown]]
        : []),
      ...(credential.kind === 'apiKey'
        ? [['Key', credential.key] as [string, unknown]]
        : ([
            ['User', status.username ?? ''],
            ['PersonUid', status.personUid ?? ''],
            ['AccountUid', status.accountUid ?? ''],
            ['Expires', status.expiresAt ? `${status.expiresAt}${expired ? ' (expired)' : ''}` : 'unknown'],
          ] as Array<[string, unknown]>)),
      ...(ca ? [['CA file', `${ca.path} (${ca.name})`] as [string, unknown]] : []),
      ...(check ? [check.row] : []),
    ]);
    if (refusal) throw refusal;
    if (expired) {
      throw new AuthError(`the token of profile "${profile}" expired at ${status.expiresAt}`, { hint: `run \`${boCommand(ctx.globals, 'login')}\`` });
    }
    if (check?.failure) throw check.failure;
  },
});
