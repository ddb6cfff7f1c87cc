// Two-factor login against the engine (§5.4, §7, §8, D8, D9, D12, D29, D31): challenge
// bodies, codes from the test TOTP generator and from the outbox, the 5-attempt lock
// and how it carries over, resend, switch, recovery codes and the 600 s lifetime.

import { describe, expect, it } from 'vitest';
import { fixtureUsers } from '../../src/sandbox/auth/engine.js';
import { PASSWORD, otherCode, testAuth, type TestAuth } from '../helpers/auth-env.js';
import { totpCode } from '../helpers/totp.js';

function login(t: TestAuth, username: string) {
  const res = t.post('', { username, password: PASSWORD });
  expect(res.status).toBe(202);
  return res.body;
}

function secretOf(t: TestAuth, kind: string): string {
  const secret = fixtureUsers(t.state).find((u) => u.kind === kind)!.totpSecret;
  if (secret === null) throw new Error(`no TOTP secret for ${kind}`);
  return secret;
}

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
