// Forced enrollment (§5.5, D10, D11, D31): begin shows a TOTP secret or emails a code,
// confirm checks it, enables the method and completes the login with recovery codes.

import { issueAccessToken } from './access-token.js';
import { expiredChallenge, isExpired, issueChallenge, locked, maskEmail, matchCode, userOf, wrongCode } from './flows.js';
import type { LoginEnv } from './login.js';
import { qrPng } from './qr-png.js';
import { takeRateSlot } from './rate-limit.js';
import { asObject, fail, ok, stringField, type AuthResponse } from './reply.js';
import { recoveryCodes, totpSecret } from './seeded.js';
import { CHALLENGE_LIFETIME_S, MAX_ATTEMPTS, mechanismsOf, type AuthState, type AuthUser, type Flow } from './state.js';

export interface EnrollEnv extends LoginEnv {
  clientKey: string;
}

/** The issuer shown in authenticator apps next to the account (D11). */
export const TOTP_ISSUER = 'bo sandbox';

export function otpauthUri(email: string, secret: string): string {
  const issuer = encodeURIComponent(TOTP_ISSUER);
  const label = `${issuer}:${encodeURIComponent(email)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${issuer}&algorithm=SHA1&digits=6&period=30`;
}

const unauthorized = (why: string): AuthResponse =>
  fail(401, 'unauthorized', `The enrollment token is ${why}. Start again at POST /tokens.`);

interface OpenEnrollment {
  flow: Flow;
  user: AuthUser;
  fields: Record<string, unknown> | null;
}

/** D31: unknown, expired or used enrollment token → 401; a challenge token, or a user with a method → 403. */
function openEnrollment(state: AuthState, env: EnrollEnv, body: unknown): OpenEnrollment | AuthResponse {
  const fields = asObject(body);
  const token = stringField(fields, 'enrollment_token');
  if (token === undefined) return unauthorized('missing');
  const isChallengeToken = state.flows.some((f) => f.challenge?.token === token || f.retired.includes(token));
  if (isChallengeToken) {
    return fail(403, 'forbidden', 'That is a challenge token, not an enrollment token: enrollment does not apply here.');
  }
  const flow = state.flows.find((f) => f.type === 'enrollment' && f.enrollmentToken === token);
  if (flow === undefined) return unauthorized('not valid');
  if (flow.finished) return unauthorized('already used');
  if (isExpired(flow.issuedAt, env)) return unauthorized('expired');
  const user = userOf(state, flow);
  if (mechanismsOf(user).length > 0) {
    return fail(403, 'forbidden', 'This user already has a two-factor method; sign in with it instead.');
  }
  return { flow, user, fields };
}

const isResponse = (value: OpenEnrollment | AuthResponse): value is AuthResponse => 'status' in value;

export function postTotpBegin(state: AuthState, env: EnrollEnv, body: unknown): AuthResponse {
  const open = openEnrollment(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user } = open;
  const secret = totpSecret(state.seed, `enroll:${state.derivations++}`);
  const challenge = issueChallenge(flow, user, 'Totp', env, secret);
  const uri = otpauthUri(user.username, secret);
  return ok({
    challenge_token: challenge.token,
    secret,
    otpauth_uri: uri,
    qr_code_png_base64: qrPng(uri).toString('base64'),
    expires_in: CHALLENGE_LIFETIME_S,
  });
}

export function postEmailBegin(state: AuthState, env: EnrollEnv, body: unknown): AuthResponse {
  const open = openEnrollment(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user } = open;
  const challenge = issueChallenge(flow, user, 'Email', env);
  return ok({
    challenge_token: challenge.token,
    mechanism: 'Email',
    masked_destination: maskEmail(user.username),
    expires_in: CHALLENGE_LIFETIME_S,
  });
}

export function postConfirm(state: AuthState, env: EnrollEnv, body: unknown, kind: 'totp' | 'email'): AuthResponse {
  if (kind === 'totp') {
    const retryAfter = takeRateSlot(state, env.clientKey, env.now().getTime()); // D31: before anything else
    if (retryAfter !== null) {
      return {
        ...fail(429, 'rate_limited', `Too many attempts; retry after ${retryAfter} seconds.`),
        headers: { 'Retry-After': String(retryAfter) },
      };
    }
  }
  const open = openEnrollment(state, env, body);
  if (isResponse(open)) return open;
  const { flow, user, fields } = open;
  const token = stringField(fields, 'challenge_token');
  const challenge = flow.challenge;
  const mechanism = kind === 'totp' ? 'Totp' : 'Email';
  if (token === undefined || challenge === null || challenge.token !== token || challenge.mechanism !== mechanism) {
    const replaced = token !== undefined && flow.retired.includes(token);
    return fail(
      400,
      'invalid_grant',
      replaced
        ? 'This challenge was replaced by a newer begin; use the latest challenge_token.'
        : `The challenge_token is not a current ${mechanism} enrollment challenge of this enrollment.`,
    );
  }
  if (isExpired(challenge.issuedAt, env)) return expiredChallenge();
  if (flow.attempts >= MAX_ATTEMPTS) return locked();
  const code = stringField(fields, 'code');
  if (code === undefined) return fail(400, 'invalid_grant', 'The code is missing.');
  const step = matchCode(challenge, challenge.pendingSecret, null, code, env.now().getTime());
  if (step === null) return wrongCode(flow);
  if (mechanism === 'Totp') {
    user.totpSecret = challenge.pendingSecret;
    user.lastTotpStep = step;
  } else {
    user.emailEnabled = true;
  }
  user.recoveryCodes = recoveryCodes(state.seed, `enroll:${state.derivations++}`);
  flow.finished = true;
  return ok({ confirmed: true, recovery_codes: [...user.recoveryCodes], ...issueAccessToken(state, user, env) });
}
