// The token and two-factor contract over real HTTP (§4 tokens, §5, §7, §8, D5–D12, D31):
// every demo user kind logs in end to end with codes from the test TOTP generator and
// from GET /__sandbox/outbox; expiry through POST /__sandbox/clock; the JWT checked
// against /.well-known/jwks.json and used on a protected endpoint.

import { execFileSync } from 'node:child_process';
import { createPublicKey, createVerify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTS, seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox, type Fixtures, type TestSandbox } from '../helpers/sandbox.js';
import { totpCode } from '../helpers/totp.js';

// The sandbox's real time is pinned (10 s into a TOTP step) so codes are deterministic;
// only POST /__sandbox/clock moves it, and `clockMs` follows those moves.
const START = Date.parse('2026-03-01T12:00:10Z');
let clockMs = START;
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox({ store: Store.memory({ seed: 1, accounts: DEFAULT_ACCOUNTS }, seedState, () => new Date(START)) });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  clockMs = START;
});

const user = (kind: string) => sb.fixtures.users.find((u) => u.kind === kind)!;
const post = (path: string, body: unknown) => sb.api('POST', path, { body, authorization: null });
const advance = async (seconds: number) => {
  await sb.advanceClock(seconds);
  clockMs += seconds * 1000;
};
const appCode = (secret: string) => totpCode(secret, clockMs);

async function fixtures(): Promise<Fixtures> {
  return (await sb.raw('GET', '/__sandbox/fixtures')).body;
}

async function lastCodeTo(to: string): Promise<string> {
  const mail = (await sb.outbox()).filter((m) => m.to === to).at(-1);
  expect(mail?.code).toMatch(/^\d{6}$/);
  return mail!.code!;
}

async function login(kind: string) {
  const u = user(kind);
  return post('/tokens', { username: u.username, password: u.password });
}

/** A bearer token must open a protected endpoint (D2). */
async function expectWorkingToken(body: any) {
  expect(body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 31536000 });
  const r = await sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${body.access_token}` });
  expect(r.status).toBe(200);
}

const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('plain login and the JWT (§5.3, D5)', () => {
  it('issues an RS256 token that verifies against /.well-known/jwks.json and opens the API', async () => {
    const res = await login('plain');
    expect(res.status).toBe(200);
    await expectWorkingToken(res.body);

    const [h, c, s] = (res.body.access_token as string).split('.') as [string, string, string];
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const set = await sb.raw('GET', '/.well-known/jwks.json');
    expect(set.status).toBe(200);
    const jwk = set.body.keys.find((k: any) => k.kid === header.kid);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(createVerify('RSA-SHA256').update(`${h}.${c}`).verify(key, s, 'base64url')).toBe(true);
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString());
    expect(claims).toMatchObject({ iss: sb.url, iat: START / 1000, exp: START / 1000 + 31536000 });
    expect(claims.sub).toBe(claims.PersonUid);
    expect(sb.fixtures.people).toContain(claims.PersonUid);
    expect(sb.fixtures.accounts).toContain(claims.AccountUid);
  });

  it('refuses a token whose claims were edited (401)', async () => {
    const token: string = (await login('plain')).body.access_token;
    const [h, c, s] = token.split('.') as [string, string, string];
    const claims = { ...JSON.parse(Buffer.from(c, 'base64url').toString()), AccountUid: 'someone-else' };
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    const r = await sb.api('GET', '/crm/accounts', { authorization: `bearer ${forged}` });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('unauthorized');
  });

  it('stops accepting the token once it is a year old on the sandbox clock (§8)', async () => {
    const token: string = (await login('plain')).body.access_token;
    await advance(31536000 - 1);
    expect((await sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${token}` })).status).toBe(200);
    await advance(1);
    expect((await sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${token}` })).status).toBe(401);
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
    expect((await sb.outbox()).filter((m) => m.to === user('totp').username)).toEqual([]);
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
    const mails = (await sb.outbox()).filter((m) => m.to === u.username);
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

function zbar(png: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-qr-'));
  try {
    writeFileSync(join(dir, 'qr.png'), png);
    return execFileSync('zbarimg', ['--raw', '-q', join(dir, 'qr.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/\n$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
    expect(zbar(Buffer.from(qr_code_png_base64, 'base64'))).toBe(otpauth_uri);

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
