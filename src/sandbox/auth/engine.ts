// The token and two-factor half of the sandbox, behind the small interface the sandbox
// server calls. The state is plain JSON that this module mutates in place; the server's
// store persists it. Nothing is kept in module globals, so two sandboxes in one process
// (as in the tests) never share a clock, a key or a rate limit.

import { checkAccessToken } from './access-token.js';
import { postConfirm, postEmailBegin, postTotpBegin } from './enroll.js';
import { publicJwk } from './jwt.js';
import { postRecovery, postResend, postSwitchMechanism, postTokens, postTwoFactor } from './login.js';
import { fail, type AuthResponse } from './reply.js';
import { recoveryCodes, totpSecret } from './seeded.js';
import type { AuthState, AuthUser } from './state.js';

export type { AuthState } from './state.js';
export type { AuthResponse } from './reply.js';

export interface AuthUserSeed {
  /** The person's email address. */
  username: string;
  password: string;
  kind: 'plain' | 'totp' | 'email' | 'both' | 'enroll';
  personUid: string;
  accountUid: string;
  subscriptionUid?: string;
  planUid?: string;
}

export interface AuthEnv {
  now(): Date;
  baseUrl: string;
  /** The remote address, for the D10 rate limit. */
  clientKey: string;
  sendEmail(mail: { to: string; subject: string; text: string; code: string | null }): void;
}

export function createAuthState(users: AuthUserSeed[], seed: number): AuthState {
  return {
    version: 1,
    seed,
    derivations: 0,
    signingKey: null,
    users: users.map((u) => seedUser(u, seed)),
    flows: [],
    rateLimit: {},
  };
}

function seedUser(seedUser: AuthUserSeed, seed: number): AuthUser {
  const label = seedUser.username.toLowerCase();
  const hasTotp = seedUser.kind === 'totp' || seedUser.kind === 'both';
  const hasEmail = seedUser.kind === 'email' || seedUser.kind === 'both';
  return {
    username: seedUser.username,
    password: seedUser.password,
    kind: seedUser.kind,
    personUid: seedUser.personUid,
    accountUid: seedUser.accountUid,
    subscriptionUid: seedUser.subscriptionUid ?? null,
    planUid: seedUser.planUid ?? null,
    totpSecret: hasTotp ? totpSecret(seed, label) : null,
    emailEnabled: hasEmail,
    enrollmentRequired: seedUser.kind === 'enroll',
    recoveryCodes: hasTotp || hasEmail ? recoveryCodes(seed, label) : [],
    lastTotpStep: null,
  };
}

/**
 * The `users` of GET /__sandbox/fixtures. `kind` is the seeded kind; the secret and the
 * codes are the current ones (an enrolled user shows its new secret, used codes are gone).
 */
export function fixtureUsers(
  state: AuthState,
): Array<{ username: string; password: string; kind: string; totpSecret: string | null; recoveryCodes: string[] }> {
  return state.users.map((u) => ({
    username: u.username,
    password: u.password,
    kind: u.kind,
    totpSecret: u.totpSecret,
    recoveryCodes: [...u.recoveryCodes],
  }));
}

type Handler = (state: AuthState, env: AuthEnv, body: unknown) => AuthResponse;

const ROUTES: Record<string, Handler> = {
  '': postTokens,
  '/two-factor': postTwoFactor,
  '/two-factor/resend': postResend,
  '/two-factor/switch-mechanism': postSwitchMechanism,
  '/two-factor/recovery': postRecovery,
  '/two-factor/enroll/totp/begin': postTotpBegin,
  '/two-factor/enroll/totp/confirm': (s, e, b) => postConfirm(s, e, b, 'totp'),
  '/two-factor/enroll/email/begin': postEmailBegin,
  '/two-factor/enroll/email/confirm': (s, e, b) => postConfirm(s, e, b, 'email'),
};

/** POST /api/v1/tokens<subpath>. Mutates `state`. */
export function handleTokens(
  state: AuthState,
  env: AuthEnv,
  subpath: string,
  body: unknown,
): { status: number; body: unknown; headers?: Record<string, string> } {
  const path = subpath.replace(/\/+$/, '');
  const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (route === undefined) return fail(404, 'not_found', `No such endpoint: POST /tokens${subpath}.`);
  return route(state, env, body);
}

export function verifyAccessToken(
  state: AuthState,
  token: string,
  env: Pick<AuthEnv, 'now' | 'baseUrl'>,
): { personUid: string; accountUid: string } | null {
  return checkAccessToken(state, token, env);
}

/** The body of GET /.well-known/jwks.json (D5). */
export function jwks(state: AuthState): { keys: object[] } {
  // No key yet means no token was ever signed: there is nothing to verify.
  return { keys: state.signingKey ? [publicJwk(state.signingKey)] : [] };
}
