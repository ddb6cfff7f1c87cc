// decodeJwt / verifyRs256 (src/auth/jwt-claims.ts) against tokens signed here with a
// fresh RSA key, as the tenant would sign them (D5).
import { describe, expect, it } from 'vitest';
import { decodeJwt, expiryOf, verifyRs256 } from '../../src/auth/jwt-claims.js';
import { makeKey, signJwt } from '../helpers/sign-jwt.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const claims = { sub: 'p-1', PersonUid: 'p-1', AccountUid: 'a-1', iat: 1700000000, exp: 1900000000 };
const key = makeKey('k1');
const other = makeKey('k2');

describe('decodeJwt', () => {
  it('reads header and claims without verifying', () => {
    const jwt = decodeJwt(signJwt(claims, key));
    expect(jwt?.header).toMatchObject({ alg: 'RS256', kid: 'k1' });
    expect(jwt?.payload).toEqual(claims);
    expect(expiryOf(jwt)?.toISOString()).toBe('2030-03-17T17:46:40.000Z');
  });

  it('returns null for something that is not a JWT', () => {
    for (const t of ['opaque-token', 'a.b', 'x.y.z', `${b64([1])}.${b64({})}.s`]) expect(decodeJwt(t)).toBeNull();
  });
});

describe('verifyRs256', () => {
  const jwks = { keys: [other.jwk, key.jwk] };

  it('accepts a token signed by the key its kid names', async () => {
    expect(await verifyRs256(signJwt(claims, key), jwks)).toEqual({ valid: true, kid: 'k1' });
  });

  it('refuses a changed claim', async () => {
    const [h, , s] = signJwt(claims, key).split('.');
    const forged = `${h}.${b64({ ...claims, AccountUid: 'a-2' })}.${s}`;
    expect(await verifyRs256(forged, jwks)).toEqual({ valid: false, reason: 'the signature does not match key "k1"' });
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const token = signJwt(claims, { kid: 'k1', privateKey: other.privateKey });
    expect(await verifyRs256(token, jwks)).toMatchObject({ valid: false });
  });

  it('refuses alg none, HS256, an unknown kid, and a key set without keys', async () => {
    const none = `${b64({ alg: 'none', kid: 'k1' })}.${b64(claims)}.`;
    expect(await verifyRs256(none, jwks)).toEqual({ valid: false, reason: "the token's algorithm is none, not RS256" });
    expect(await verifyRs256(signJwt(claims, key, { alg: 'HS256' }), jwks)).toMatchObject({ valid: false });
    expect(await verifyRs256(signJwt(claims, makeKey('k9')), jwks)).toEqual({ valid: false, reason: 'no key with kid "k9" in the key set' });
    expect(await verifyRs256(signJwt(claims, key), { nope: [] })).toEqual({ valid: false, reason: 'the key set has no "keys" array' });
    expect(await verifyRs256('opaque', jwks)).toEqual({ valid: false, reason: 'the token is not a JWT' });
  });
});
