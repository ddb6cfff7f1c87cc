// RS256 access tokens (D5). node:crypto only: the sandbox must not need a JWT library,
// and the tests verify with node:crypto against the served JWK set, so a mistake in
// either half shows up as a failed verification rather than two libraries agreeing.

import { createHash, createPublicKey, createSign, createVerify, generateKeyPairSync } from 'node:crypto';

export interface SigningKey {
  kid: string;
  privateKeyPem: string;
}

export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid: thumbprint(String(jwk.e), String(jwk.n)),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** RFC 7638 thumbprint: a kid that changes whenever the key does. */
function thumbprint(e: string, n: string): string {
  return createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
}

export function publicJwk(key: SigningKey): PublicJwk {
  const jwk = createPublicKey(key.privateKeyPem).export({ format: 'jwk' });
  return { kty: String(jwk.kty), n: String(jwk.n), e: String(jwk.e), kid: key.kid, alg: 'RS256', use: 'sig' };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${b64(claims)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKeyPem, 'base64url');
  return `${input}.${signature}`;
}

/** The claims of a token signed by `key` (alg RS256, matching kid), or null. Expiry is the caller's. */
export function verifyJwt(key: SigningKey, token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [headerPart, claimsPart, signature] = parts as [string, string, string];
  const header = parseJson(headerPart);
  if (header === null || header.alg !== 'RS256' || header.kid !== key.kid) return null;
  try {
    const valid = createVerify('RSA-SHA256')
      .update(`${headerPart}.${claimsPart}`)
      .verify(createPublicKey(key.privateKeyPem), signature, 'base64url');
    return valid ? parseJson(claimsPart) : null;
  } catch {
    return null; // a malformed signature is a refused token (401), never a server error
  }
}

function parseJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
