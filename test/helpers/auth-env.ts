// A controllable environment for driving the sandbox's token engine directly: a clock
// the test moves, an outbox it reads, and demo users of every kind.

import { expect } from 'vitest';
import { createAuthState, fixtureUsers, handleTokens, type AuthEnv, type AuthState, type AuthUserSeed } from '../../src/sandbox/auth/engine.js';

export interface SentMail {
  to: string;
  subject: string;
  text: string;
  code: string | null;
}

export interface TestAuth {
  state: AuthState;
  env: AuthEnv;
  outbox: SentMail[];
  /** Moves the engine's clock. */
  advance(seconds: number): void;
  post(subpath: string, body: unknown): { status: number; body: any; headers?: Record<string, string> };
  /** The code of the latest email to `to`. */
  lastCode(to: string): string;
}

export const BASE_URL = 'http://127.0.0.1:4010';
export const PASSWORD = 'correct horse battery staple';

export const USERS: AuthUserSeed[] = [
  { username: 'plain@example.com', password: PASSWORD, kind: 'plain', personUid: 'p-plain', accountUid: 'a-plain', subscriptionUid: 's-plain', planUid: 'pl-1' },
  { username: 'totp@example.com', password: PASSWORD, kind: 'totp', personUid: 'p-totp', accountUid: 'a-totp' },
  { username: 'email@example.com', password: PASSWORD, kind: 'email', personUid: 'p-email', accountUid: 'a-email' },
  { username: 'both@example.com', password: PASSWORD, kind: 'both', personUid: 'p-both', accountUid: 'a-both' },
  { username: 'enroll@example.com', password: PASSWORD, kind: 'enroll', personUid: 'p-enroll', accountUid: 'a-enroll' },
];

/** A fresh engine state at a fixed time, well inside a TOTP step. */
export function testAuth(start = Date.parse('2026-03-01T12:00:10Z'), seed = 42): TestAuth {
  let nowMs = start;
  const outbox: SentMail[] = [];
  const state = createAuthState(USERS, seed);
  const env: AuthEnv = {
    now: () => new Date(nowMs),
    baseUrl: BASE_URL,
    clientKey: '127.0.0.1',
    sendEmail: (mail) => outbox.push({ ...mail }),
  };
  return {
    state,
    env,
    outbox,
    advance: (seconds) => {
      nowMs += seconds * 1000;
    },
    post: (subpath, body) => handleTokens(state, env, subpath, body) as ReturnType<TestAuth['post']>,
    lastCode: (to) => {
      const mail = outbox.filter((m) => m.to === to).at(-1);
      if (mail?.code == null) throw new Error(`no code emailed to ${to}`);
      return mail.code;
    },
  };
}

/** A six-digit code that differs from `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** POST /tokens for a two-factor user, expecting the 202 challenge; returns its body. */
export function challengeFor(t: TestAuth, username: string): any {
  const res = t.post('', { username, password: PASSWORD });
  expect(res.status).toBe(202);
  return res.body;
}

/** The seeded TOTP secret of the user of that kind. */
export function secretOf(t: TestAuth, kind: string): string {
  const secret = fixtureUsers(t.state).find((u) => u.kind === kind)?.totpSecret ?? null;
  if (secret === null) throw new Error(`no TOTP secret for ${kind}`);
  return secret;
}
