// Access tokens are RS256 JWTs (D5). `bo auth status` shows who a token belongs to by
// decoding it without verifying (the claims are only displayed, never trusted), and
// `--verify` checks the signature against the tenant's JWK set with node:crypto.

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** The header and claims, or null when the token is not a three-part JWT of JSON. */
export function decodeJwt(token: string): DecodedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isObject(header) || !isObject(payload)) return null;
    return { header, payload };
  } catch {
    return null;
  }
}

/** `exp` as a Date, when the token has a numeric one that makes a date. */
export function expiryOf(jwt: DecodedJwt | null): Date | undefined {
  const exp = jwt?.payload.exp;
  if (typeof exp !== 'number') return undefined;
  const at = new Date(exp * 1000);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

export type Verification = { valid: true; kid: string } | { valid: false; reason: string };

/**
 * Checks an RS256 signature against a JWK set ({"keys": [...]}) by the token's `kid`.
 * Only RS256 is accepted: trusting the header's `alg` would let a token choose its
 * own check (the "alg: none" and HMAC-with-public-key attacks).
 */
export async function verifyRs256(token: string, jwks: unknown): Promise<Verification> {
  const decoded = decodeJwt(token);
  if (!decoded) return { valid: false, reason: 'the token is not a JWT' };
  if (decoded.header.alg !== 'RS256') return { valid: false, reason: `the token's algorithm is ${String(decoded.header.alg)}, not RS256` };
  const kid = decoded.header.kid;
  if (typeof kid !== 'string') return { valid: false, reason: 'the token has no kid header' };
  const keys = isObject(jwks) && Array.isArray(jwks.keys) ? jwks.keys : undefined;
  if (!keys) return { valid: false, reason: 'the key set has no "keys" array' };
  const jwk = keys.find((k: unknown) => isObject(k) && k.kid === kid && (k.kty === 'RSA' || k.kty === undefined));
  if (!jwk) return { valid: false, reason: `no key with kid "${kid}" in the key set` };
  const { createPublicKey, verify } = await import('node:crypto');
  let key;
  try {
    key = createPublicKey({ key: { ...(jwk as object), kty: 'RSA' } as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch (err) {
    return { valid: false, reason: `key "${kid}" is not a usable RSA key (${(err as Error).message})` };
  }
  const [h, p, s] = token.split('.') as [string, string, string];
  const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'));
  return ok ? { valid: true, kid } : { valid: false, reason: `the signature does not match key "${kid}"` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
