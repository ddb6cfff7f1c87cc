// Forced enrollment against the engine (§5.5, §7, §8, D10, D11, D31): TOTP with a real
// QR PNG (decoded by zbarimg), email enrollment, 401/403 for the enrollment token, the
// 5-attempt lock and the 10-a-minute limit on totp/confirm.

import { describe, expect, it } from 'vitest';
import { fixtureUsers, verifyAccessToken } from '../../src/sandbox/auth/engine.js';
import { PASSWORD, otherCode, testAuth, type TestAuth } from '../helpers/auth-env.js';
import { totpCode } from '../helpers/totp.js';
import { decodeQrPng } from '../helpers/zbar.js';

function enrollmentToken(t: TestAuth): string {
  const res = t.post('', { username: 'enroll@example.com', password: PASSWORD });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ two_factor_enrollment_required: true, challenge_token: expect.any(String), expires_in: 600 });
  return res.body.challenge_token;
}

function beginTotp(t: TestAuth, enrollment_token: string) {
  const res = t.post('/two-factor/enroll/totp/begin', { enrollment_token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('TOTP enrollment', () => {
  it('begins with a secret, the D11 otpauth URI and a PNG QR code of it', () => {
    const t = testAuth();
    const body = beginTotp(t, enrollmentToken(t));
    expect(body).toEqual({
      challenge_token: expect.any(String),
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      otpauth_uri: expect.any(String),
      qr_code_png_base64: expect.any(String),
      expires_in: 600,
    });
    expect(body.otpauth_uri).toBe(
      `otpauth://totp/bo%20sandbox:enroll%40example.com?secret=${body.secret}&issuer=bo%20sandbox&algorithm=SHA1&digits=6&period=30`,
    );
    const png = Buffer.from(body.qr_code_png_base64, 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(decodeQrPng(png)).toBe(body.otpauth_uri);
  });

  it('confirms with the app code, returns ten recovery codes and a token, then challenges as usual', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = beginTotp(t, enrollment_token);
    const code = totpCode(begin.secret, t.env.now());
    const res = t.post('/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token: begin.challenge_token, code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      confirmed: true,
      recovery_codes: expect.any(Array),
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 31536000,
    });
    expect(new Set(res.body.recovery_codes).size).toBe(10);
    expect(verifyAccessToken(t.state, res.body.access_token, t.env)).toEqual({ personUid: 'p-enroll', accountUid: 'a-enroll' });
    const fixture = fixtureUsers(t.state).find((u) => u.username === 'enroll@example.com')!;
    expect(fixture).toMatchObject({ totpSecret: begin.secret, recoveryCodes: res.body.recovery_codes });

    const challenge = t.post('', { username: 'enroll@example.com', password: PASSWORD });
    expect(challenge.status).toBe(202);
    expect(challenge.body).toMatchObject({ two_factor_required: true, mechanism: 'Totp', available_mechanisms: ['Totp'] });
    // The code used to confirm was accepted once; it is not accepted again (D8).
    expect(t.post('/two-factor', { challenge_token: challenge.body.challenge_token, code }).status).toBe(400);
    t.advance(30);
    const next = t.post('/two-factor', { challenge_token: challenge.body.challenge_token, code: totpCode(begin.secret, t.env.now()) });
    expect(next.status).toBe(200);
  });

  it('refuses a confirm with the challenge of an earlier begin', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const first = beginTotp(t, enrollment_token);
    const second = beginTotp(t, enrollment_token);
    const stale = t.post('/two-factor/enroll/totp/confirm', {
      enrollment_token,
      challenge_token: first.challenge_token,
      code: totpCode(first.secret, t.env.now()),
    });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe('invalid_grant');
    const res = t.post('/two-factor/enroll/totp/confirm', {
      enrollment_token,
      challenge_token: second.challenge_token,
      code: totpCode(second.secret, t.env.now()),
    });
    expect(res.status).toBe(200);
  });

  it('locks on the 5th wrong code (§7, D8)', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = beginTotp(t, enrollment_token);
    const good = totpCode(begin.secret, t.env.now());
    const confirm = (code: string) =>
      t.post('/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token: begin.challenge_token, code });
    for (let i = 0; i < 4; i++) {
      const res = confirm(otherCode(good));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
      expect(res.body.error_description).not.toMatch(/locked/i);
    }
    expect(confirm(otherCode(good)).body.error_description).toMatch(/locked/i);
    const after = confirm(good);
    expect(after.status).toBe(400);
    expect(after.body.error_description).toMatch(/locked/i);
  });
});

describe('email enrollment', () => {
  it('emails a code at begin and enables Email at confirm', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = t.post('/two-factor/enroll/email/begin', { enrollment_token });
    expect(begin.status).toBe(200);
    expect(begin.body).toEqual({
      challenge_token: expect.any(String),
      mechanism: 'Email',
      masked_destination: 'e****@example.com',
      expires_in: 600,
    });
    expect(t.outbox.map((m) => m.to)).toEqual(['enroll@example.com']);
    const res = t.post('/two-factor/enroll/email/confirm', {
      enrollment_token,
      challenge_token: begin.body.challenge_token,
      code: t.lastCode('enroll@example.com'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ confirmed: true, token_type: 'Bearer', expires_in: 31536000 });
    expect(res.body.recovery_codes).toHaveLength(10);

    const login = t.post('', { username: 'enroll@example.com', password: PASSWORD });
    expect(login.body).toMatchObject({ two_factor_required: true, mechanism: 'Email', available_mechanisms: ['Email'] });
    const recovery = t.post('/two-factor/recovery', { challenge_token: login.body.challenge_token, recovery_code: res.body.recovery_codes[0] });
    expect(recovery.status).toBe(200);
  });

  it('refuses a wrong emailed code with invalid_grant', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = t.post('/two-factor/enroll/email/begin', { enrollment_token }).body;
    const res = t.post('/two-factor/enroll/email/confirm', {
      enrollment_token,
      challenge_token: begin.challenge_token,
      code: otherCode(t.lastCode('enroll@example.com')),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('enrollment token (§7 401/403, D31)', () => {
  const endpoints = [
    '/two-factor/enroll/totp/begin',
    '/two-factor/enroll/totp/confirm',
    '/two-factor/enroll/email/begin',
    '/two-factor/enroll/email/confirm',
  ];

  it.each(endpoints)('%s: 401 for a missing or unknown token', (path) => {
    const t = testAuth();
    for (const body of [{}, { enrollment_token: 'nope' }, null]) {
      const res = t.post(path, body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'unauthorized', error_description: expect.any(String) });
    }
  });

  it.each(endpoints)('%s: 401 once the token is 600 s old', (path) => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    t.advance(599);
    expect(t.post(path, { enrollment_token }).status).not.toBe(401);
    t.advance(1);
    expect(t.post(path, { enrollment_token }).status).toBe(401);
  });

  it('401 for a token already used by a confirm', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = beginTotp(t, enrollment_token);
    const code = totpCode(begin.secret, t.env.now());
    expect(t.post('/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token: begin.challenge_token, code }).status).toBe(200);
    expect(t.post('/two-factor/enroll/email/begin', { enrollment_token }).status).toBe(401);
    expect(t.post('/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token: begin.challenge_token, code }).status).toBe(401);
  });

  it('403 for a two-factor challenge token sent as enrollment_token', () => {
    const t = testAuth();
    const challenge = t.post('', { username: 'totp@example.com', password: PASSWORD }).body.challenge_token;
    const res = t.post('/two-factor/enroll/totp/begin', { enrollment_token: challenge });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', error_description: expect.any(String) });
  });

  it('403 for a valid token of a user who has enrolled meanwhile', () => {
    const t = testAuth();
    const spare = enrollmentToken(t);
    const enrollment_token = enrollmentToken(t);
    const begin = beginTotp(t, enrollment_token);
    const code = totpCode(begin.secret, t.env.now());
    expect(t.post('/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token: begin.challenge_token, code }).status).toBe(200);
    const res = t.post('/two-factor/enroll/email/begin', { enrollment_token: spare });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });
});

describe('rate limit on enroll/totp/confirm (§8, D10, D31)', () => {
  it('answers the 11th request in a minute with 429 and Retry-After, before anything else', () => {
    const t = testAuth();
    const enrollment_token = enrollmentToken(t);
    const begin = beginTotp(t, enrollment_token);
    for (let i = 0; i < 10; i++) expect(t.post('/two-factor/enroll/totp/confirm', {}).status).toBe(401);
    const good = { enrollment_token, challenge_token: begin.challenge_token, code: totpCode(begin.secret, t.env.now()) };
    const limited = t.post('/two-factor/enroll/totp/confirm', good);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
    expect(limited.headers).toEqual({ 'Retry-After': '60' });
    t.advance(45);
    const later = t.post('/two-factor/enroll/totp/confirm', null);
    expect(later.status).toBe(429);
    expect(later.headers?.['Retry-After']).toBe('15');
    t.advance(15);
    // The 429s did not count as attempts: the right code still works.
    const code = totpCode(begin.secret, t.env.now());
    expect(t.post('/two-factor/enroll/totp/confirm', { ...good, code }).status).toBe(200);
  });

  it('limits per client key and leaves email/confirm alone', () => {
    const t = testAuth();
    for (let i = 0; i < 10; i++) t.post('/two-factor/enroll/totp/confirm', {});
    expect(t.post('/two-factor/enroll/totp/confirm', {}).status).toBe(429);
    for (let i = 0; i < 12; i++) expect(t.post('/two-factor/enroll/email/confirm', {}).status).toBe(401);
    t.env.clientKey = '127.0.0.2';
    expect(t.post('/two-factor/enroll/totp/confirm', {}).status).toBe(401);
  });
});
