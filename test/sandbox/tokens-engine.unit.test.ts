// POST /tokens and the access token (§4, §5.3, D5, D7, D31), driving the engine directly.
// The JWT is checked the way a client would: node:crypto against the served JWK set.

import { createPublicKey, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixtureUsers, jwks, verifyAccessToken } from '../../src/sandbox/auth/engine.js';
import { BASE_URL, PASSWORD, testAuth } from '../helpers/auth-env.js';

function decodePart(part: string): any {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Verifies an RS256 JWT against a JWK set with node:crypto alone; returns the claims. */
function verifyWithJwks(token: string, set: { keys: any[] }): any {
  const [h, c, s] = token.split('.') as [string, string, string];
  const header = decodePart(h);
  expect(header.alg).toBe('RS256');
  const jwk = set.keys.find((k) => k.kid === header.kid);
  expect(jwk).toBeDefined();
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const valid = createVerify('RSA-SHA256').update(`${h}.${c}`).verify(key, s, 'base64url');
  expect(valid).toBe(true);
  return decodePart(c);
}

describe('POST /tokens', () => {
  it('gives a plain user a bearer token (§5.3)', () => {
    const t = testAuth();
    const res = t.post('', { username: 'plain@example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 31536000 });
  });

  it('signs the token RS256 with a kid, verifiable against the JWK set, with the D5 claims', () => {
    const t = testAuth();
    const res = t.post('', { username: 'plain@example.com', password: PASSWORD });
    const set = jwks(t.state);
    expect(set.keys).toEqual([{ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: expect.any(String), alg: 'RS256', use: 'sig' }]);
    const claims = verifyWithJwks(res.body.access_token, set);
    const iat = Math.floor(t.env.now().getTime() / 1000);
    expect(claims).toEqual({
      sub: 'p-plain',
      PersonUid: 'p-plain',
      AccountUid: 'a-plain',
      SubscriptionUid: 's-plain',
      PlanUid: 'pl-1',
      iss: BASE_URL,
      iat,
      exp: iat + 31536000,
    });
  });

  it('matches usernames case-insensitively', () => {
    const t = testAuth();
    expect(t.post('', { username: 'PLAIN@Example.COM', password: PASSWORD }).status).toBe(200);
  });

  it('answers a wrong password and an unknown user alike (D7)', () => {
    const t = testAuth();
    const wrongPassword = t.post('', { username: 'plain@example.com', password: 'nope' });
    const unknownUser = t.post('', { username: 'nobody@example.com', password: PASSWORD });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error).toBe('invalid_grant');
    expect(unknownUser).toEqual(wrongPassword);
  });

  it('is case-sensitive about the password', () => {
    const t = testAuth();
    expect(t.post('', { username: 'plain@example.com', password: PASSWORD.toUpperCase() }).status).toBe(400);
  });

  it.each([
    [{ password: PASSWORD }, ['username']],
    [{ username: 'plain@example.com' }, ['password']],
    [{}, ['username', 'password']],
    [{ username: 7, password: PASSWORD }, ['username']],
    [null, ['username', 'password']],
    [['plain@example.com', PASSWORD], ['username', 'password']],
    ['username=plain@example.com', ['username', 'password']],
  ])('refuses %j with validation_failed naming the fields (D31)', (body, fields) => {
    const t = testAuth();
    const res = t.post('', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.error_description).toEqual(expect.any(String));
    expect(res.body.errors.map((e: any) => e.field)).toEqual(fields);
  });

  it('answers 404 for an unknown token path', () => {
    const t = testAuth();
    expect(t.post('/two-factor/nope', {}).body.error).toBe('not_found');
  });
});

describe('verifyAccessToken', () => {
  const issue = () => {
    const t = testAuth();
    const token = t.post('', { username: 'plain@example.com', password: PASSWORD }).body.access_token as string;
    return { t, token };
  };

  it('accepts an issued token and says whose it is', () => {
    const { t, token } = issue();
    expect(verifyAccessToken(t.state, token, t.env)).toEqual({ personUid: 'p-plain', accountUid: 'a-plain' });
  });

  it('refuses a token whose claims were changed', () => {
    const { t, token } = issue();
    const [h, c, s] = token.split('.') as [string, string, string];
    const claims = { ...decodePart(c), AccountUid: 'a-totp' };
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    expect(verifyAccessToken(t.state, forged, t.env)).toBeNull();
  });

  it('refuses a token signed by another sandbox', () => {
    const { token } = issue();
    const other = testAuth();
    expect(verifyAccessToken(other.state, token, other.env)).toBeNull();
  });

  it('refuses a token for another issuer', () => {
    const { t, token } = issue();
    expect(verifyAccessToken(t.state, token, { now: t.env.now, baseUrl: 'http://127.0.0.1:9999' })).toBeNull();
  });

  it('refuses an expired token, by the engine clock', () => {
    const { t, token } = issue();
    t.advance(31536000 - 1);
    expect(verifyAccessToken(t.state, token, t.env)).not.toBeNull();
    t.advance(1);
    expect(verifyAccessToken(t.state, token, t.env)).toBeNull();
  });

  it('refuses garbage and an alg=none token', () => {
    const { t, token } = issue();
    const [, c] = token.split('.') as [string, string];
    const kid = (jwks(t.state).keys[0] as { kid: string }).kid;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${c}.`;
    expect(verifyAccessToken(t.state, none, t.env)).toBeNull();
    expect(verifyAccessToken(t.state, 'not-a-jwt', t.env)).toBeNull();
  });
});

describe('fixtureUsers', () => {
  it('lists every user with its password, kind, secret and recovery codes', () => {
    const t = testAuth();
    const users = fixtureUsers(t.state);
    expect(users.map((u) => u.kind)).toEqual(['plain', 'totp', 'email', 'both', 'enroll']);
    const byKind = Object.fromEntries(users.map((u) => [u.kind, u]));
    expect(byKind.plain).toMatchObject({ username: 'plain@example.com', password: PASSWORD, totpSecret: null, recoveryCodes: [] });
    expect(byKind.totp!.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(byKind.both!.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(byKind.email!.totpSecret).toBeNull();
    expect(byKind.enroll).toMatchObject({ totpSecret: null, recoveryCodes: [] });
    for (const kind of ['totp', 'email', 'both']) {
      expect(byKind[kind]!.recoveryCodes).toHaveLength(10);
      expect(new Set(byKind[kind]!.recoveryCodes).size).toBe(10);
    }
  });

  it('derives secrets and recovery codes from the seed', () => {
    const a = fixtureUsers(testAuth(undefined, 7).state);
    const b = fixtureUsers(testAuth(undefined, 7).state);
    const c = fixtureUsers(testAuth(undefined, 8).state);
    expect(b).toEqual(a);
    expect(c.find((u) => u.kind === 'totp')!.totpSecret).not.toBe(a.find((u) => u.kind === 'totp')!.totpSecret);
  });

  it('keeps the state plain JSON', () => {
    const t = testAuth();
    t.post('', { username: 'email@example.com', password: PASSWORD });
    expect(JSON.parse(JSON.stringify(t.state))).toEqual(t.state);
  });
});
