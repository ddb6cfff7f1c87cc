// A sandbox for the HTTP token tests, with its real time pinned (10 s into a TOTP step)
// so that codes are deterministic; only POST /__sandbox/clock moves it, and `advance`
// keeps the test's idea of "now" in step. Reset before each test.

import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { DEFAULT_ACCOUNTS, seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox, type Fixtures, type HttpResult, type TestSandbox } from './sandbox.js';
import { totpCode } from './totp.js';

export const START = Date.parse('2026-03-01T12:00:10Z');

export interface TwoFactorHttp {
  readonly sb: TestSandbox;
  user(kind: string): Fixtures['users'][number];
  /** POST under /api/v1 with no Authorization header. */
  post(path: string, body: unknown): Promise<HttpResult>;
  login(kind: string): Promise<HttpResult>;
  advance(seconds: number): Promise<void>;
  /** What an authenticator app shows now, by the sandbox clock. */
  appCode(secret: string): string;
  lastCodeTo(to: string): Promise<string>;
  fixtures(): Promise<Fixtures>;
  /** Asserts a token response whose bearer token opens a protected endpoint (D2). */
  expectWorkingToken(body: any): Promise<void>;
}

/** Registers the hooks of a test file and returns its helpers. */
export function useTwoFactorSandbox(): TwoFactorHttp {
  let sb: TestSandbox | undefined;
  let clockMs = START;
  beforeAll(async () => {
    sb = await startTestSandbox({ store: Store.memory({ seed: 1, accounts: DEFAULT_ACCOUNTS }, seedState, () => new Date(START)) });
  });
  afterAll(() => sb?.close());
  beforeEach(async () => {
    await sb!.reset();
    clockMs = START;
  });

  const h: TwoFactorHttp = {
    get sb() {
      if (sb === undefined) throw new Error('sandbox not started');
      return sb;
    },
    user: (kind) => {
      const found = h.sb.fixtures.users.find((u) => u.kind === kind);
      if (found === undefined) throw new Error(`no ${kind} user in the fixtures`);
      return found;
    },
    post: (path, body) => h.sb.api('POST', path, { body, authorization: null }),
    login: (kind) => {
      const u = h.user(kind);
      return h.post('/tokens', { username: u.username, password: u.password });
    },
    advance: async (seconds) => {
      await h.sb.advanceClock(seconds);
      clockMs += seconds * 1000;
    },
    appCode: (secret) => totpCode(secret, clockMs),
    lastCodeTo: async (to) => {
      const mail = (await h.sb.outbox()).filter((m) => m.to === to).at(-1);
      expect(mail?.code).toMatch(/^\d{6}$/);
      return mail!.code!;
    },
    fixtures: async () => (await h.sb.raw('GET', '/__sandbox/fixtures')).body,
    expectWorkingToken: async (body) => {
      expect(body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 31536000 });
      const r = await h.sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${body.access_token}` });
      expect(r.status).toBe(200);
    },
  };
  return h;
}

/** A six-digit code that differs from `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
