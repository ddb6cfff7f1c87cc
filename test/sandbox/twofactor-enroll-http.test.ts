// Forced enrollment over real HTTP (§5.5, §7 401/403/429, D10, D11, D31): a QR PNG that
// zbarimg reads back as the otpauth URI, confirm with a code from the test TOTP
// generator or the outbox, then the normal challenge flow.

import { describe, expect, it } from 'vitest';
import { decodeQrPng } from '../helpers/zbar.js';
import { otherCode, useTwoFactorSandbox } from '../helpers/two-factor-http.js';

const h = useTwoFactorSandbox();
const { post, login, advance, appCode, lastCodeTo, fixtures, expectWorkingToken } = h;
const user = (kind: string) => h.user(kind);
const other = otherCode;

describe('forced enrollment (§5.5)', () => {
  it('TOTP: begin with a scannable QR, confirm with the app code, then the normal challenge', async () => {
    const u = user('enroll');
    const start = await login('enroll');
    expect(start.status).toBe(202);
    expect(start.body).toEqual({ two_factor_enrollment_required: true, challenge_token: expect.any(String), expires_in: 600 });
    const enrollment_token = start.body.challenge_token;
    const begin = await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token });
    expect(begin.status).toBe(200);
    const { secret, otpauth_uri, qr_code_png_base64, challenge_token } = begin.body;
    expect(otpauth_uri).toBe(
      `otpauth://totp/bo%20sandbox:${encodeURIComponent(u.username)}?secret=${secret}&issuer=bo%20sandbox&algorithm=SHA1&digits=6&period=30`,
    );
    expect(decodeQrPng(Buffer.from(qr_code_png_base64, 'base64'))).toBe(otpauth_uri);

    const confirm = await post('/tokens/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token, code: appCode(secret) });
    expect(confirm.status).toBe(200);
    expect(confirm.body.confirmed).toBe(true);
    expect(new Set(confirm.body.recovery_codes).size).toBe(10);
    await expectWorkingToken(confirm.body);
    expect((await fixtures()).users.find((f) => f.kind === 'enroll')).toMatchObject({ totpSecret: secret, recoveryCodes: confirm.body.recovery_codes });

    const next = await login('enroll');
    expect(next.status).toBe(202);
    expect(next.body).toMatchObject({ two_factor_required: true, mechanism: 'Totp' });
    await advance(30); // the confirm's code was used (D8); the next step's code is fresh
    const done = await post('/tokens/two-factor', { challenge_token: next.body.challenge_token, code: appCode(secret) });
    expect(done.status).toBe(200);
  });

  it('Email: begin emails a code, confirm enables Email', async () => {
    const u = user('enroll');
    const enrollment_token = (await login('enroll')).body.challenge_token;
    const begin = await post('/tokens/two-factor/enroll/email/begin', { enrollment_token });
    expect(begin.status).toBe(200);
    expect(begin.body).toMatchObject({ mechanism: 'Email', expires_in: 600, masked_destination: expect.stringMatching(/^.\*{4}@/) });
    const confirm = await post('/tokens/two-factor/enroll/email/confirm', {
      enrollment_token,
      challenge_token: begin.body.challenge_token,
      code: await lastCodeTo(u.username),
    });
    expect(confirm.status).toBe(200);
    await expectWorkingToken(confirm.body);
    expect((await login('enroll')).body).toMatchObject({ two_factor_required: true, mechanism: 'Email' });
  });

  it('401 for an unknown, and for an expired, enrollment token', async () => {
    const unknown = await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token: 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('unauthorized');
    const enrollment_token = (await login('enroll')).body.challenge_token;
    await advance(600);
    expect((await post('/tokens/two-factor/enroll/email/begin', { enrollment_token })).status).toBe(401);
  });

  it('403 for a two-factor challenge token sent as the enrollment token', async () => {
    const enrollment_token = (await login('totp')).body.challenge_token;
    const res = await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });

  it('403 for a still valid enrollment token once the user has enrolled with another (D31)', async () => {
    const spare = (await login('enroll')).body.challenge_token;
    const enrollment_token = (await login('enroll')).body.challenge_token;
    const begin = (await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token })).body;
    const confirm = await post('/tokens/two-factor/enroll/totp/confirm', {
      enrollment_token,
      challenge_token: begin.challenge_token,
      code: appCode(begin.secret),
    });
    expect(confirm.status).toBe(200);
    const res = await post('/tokens/two-factor/enroll/email/begin', { enrollment_token: spare });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
    // The used token itself is spent: 401 (D31).
    expect((await post('/tokens/two-factor/enroll/email/begin', { enrollment_token })).status).toBe(401);
  });

  it('400 invalid_grant for a wrong enrollment code', async () => {
    const enrollment_token = (await login('enroll')).body.challenge_token;
    const begin = (await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token })).body;
    const res = await post('/tokens/two-factor/enroll/totp/confirm', {
      enrollment_token,
      challenge_token: begin.challenge_token,
      code: other(appCode(begin.secret)),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('429 with Retry-After on the 11th totp/confirm in a minute (D10), lifted by the clock', async () => {
    for (let i = 0; i < 10; i++) expect((await post('/tokens/two-factor/enroll/totp/confirm', {})).status).toBe(401);
    const limited = await post('/tokens/two-factor/enroll/totp/confirm', {});
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
    expect(limited.headers.get('retry-after')).toBe('60');
    await advance(60);
    expect((await post('/tokens/two-factor/enroll/totp/confirm', {})).status).toBe(401);
  });
});
