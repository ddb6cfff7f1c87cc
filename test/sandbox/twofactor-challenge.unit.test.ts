// Two-factor login against the engine (§5.4, §7, §8, D8, D11, D12, D31): challenge
// bodies, codes from the test TOTP generator and from the outbox, the 5-attempt lock
// and the 600 s lifetime. Resend, switch and recovery: twofactor-resend.unit.test.ts.

import { describe, expect, it } from 'vitest';
import { challengeFor, otherCode, secretOf, testAuth, type TestAuth } from '../helpers/auth-env.js';
import { totpCode } from '../helpers/totp.js';

const login = challengeFor;
const nowCode = (t: TestAuth, kind: string) => totpCode(secretOf(t, kind), t.env.now());

describe('POST /tokens for two-factor users', () => {
  it('challenges a TOTP user without sending anything (§5.4, D31)', () => {
    const t = testAuth();
    expect(login(t, 'totp@example.com')).toEqual({
      two_factor_required: true,
      challenge_token: expect.any(String),
      mechanism: 'Totp',
      masked_destination: null,
      expires_in: 600,
      available_mechanisms: ['Totp'],
      recovery_codes_available: true,
    });
    expect(t.outbox).toEqual([]);
  });

  it('defaults to Totp when both are enrolled', () => {
    const t = testAuth();
    const body = login(t, 'both@example.com');
    expect(body).toMatchObject({ mechanism: 'Totp', masked_destination: null, available_mechanisms: ['Totp', 'Email'] });
    expect(t.outbox).toEqual([]);
  });

  it('emails an Email user a code and masks the address (D12)', () => {
    const t = testAuth();
    expect(login(t, 'email@example.com')).toEqual({
      two_factor_required: true,
      challenge_token: expect.any(String),
      mechanism: 'Email',
      masked_destination: 'e****@example.com',
      expires_in: 600,
      available_mechanisms: ['Email'],
      recovery_codes_available: true,
    });
    expect(t.outbox).toHaveLength(1);
    const mail = t.outbox[0]!;
    expect(mail.to).toBe('email@example.com');
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.code!);
  });
});

describe('POST /tokens/two-factor', () => {
  it('gives a token for the current TOTP code', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const res = t.post('/two-factor', { challenge_token, code: nowCode(t, 'totp') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 31536000 });
  });

  it('accepts the code of the previous step (±1 window, D11)', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const code = totpCode(secretOf(t, 'totp'), t.env.now().getTime() - 30_000);
    expect(t.post('/two-factor', { challenge_token, code }).status).toBe(200);
  });

  it('does not accept a TOTP code a second time (RFC 6238 §5.2, D8)', () => {
    const t = testAuth();
    const code = nowCode(t, 'totp');
    expect(t.post('/two-factor', { challenge_token: login(t, 'totp@example.com').challenge_token, code }).status).toBe(200);
    const again = t.post('/two-factor', { challenge_token: login(t, 'totp@example.com').challenge_token, code });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    t.advance(30);
    const next = t.post('/two-factor', { challenge_token: login(t, 'totp@example.com').challenge_token, code: nowCode(t, 'totp') });
    expect(next.status).toBe(200);
  });

  it('gives a token for the emailed code', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'email@example.com');
    expect(t.post('/two-factor', { challenge_token, code: t.lastCode('email@example.com') }).status).toBe(200);
  });

  it('refuses a completed challenge without counting', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'email@example.com');
    const code = t.lastCode('email@example.com');
    expect(t.post('/two-factor', { challenge_token, code }).status).toBe(200);
    const reuse = t.post('/two-factor', { challenge_token, code });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
  });

  it('locks on the 5th wrong code and refuses even the right one after (§7, D8)', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const wrong = otherCode(nowCode(t, 'totp'));
    for (let i = 1; i <= 4; i++) {
      const res = t.post('/two-factor', { challenge_token, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
      expect(res.body.error_description).not.toMatch(/locked/i);
    }
    const fifth = t.post('/two-factor', { challenge_token, code: wrong });
    expect(fifth.status).toBe(400);
    expect(fifth.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/locked/i) });
    const right = t.post('/two-factor', { challenge_token, code: nowCode(t, 'totp') });
    expect(right.status).toBe(400);
    expect(right.body.error_description).toMatch(/locked/i);
    // A new login starts a new count.
    const fresh = login(t, 'totp@example.com');
    expect(t.post('/two-factor', { challenge_token: fresh.challenge_token, code: nowCode(t, 'totp') }).status).toBe(200);
  });

  it('refuses a missing code without counting it', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    for (let i = 0; i < 6; i++) expect(t.post('/two-factor', { challenge_token }).body.error).toBe('invalid_grant');
    expect(t.post('/two-factor', { challenge_token, code: nowCode(t, 'totp') }).status).toBe(200);
  });

  it('refuses an unknown token with invalid_grant and does not count it (D31)', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'totp@example.com');
    const wrong = otherCode(nowCode(t, 'totp'));
    for (let i = 0; i < 4; i++) t.post('/two-factor', { challenge_token, code: wrong });
    for (const token of ['nope', undefined, 12]) {
      const res = t.post('/two-factor', { challenge_token: token, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    expect(t.post('/two-factor', { challenge_token, code: nowCode(t, 'totp') }).status).toBe(200);
  });

  it('expires the challenge 600 s after it was issued (§5.6, §7 410)', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'email@example.com');
    const code = t.lastCode('email@example.com');
    t.advance(600);
    const res = t.post('/two-factor', { challenge_token, code });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'challenge_expired', error_description: expect.any(String) });
  });

  it('still accepts the code at 599 s', () => {
    const t = testAuth();
    const { challenge_token } = login(t, 'email@example.com');
    t.advance(599);
    expect(t.post('/two-factor', { challenge_token, code: t.lastCode('email@example.com') }).status).toBe(200);
  });
});
