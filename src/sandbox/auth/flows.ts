// What login challenges and enrollments share: issuing a challenge (and its email),
// expiry, and the attempt counter that locks after five wrong codes (D8).

import { randomBytes, randomInt } from 'node:crypto';
import { fail, type AuthResponse } from './reply.js';
import {
  CHALLENGE_LIFETIME_S,
  MAX_ATTEMPTS,
  type AuthState,
  type AuthUser,
  type Challenge,
  type Flow,
  type Mechanism,
} from './state.js';
import { matchTotp } from './totp.js';

export interface Mailer {
  now(): Date;
  sendEmail(mail: { to: string; subject: string; text: string; code: string | null }): void;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** D12: first character of the local part, four stars, the whole domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '****';
  return `${email[0]}****${email.slice(at)}`;
}

/**
 * Gives the flow a new current challenge; the previous token (if any) is retired and
 * so is its emailed code (D9). An Email challenge emails its code right away.
 */
export function issueChallenge(
  flow: Flow,
  user: AuthUser,
  mechanism: Mechanism,
  env: Mailer,
  pendingSecret: string | null = null,
): Challenge {
  if (flow.challenge !== null) flow.retired.push(flow.challenge.token);
  const emailCode = mechanism === 'Email' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null;
  const challenge: Challenge = { token: newToken(), mechanism, issuedAt: env.now().getTime(), emailCode, pendingSecret };
  flow.challenge = challenge;
  if (emailCode !== null) {
    const purpose = flow.type === 'enrollment' ? 'confirm two-factor sign-in by email' : 'sign in';
    env.sendEmail({
      to: user.username,
      subject: 'Your bo sandbox verification code',
      text: `Your code to ${purpose} is ${emailCode}. It expires in 10 minutes.`,
      code: emailCode,
    });
  }
  return challenge;
}

/** The 202 body of POST /tokens, also the 200 body of resend and switch (D17). */
export function challengeBody(flow: Flow, user: AuthUser, challenge: Challenge): Record<string, unknown> {
  return {
    two_factor_required: true,
    challenge_token: challenge.token,
    mechanism: challenge.mechanism,
    masked_destination: challenge.mechanism === 'Email' ? maskEmail(user.username) : null, // D31
    expires_in: CHALLENGE_LIFETIME_S,
    available_mechanisms: [...flow.available],
    recovery_codes_available: user.recoveryCodes.length > 0,
  };
}

export function isExpired(issuedAt: number, env: { now(): Date }): boolean {
  return env.now().getTime() - issuedAt >= CHALLENGE_LIFETIME_S * 1000;
}

export function userOf(state: AuthState, flow: Flow): AuthUser {
  const user = state.users.find((u) => u.username.toLowerCase() === flow.user);
  if (user === undefined) throw new Error('two-factor flow for a user that is not in the state');
  return user;
}

export const locked = (): AuthResponse =>
  fail(400, 'invalid_grant', 'Too many wrong codes: this challenge is locked. Start again at POST /tokens.');

export const expiredChallenge = (): AuthResponse =>
  fail(410, 'challenge_expired', 'The challenge is older than 10 minutes. Start again at POST /tokens.');

/** A wrong code counts; the fifth and every later one answer "locked" (D8). */
export function wrongCode(flow: Flow): AuthResponse {
  flow.attempts += 1;
  if (flow.attempts >= MAX_ATTEMPTS) return locked();
  const left = MAX_ATTEMPTS - flow.attempts;
  return fail(400, 'invalid_grant', `The code is not valid. ${left} attempt${left === 1 ? '' : 's'} left.`);
}

/**
 * Checks a code against the challenge. A TOTP match returns its time step so the caller
 * can record it as used; an email match returns 0.
 */
export function matchCode(challenge: Challenge, secret: string | null, lastStep: number | null, code: string, nowMs: number): number | null {
  const typed = code.trim();
  if (challenge.mechanism === 'Email') return challenge.emailCode !== null && typed === challenge.emailCode ? 0 : null;
  if (secret === null) return null;
  return matchTotp(secret, typed, nowMs, lastStep);
}

/** Forgets flows untouched for a day, so a long-running sandbox does not grow without end. */
export function pruneFlows(state: AuthState, nowMs: number): void {
  const cutoff = nowMs - 24 * 3600 * 1000;
  state.flows = state.flows.filter((f) => Math.max(f.issuedAt, f.challenge?.issuedAt ?? 0) >= cutoff);
}
