// The token and two-factor login contract over real HTTP (§4 tokens, §5, §7, §8, D5–D9,
// D12, D31): every demo user kind signs in end to end with codes from the test TOTP
// generator and from GET /__sandbox/outbox; expiry through POST /__sandbox/clock; the
// JWT checked against /.well-known/jwks.json and used on a protected endpoint.
// Enrollment over HTTP is in twofactor-enroll-http.test.ts.

import { createPublicKey, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { START, otherCode, useTwoFactorSandbox } from '../helpers/two-factor-http.js';

const h = useTwoFactorSandbox();
const { post, login, advance, appCode, lastCodeTo, fixtures, expectWorkingToken } = h;
const user = (kind: string) => h.user(kind);
const other = otherCode;

describe('plain login and the JWT (§5.3, D5)', () => {
  it('issues an RS256 token that verifies against /.well-known/jwks.json and opens the API', async () => {
    const res = await login('plain');
    expect(res.status).toBe(200);
    await expectWorkingToken(res.body);

    const [head, c, s] = (res.body.access_token as string).split('.') as [string, string, string];
    const header = JSON.parse(Buffer.from(head, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const set = await h.sb.raw('GET', '/.well-known/jwks.json');
    expect(set.status).toBe(200);
    const jwk = set.body.keys.find((k: any) => k.kid === header.kid);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(createVerify('RSA-SHA256').update(`${head}.${c}`).verify(key, s, 'base64url')).toBe(true);
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString());
    expect(claims).toMatchObject({ iss: h.sb.url, iat: START / 1000, exp: START / 1000 + 31536000 });
    expect(claims.sub).toBe(claims.PersonUid);
    expect(h.sb.fixtures.people).toContain(claims.PersonUid);
    expect(h.sb.fixtures.accounts).toContain(claims.AccountUid);
  });

  it('refuses a token whose claims were edited (401)', async () => {
    const token: string = (await login('plain')).body.access_token;
    const [head, c, s] = token.split('.') as [string, string, string];
    const claims = { ...JSON.parse(Buffer.from(c, 'base64url').toString()), AccountUid: 'someone-else' };
    const forged = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    const r = await h.sb.api('GET', '/crm/accounts', { authorization: `bearer ${forged}` });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('unauthorized');
  });

  it('stops accepting the token once it is a year old on the sandbox clock (§8)', async () => {
    const token: string = (await login('plain')).body.access_token;
    await advance(31536000 - 1);
    expect((await h.sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${token}` })).status).toBe(200);
    await advance(1);
    expect((await h.sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${token}` })).status).toBe(401);
  });

  it('answers a wrong password like an unknown user (D7) and a missing field with validation_failed (D31)', async () => {
    const u = user('plain');
    const wrong = await post('/tokens', { username: u.username, password: 'nope' });
    const unknown = await post('/tokens', { username: 'nobody@example.com', password: u.password });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect(unknown.body).toEqual(wrong.body);
    const missing = await post('/tokens', { username: u.username });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'password', message: expect.any(String) }] });
  });
});

describe('two-factor logins of every kind (§5.4)', () => {
  it('totp: challenge without email, then the app code', async () => {
    const res = await login('totp');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      two_factor_required: true,
      challenge_token: expect.any(String),
      mechanism: 'Totp',
      masked_destination: null,
      expires_in: 600,
      available_mechanisms: ['Totp'],
      recovery_codes_available: true,
    });
    expect((await h.sb.outbox()).filter((m) => m.to === user('totp').username)).toEqual([]);
    const done = await post('/tokens/two-factor', { challenge_token: res.body.challenge_token, code: appCode(user('totp').totpSecret!) });
    expect(done.status).toBe(200);
    await expectWorkingToken(done.body);
  });

  it('email: the emailed code from the outbox, masked destination per D12', async () => {
    const u = user('email');
    const res = await login('email');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ mechanism: 'Email', available_mechanisms: ['Email'] });
    const [local, domain] = u.username.split('@') as [string, string];
    expect(res.body.masked_destination).toBe(`${local[0]}****@${domain}`);
    const done = await post('/tokens/two-factor', { challenge_token: res.body.challenge_token, code: await lastCodeTo(u.username) });
    expect(done.status).toBe(200);
    await expectWorkingToken(done.body);
  });

  it('both: Totp by default, switch to Email (any case, D29) and sign in with the emailed code', async () => {
    const u = user('both');
    const res = await login('both');
    expect(res.body).toMatchObject({ mechanism: 'Totp', available_mechanisms: ['Totp', 'Email'] });
    const switched = await post('/tokens/two-factor/switch-mechanism', { challenge_token: res.body.challenge_token, mechanism: 'email' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ two_factor_required: true, mechanism: 'Email', expires_in: 600 });
    const code = await lastCodeTo(u.username);
    const stale = await post('/tokens/two-factor', { challenge_token: res.body.challenge_token, code });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe('invalid_grant');
    const done = await post('/tokens/two-factor', { challenge_token: switched.body.challenge_token, code });
    expect(done.status).toBe(200);
    await expectWorkingToken(done.body);
  });

  it('a recovery code works once and leaves the fixtures (§4)', async () => {
    const code = user('totp').recoveryCodes[0]!;
    const first = await post('/tokens/two-factor/recovery', { challenge_token: (await login('totp')).body.challenge_token, recovery_code: code });
    expect(first.status).toBe(200);
    await expectWorkingToken(first.body);
    const again = await post('/tokens/two-factor/recovery', { challenge_token: (await login('totp')).body.challenge_token, recovery_code: code });
    expect(again.status).toBe(400);
    expect((await fixtures()).users.find((u) => u.kind === 'totp')!.recoveryCodes).not.toContain(code);
  });
});

describe('§7 rows for challenges', () => {
  it('400 not_supported: resend of a Totp challenge', async () => {
    const res = await post('/tokens/two-factor/resend', { challenge_token: (await login('totp')).body.challenge_token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'not_supported', error_description: expect.any(String) });
  });

  it('resend of an Email challenge: fresh token, fresh code, the old ones dead (D9)', async () => {
    const u = user('email');
    const first = (await login('email')).body;
    const oldCode = await lastCodeTo(u.username);
    const resent = await post('/tokens/two-factor/resend', { challenge_token: first.challenge_token });
    expect(resent.status).toBe(200);
    expect(resent.body.challenge_token).not.toBe(first.challenge_token);
    const mails = (await h.sb.outbox()).filter((m) => m.to === u.username);
    expect(mails).toHaveLength(2);
    const newCode = mails[1]!.code!;
    expect((await post('/tokens/two-factor', { challenge_token: first.challenge_token, code: newCode })).status).toBe(400);
    if (oldCode !== newCode) {
      expect((await post('/tokens/two-factor', { challenge_token: resent.body.challenge_token, code: oldCode })).status).toBe(400);
    }
    expect((await post('/tokens/two-factor', { challenge_token: resent.body.challenge_token, code: newCode })).status).toBe(200);
  });

  it('400 invalid_grant: the 5th wrong code locks, counted across a switch (D8)', async () => {
    const u = user('both');
    let token = (await login('both')).body.challenge_token;
    const wrong = async () => post('/tokens/two-factor', { challenge_token: token, code: other(appCode(u.totpSecret!)) });
    for (let i = 0; i < 3; i++) expect((await wrong()).body.error_description).not.toMatch(/locked/i);
    token = (await post('/tokens/two-factor/switch-mechanism', { challenge_token: token, mechanism: 'Totp' })).body.challenge_token;
    expect((await wrong()).body.error_description).not.toMatch(/locked/i);
    const fifth = await wrong();
    expect(fifth.status).toBe(400);
    expect(fifth.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/locked/i) });
    const right = await post('/tokens/two-factor', { challenge_token: token, code: appCode(u.totpSecret!) });
    expect(right.status).toBe(400);
    expect(right.body.error_description).toMatch(/locked/i);
  });

  it('400 invalid_grant, not counted: an unknown challenge token (D31)', async () => {
    const res = await post('/tokens/two-factor', { challenge_token: 'not-a-token', code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('410 challenge_expired after 600 s on the sandbox clock', async () => {
    const u = user('email');
    const { challenge_token } = (await login('email')).body;
    const code = await lastCodeTo(u.username);
    await advance(600);
    const res = await post('/tokens/two-factor', { challenge_token, code });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'challenge_expired', error_description: expect.any(String) });
  });
});
