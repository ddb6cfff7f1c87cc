// Resend, switch-mechanism and recovery codes against the engine (§4, §7, D8, D9, D29,
// D31): fresh challenges replace old ones, attempts carry over, codes are single-use.

import { describe, expect, it } from 'vitest';
import { fixtureUsers } from '../../src/sandbox/auth/engine.js';
import { challengeFor, otherCode, secretOf, testAuth, type TestAuth } from '../helpers/auth-env.js';
import { totpCode } from '../helpers/totp.js';

const login = challengeFor;
const nowCode = (t: TestAuth, kind: string) => totpCode(secretOf(t, kind), t.env.now());

describe('POST /tokens/two-factor/resend', () => {
  it('refuses a Totp challenge with not_supported (§7)', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const res = t.post('/two-factor/resend', { challenge_token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('not_supported');
    expect(t.outbox).toEqual([]);
  });

  it('emails a new code under a fresh token; the old token and old code stop working (D9)', () => {
    const t = testAuth();
    const first = login(t, 'email@example.com');
    const oldCode = t.lastCode('email@example.com');
    const res = t.post('/two-factor/resend', { challenge_token: first.challenge_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...first, challenge_token: expect.any(String) });
    expect(res.body.challenge_token).not.toBe(first.challenge_token);
    expect(t.outbox).toHaveLength(2);
    const newCode = t.lastCode('email@example.com');

    const replaced = t.post('/two-factor', { challenge_token: first.challenge_token, code: newCode });
    expect(replaced.status).toBe(400);
    expect(replaced.body.error).toBe('invalid_grant');
    if (oldCode !== newCode) {
      expect(t.post('/two-factor', { challenge_token: res.body.challenge_token, code: oldCode }).status).toBe(400);
    }
    expect(t.post('/two-factor', { challenge_token: res.body.challenge_token, code: newCode }).status).toBe(200);
  });

  it('gives the fresh challenge its own 600 s (D9)', () => {
    const t = testAuth();
    const first = login(t, 'email@example.com');
    t.advance(500);
    const second = t.post('/two-factor/resend', { challenge_token: first.challenge_token }).body;
    t.advance(500);
    expect(t.post('/two-factor', { challenge_token: second.challenge_token, code: t.lastCode('email@example.com') }).status).toBe(200);
  });

  it('answers 410 for an expired challenge', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'email@example.com');
    t.advance(601);
    expect(t.post('/two-factor/resend', { challenge_token }).status).toBe(410);
  });
});

describe('POST /tokens/two-factor/switch-mechanism', () => {
  it('switches Totp → Email in any case (D29), emailing a code', () => {
    const t = testAuth();
    const first = login(t, 'both@example.com');
    const res = t.post('/two-factor/switch-mechanism', { challenge_token: first.challenge_token, mechanism: 'email' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      two_factor_required: true,
      challenge_token: expect.any(String),
      mechanism: 'Email',
      masked_destination: 'b****@example.com',
      expires_in: 600,
      available_mechanisms: ['Totp', 'Email'],
      recovery_codes_available: true,
    });
    expect(t.outbox.map((m) => m.to)).toEqual(['both@example.com']);
    expect(t.post('/two-factor', { challenge_token: first.challenge_token, code: t.lastCode('both@example.com') }).body.error).toBe(
      'invalid_grant',
    );
    expect(t.post('/two-factor', { challenge_token: res.body.challenge_token, code: t.lastCode('both@example.com') }).status).toBe(200);
  });

  it('switches back to Totp, which then wants the app code', () => {
    const t = testAuth();
    const first = login(t, 'both@example.com');
    const email = t.post('/two-factor/switch-mechanism', { challenge_token: first.challenge_token, mechanism: 'Email' }).body;
    const totp = t.post('/two-factor/switch-mechanism', { challenge_token: email.challenge_token, mechanism: 'TOTP' });
    expect(totp.status).toBe(200);
    expect(totp.body).toMatchObject({ mechanism: 'Totp', masked_destination: null });
    expect(t.post('/two-factor', { challenge_token: totp.body.challenge_token, code: nowCode(t, 'both') }).status).toBe(200);
  });

  it('refuses a mechanism the user does not have, and one that does not exist', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const missing = t.post('/two-factor/switch-mechanism', { challenge_token, mechanism: 'Email' });
    expect(missing.status).toBe(400);
    expect(t.outbox).toEqual([]);
    const bogus = t.post('/two-factor/switch-mechanism', { challenge_token, mechanism: 'Sms' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error).toBe('validation_failed');
    // The challenge is still the current one.
    expect(t.post('/two-factor', { challenge_token, code: nowCode(t, 'totp') }).status).toBe(200);
  });
});

describe('attempts carry over resend and switch (D8)', () => {
  it('locks after 5 wrong codes spread over resend and switch', () => {
    const t = testAuth();
    let token = login(t, 'both@example.com').challenge_token;
    const bad = (code: string) => t.post('/two-factor', { challenge_token: token, code });
    bad(otherCode(nowCode(t, 'both')));
    bad(otherCode(nowCode(t, 'both')));
    token = t.post('/two-factor/switch-mechanism', { challenge_token: token, mechanism: 'Email' }).body.challenge_token;
    bad(otherCode(t.lastCode('both@example.com')));
    token = t.post('/two-factor/resend', { challenge_token: token }).body.challenge_token;
    expect(bad(otherCode(t.lastCode('both@example.com'))).body.error_description).not.toMatch(/locked/i);
    expect(bad(otherCode(t.lastCode('both@example.com'))).body.error_description).toMatch(/locked/i);
    expect(bad(t.lastCode('both@example.com')).body.error_description).toMatch(/locked/i);
  });

  it('counts wrong recovery codes against the same 5', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    for (let i = 0; i < 4; i++) {
      expect(t.post('/two-factor/recovery', { challenge_token, recovery_code: `zzzz-zzz${i}` }).body.error).toBe('invalid_grant');
    }
    const fifth = t.post('/two-factor', { challenge_token, code: otherCode(nowCode(t, 'totp')) });
    expect(fifth.body.error_description).toMatch(/locked/i);
    const good = fixtureUsers(t.state).find((u) => u.kind === 'totp')!.recoveryCodes[0]!;
    expect(t.post('/two-factor/recovery', { challenge_token, recovery_code: good }).body.error_description).toMatch(/locked/i);
  });
});

describe('POST /tokens/two-factor/recovery', () => {
  it('accepts a recovery code once (§4 single-use)', () => {
    const t = testAuth();
    const code = fixtureUsers(t.state).find((u) => u.kind === 'email')!.recoveryCodes[3]!;
    const first = login(t, 'email@example.com');
    const res = t.post('/two-factor/recovery', { challenge_token: first.challenge_token, recovery_code: code });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
    expect(fixtureUsers(t.state).find((u) => u.kind === 'email')!.recoveryCodes).not.toContain(code);
    const again = t.post('/two-factor/recovery', { challenge_token: login(t, 'email@example.com').challenge_token, recovery_code: code });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('ignores case and the dash as typed', () => {
    const t = testAuth();
    const code = fixtureUsers(t.state).find((u) => u.kind === 'totp')!.recoveryCodes[0]!;
    const typed = code.replace('-', '').toUpperCase();
    expect(t.post('/two-factor/recovery', { challenge_token: login(t, 'totp@example.com').challenge_token, recovery_code: typed }).status).toBe(200);
  });

  it('reports recovery_codes_available false once all ten are used', () => {
    const t = testAuth();
    const codes = fixtureUsers(t.state).find((u) => u.kind === 'totp')!.recoveryCodes;
    for (const recovery_code of codes) {
      expect(t.post('/two-factor/recovery', { challenge_token: login(t, 'totp@example.com').challenge_token, recovery_code }).status).toBe(200);
    }
    expect(login(t, 'totp@example.com').recovery_codes_available).toBe(false);
  });
});
