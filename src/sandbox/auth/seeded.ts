// Values the sandbox derives from its seed, so that the same seed gives the same TOTP
// secrets and recovery codes on every machine (tests and docs can rely on them).
// Tokens and emailed codes are random instead: nothing should be able to predict them.

import { seededRandom } from '../prng.js';
import { base32Encode } from './totp.js';

/**
 * `length` pseudo-random bytes from the seed and a label: the sandbox's seeded
 * generator (prng.ts) started from an FNV-1a hash of both. Not node:crypto: seeding a
 * fresh state derives these, and loading node:crypto costs ~2.5 ms of a first
 * `bo --sandbox` run (measured on Node 20) that otherwise needs no crypto. They are
 * predictable from the seed either way, by design.
 */
export function derive(seed: number, label: string, length: number): Buffer {
  const text = `${seed}:${label}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  const rnd = seededRandom(hash >>> 0);
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rnd.next() * 256);
  return bytes;
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
