// An RFC 6238 TOTP generator for tests, written apart from the sandbox's own
// (src/sandbox/auth/totp.ts, never imported here) so that a shared mistake cannot make
// the two agree. It is itself checked against RFC 6238 Appendix B and oathtool.

import { createHmac } from 'node:crypto';

/** RFC 4648 base32 → bytes; padding and case ignored. */
export function decodeBase32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...text.replace(/=+$/, '').toUpperCase()]
    .map((ch) => {
      const v = alphabet.indexOf(ch);
      if (v < 0) throw new Error(`not base32: ${ch}`);
      return v.toString(2).padStart(5, '0');
    })
    .join('');
  const out: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) out.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(out);
}

/** RFC 6238 §4: T = floor((unixTime − T0) / X), HOTP (RFC 4226 §5.3) over T, SHA-1. */
export function totp(key: Buffer, unixSeconds: number, digits = 6, stepSeconds = 30): string {
  const counter = Math.floor(unixSeconds / stepSeconds);
  const hex = counter.toString(16).padStart(16, '0');
  const hmac = createHmac('sha1', key).update(Buffer.from(hex, 'hex')).digest();
  const offset = hmac[19]! & 0xf;
  const binCode =
    ((hmac[offset]! & 0x7f) << 24) | (hmac[offset + 1]! << 16) | (hmac[offset + 2]! << 8) | hmac[offset + 3]!;
  return (binCode % 10 ** digits).toString().padStart(digits, '0');
}

/** The 6-digit code for a base32 secret at a time (a Date or epoch ms). */
export function totpCode(secretBase32: string, at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  return totp(decodeBase32(secretBase32), Math.floor(ms / 1000));
}
