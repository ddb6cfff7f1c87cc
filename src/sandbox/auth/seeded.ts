// Values the sandbox derives from its seed, so that the same seed gives the same TOTP
// secrets and recovery codes on every machine (tests and docs can rely on them).
// Tokens and emailed codes are random instead: nothing should be able to predict them.

import { createHash } from 'node:crypto';
import { base32Encode } from './totp.js';

/** `length` pseudo-random bytes from the seed and a label (SHA-256 in counter mode). */
export function derive(seed: number, label: string, length: number): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < length; i++) {
    chunks.push(createHash('sha256').update(`${seed}:${label}:${i}`).digest());
  }
  return Buffer.concat(chunks).subarray(0, length);
}

/** A 160-bit secret, the size RFC 4226 recommends for HMAC-SHA-1. */
export function totpSecret(seed: number, label: string): string {
  return base32Encode(derive(seed, `totp:${label}`, 20));
}

// No 0/o, 1/l/i: codes are read off paper and typed by people.
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten single-use codes shaped `xxxx-xxxx`. */
export function recoveryCodes(seed: number, label: string): string[] {
  const bytes = derive(seed, `recovery:${label}`, 80);
  const codes: string[] = [];
  for (let c = 0; c < 10; c++) {
    let code = '';
    for (let i = 0; i < 8; i++) {
      if (i === 4) code += '-';
      code += CODE_ALPHABET[bytes[c * 8 + i]! % CODE_ALPHABET.length];
    }
    codes.push(code);
  }
  return codes;
}

/** Recovery codes as typed: case, spaces and the dash do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}
