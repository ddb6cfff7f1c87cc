// RS256 tokens signed with a fresh key, shaped as the tenant issues them (D5), for
// tests of `bo auth status` and its --verify.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function makeKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

export function signJwt(payload: object, key: { kid: string; privateKey: KeyObject }, header: object = {}): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...header })}.${b64(payload)}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

