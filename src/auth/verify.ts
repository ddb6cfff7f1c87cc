// `bo auth status --verify`: proves a credential works. A token by its RS256 signature
// against the JWK set at {base}/.well-known/jwks.json (D5; the expiry is checked by the
// caller); an API key by the cheapest request it must be allowed to make,
// GET /crm/accounts?limit=1&donotlog=1 (kept out of the activity log).

import type { Context } from '../context.js';
import type { Credential } from '../api/http-types.js';
import { AuthError, BoError } from '../errors.js';
import { boCommand, rejectedHint } from '../hints.js';
import { verifyRs256 } from './jwt-claims.js';

export interface Verification {
  /** Added to `bo auth status --json`. */
  field: { signature: string } | { verified: string };
  /** The row of the text output. */
  row: [string, string];
  /** Set when the credential does not work (exit 4). */
  failure?: AuthError;
}

/** `fromEnv`: the variables the credential came from, when it came from the environment. */
export async function verifyCredential(ctx: Context, credential: Credential, fromEnv?: string[]): Promise<Verification> {
  if (credential.kind === 'token') {
    // ctx.api() clients are closed when the command ends.
    const api = await ctx.api({ anonymous: true });
    const res = await api.request({ method: 'GET', path: '/.well-known/jwks.json', root: true, anonymous: true });
    const check = await verifyRs256(credential.token, res.body);
    const text = check.valid ? `valid (key ${check.kid})` : `invalid: ${check.reason}`;
    if (check.valid) return { field: { signature: text }, row: ['Signature', text] };
    return {
      field: { signature: text },
      row: ['Signature', text],
      failure: new AuthError(`the token signature does not verify against ${api.baseUrl}/.well-known/jwks.json: ${check.reason}`, {
        code: 'invalid_signature',
        hint: fromEnv ? rejectedHint(ctx.globals, { env: fromEnv }) : `sign in again with \`${boCommand(ctx.globals, 'login')}\``,
      }),
    };
  }
  // The client that sends it resolves the same credential, through the same origin check.
  const api = await ctx.api();
  try {
    await api.request({ method: 'GET', path: '/crm/accounts', query: { limit: 1, donotlog: 1 } });
    return { field: { verified: 'valid' }, row: ['Verified', 'valid'] };
  } catch (err) {
    const status = err instanceof BoError ? err.status : undefined;
    if (status === 401) {
      return {
        field: { verified: 'rejected' },
        row: ['Verified', 'rejected'],
        failure: new AuthError(`the API key ${credential.key} was rejected by ${api.baseUrl} (401)`, {
          status,
          code: 'rejected',
          // The client's own hint: it knows where the key came from (connection.ts).
          hint: (err as BoError).hint,
        }),
      };
    }
    if (status === 403) {
      const text = 'valid, but not permitted to list accounts';
      return {
        field: { verified: text },
        row: ['Verified', text],
        failure: new AuthError(`the API key ${credential.key} is valid, but not permitted to list accounts (403)`, {
          status,
          code: 'forbidden',
        }),
      };
    }
    throw err;
  }
}
