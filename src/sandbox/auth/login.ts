// POST /tokens and the challenge endpoints of a two-factor login (§5.4, D7–D9, D31).

import { issueAccessToken } from './access-token.js';
import {
  challengeBody,
  expiredChallenge,
  isExpired,
  issueChallenge,
  locked,
  matchCode,
  newToken,
  pruneFlows,
  userOf,
  wrongCode,
  type Mailer,
} from './flows.js';
import { asObject, fail, ok, stringField, validationFailed, type AuthResponse } from './reply.js';
import { normalizeRecoveryCode } from './seeded.js';
import {
  CHALLENGE_LIFETIME_S,
  MAX_ATTEMPTS,
  findUser,
  mechanismsOf,
  type AuthState,
  type AuthUser,
  type Challenge,
  type Flow,
  type Mechanism,
} from './state.js';

export interface LoginEnv extends Mailer {
  baseUrl: string;
}

export function postTokens(state: AuthState, env: LoginEnv, body: unknown): AuthResponse {
  const fields = asObject(body);
  const username = stringField(fields, 'username');
  const password = stringField(fields, 'password');
  if (username === undefined || password === undefined) {
    const missing = [];
    if (username === undefined) missing.push({ field: 'username', message: 'A username (string) is required.' });
    if (password === undefined) missing.push({ field: 'password', message: 'A password (string) is required.' });
    return validationFailed(missing); // D31
  }
  const user = findUser(state, username);
  if (user === undefined || user.password !== password) {
    return fail(400, 'invalid_grant', 'The username or password is incorrect.'); // D7: one text for both
  }
  const nowMs = env.now().getTime();
  pruneFlows(state, nowMs);
  const available = mechanismsOf(user);
  const base = { user: user.username.toLowerCase(), attempts: 0, finished: false, issuedAt: nowMs, retired: [], available };
  if (available.length === 0) {
    if (!user.enrollmentRequired) return ok(issueAccessToken(state, user, env));
    const flow: Flow = { ...base, type: 'enrollment', enrollmentToken: newToken(), challenge: null };
    state.flows.push(flow);
    return ok({ two_factor_enrollment_required: true, challenge_token: flow.enrollmentToken, expires_in: CHALLENGE_LIFETIME_S }, 202);
  }
  const flow: Flow = { ...base, type: 'login', enrollmentToken: null, challenge: null };
  // §5.4: with both methods enrolled Totp is the default.
  const challenge = issueChallenge(flow, user, available[0]!, env);
  state.flows.push(flow);
  return ok(challengeBody(flow, user, challenge), 202);
}

interface OpenChallenge {
  flow: Flow;
  user: AuthUser;
  challenge: Challenge;
  fields: Record<string, unknown> | null;
}

/**
 * The checks every challenge endpoint starts with. Unknown, replaced and finished
 * tokens are refused without counting an attempt (D31); then expiry (410), then the lock.
 */
function openChallenge(state: AuthState, env: LoginEnv, body: unknown): OpenChallenge | AuthResponse {
  const fields = asObject(body);
  const token = stringField(fields, 'challenge_token');
  if (token === undefined) return fail(400, 'invalid_grant', 'The challenge_token is missing.');
  const logins = state.flows.filter((f) => f.type === 'login');
  const flow = logins.find((f) => f.challenge?.token === token);
  if (flow === undefined || flow.challenge === null) {
    const replaced = logins.some((f) => f.retired.includes(token));
    return fail(
      400,
      'invalid_grant',
      replaced ? 'This challenge was replaced by a newer one; use the latest challenge_token.' : 'The challenge_token is not valid.',
    );
  }
  if (flow.finished) return fail(400, 'invalid_grant', 'This challenge has already been completed.');
  if (isExpired(flow.challenge.issuedAt, env)) return expiredChallenge();
  if (flow.attempts >= MAX_ATTEMPTS) return locked();
  return { flow, user: userOf(state, flow), challenge: flow.challenge, fields };
}

const isResponse = (value: OpenChallenge | AuthResponse): value is AuthResponse => 'status' in value;

export function postTwoFactor(state: AuthState, env: LoginEnv, body: unknown): AuthResponse {
  const open = openChallenge(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user, challenge, fields } = open;
  const code = stringField(fields, 'code');
  if (code === undefined) return fail(400, 'invalid_grant', 'The code is missing.');
  const step = matchCode(challenge, user.totpSecret, user.lastTotpStep, code, env.now().getTime());
  if (step === null) return wrongCode(flow);
  if (challenge.mechanism === 'Totp') user.lastTotpStep = step;
  flow.finished = true;
  return ok(issueAccessToken(state, user, env));
}

export function postResend(state: AuthState, env: LoginEnv, body: unknown): AuthResponse {
  const open = openChallenge(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user, challenge } = open;
  if (challenge.mechanism !== 'Email') {
    return fail(400, 'not_supported', 'Only an Email challenge can be resent; a Totp code comes from the authenticator app.');
  }
  return ok(challengeBody(flow, user, issueChallenge(flow, user, 'Email', env)));
}

/** D29: mechanisms are Email and Totp on the wire, but any case is accepted. */
export function parseMechanism(value: unknown): Mechanism | null {
  if (typeof value !== 'string') return null;
  const lower = value.trim().toLowerCase();
  return lower === 'totp' ? 'Totp' : lower === 'email' ? 'Email' : null;
}

export function postSwitchMechanism(state: AuthState, env: LoginEnv, body: unknown): AuthResponse {
  const open = openChallenge(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user, fields } = open;
  const mechanism = parseMechanism(fields?.mechanism);
  if (mechanism === null) return validationFailed([{ field: 'mechanism', message: 'Must be Email or Totp.' }]);
  if (!flow.available.includes(mechanism)) {
    return fail(400, 'not_supported', `${mechanism} is not enabled for this user; available: ${flow.available.join(', ')}.`);
  }
  return ok(challengeBody(flow, user, issueChallenge(flow, user, mechanism, env)));
}

export function postRecovery(state: AuthState, env: LoginEnv, body: unknown): AuthResponse {
  const open = openChallenge(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user, fields } = open;
  const typed = stringField(fields, 'recovery_code');
  if (typed === undefined) return fail(400, 'invalid_grant', 'The recovery_code is missing.');
  const index = user.recoveryCodes.findIndex((c) => normalizeRecoveryCode(c) === normalizeRecoveryCode(typed));
  if (index < 0) return wrongCode(flow); // D8: recovery codes count against the same 5
  user.recoveryCodes.splice(index, 1);
  flow.finished = true;
  return ok(issueAccessToken(state, user, env));
}
