// Issuing and checking the bearer tokens of §5.3 and D5.

import { createSigningKey, signJwt, verifyJwt } from './jwt.js';
import { ACCESS_TOKEN_LIFETIME_S, type AuthState, type AuthUser } from './state.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** The issuer claim is the base URL; a trailing slash must not make two issuers. */
function issuer(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

export function issueAccessToken(state: AuthState, user: AuthUser, env: { now(): Date; baseUrl: string }): TokenResponse {
  const iat = Math.floor(env.now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    sub: user.personUid,
    PersonUid: user.personUid,
    AccountUid: user.accountUid,
    iss: issuer(env.baseUrl),
    iat,
    exp: iat + ACCESS_TOKEN_LIFETIME_S,
  };
  if (user.subscriptionUid !== null) claims.SubscriptionUid = user.subscriptionUid;
  if (user.planUid !== null) claims.PlanUid = user.planUid;
  // The key is made on the first signature; `state` is the request's copy, stored with it.
  state.signingKey ??= createSigningKey();
  return { access_token: signJwt(state.signingKey, claims), token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_S };
}

/** Who a bearer token speaks for: signature, kid, issuer and expiry (by the sandbox clock) checked. */
export function checkAccessToken(
  state: AuthState,
  token: string,
  env: { now(): Date; baseUrl: string },
): { personUid: string; accountUid: string } | null {
  if (!state.signingKey) return null;
  const claims = verifyJwt(state.signingKey, token);
  if (claims === null) return null;
  if (claims.iss !== issuer(env.baseUrl)) return null;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= env.now().getTime()) return null;
  if (typeof claims.PersonUid !== 'string' || typeof claims.AccountUid !== 'string') return null;
  return { personUid: claims.PersonUid, accountUid: claims.AccountUid };
}
