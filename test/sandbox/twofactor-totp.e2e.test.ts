// The test TOTP generator against RFC 6238 Appendix B and oathtool, then the sandbox's
// TOTP (D11) against that generator: the engine's codes are what an authenticator app
// would show, and its ±1 step window and replay rule (D8) hold.

import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, matchTotp, totpAt } from '../../src/sandbox/auth/totp.js';
import { decodeBase32, totp, totpCode } from '../helpers/totp.js';

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('test TOTP generator', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('matches RFC 6238 Appendix B (SHA-1) at T=%d', (seconds, expected) => {
    expect(totp(RFC_KEY, seconds, 8)).toBe(expected);
  });

  it('decodes base32 as RFC 4648 does', () => {
    expect(decodeBase32('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('ascii')).toBe('12345678901234567890');
  });

  it('agrees with oathtool on a six-digit code', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const seconds = 1_772_366_410; // 2026-03-01T12:00:10Z
    const fromOathtool = execFileSync('oathtool', ['--totp', '-b', '--now', `@${seconds}`, secret], { encoding: 'utf8' }).trim();
    expect(fromOathtool).toMatch(/^\d{6}$/);
    expect(totpCode(secret, seconds * 1000)).toBe(fromOathtool);
  });
});

describe('sandbox TOTP (D11)', () => {
  const secret = base32Encode(RFC_KEY);

  it('encodes base32 without padding and round-trips', () => {
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret).equals(RFC_KEY)).toBe(true);
    const odd = Buffer.from([1, 2, 3, 4, 5, 6, 7]);
    expect(decodeBase32(base32Encode(odd)).equals(odd)).toBe(true);
  });

  it.each([59, 1111111109, 1234567890, 2000000000, 20000000000])('produces the six-digit code at T=%d', (seconds) => {
    expect(totpAt(secret, seconds * 1000)).toBe(totp(RFC_KEY, seconds, 6));
  });

  it('accepts codes one step either side and refuses two steps away', () => {
    const now = 1_772_366_410_000;
    const at = (offsetSteps: number) => totpCode(secret, now + offsetSteps * 30_000);
    expect(matchTotp(secret, at(-1), now, null)).toBe(Math.floor(now / 30_000) - 1);
    expect(matchTotp(secret, at(0), now, null)).toBe(Math.floor(now / 30_000));
    expect(matchTotp(secret, at(1), now, null)).toBe(Math.floor(now / 30_000) + 1);
    expect(matchTotp(secret, at(-2), now, null)).toBeNull();
    expect(matchTotp(secret, at(2), now, null)).toBeNull();
  });

  it('never matches a step at or before the last one used (RFC 6238 §5.2)', () => {
    const now = 1_772_366_410_000;
    const step = Math.floor(now / 30_000);
    const code = totpCode(secret, now);
    expect(matchTotp(secret, code, now, step)).toBeNull();
    expect(matchTotp(secret, code, now, step - 1)).toBe(step);
  });

  it('agrees with the test generator for any secret and time', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 64 }), fc.integer({ min: 0, max: 2 ** 40 }), (bytes, ms) => {
        const b32 = base32Encode(bytes);
        expect(decodeBase32(b32).equals(Buffer.from(bytes))).toBe(true);
        expect(totpAt(b32, ms)).toBe(totpCode(b32, ms));
      }),
    );
  });

  it('refuses anything but six digits', () => {
    const now = 1_772_366_410_000;
    const code = totpCode(secret, now);
    expect(matchTotp(secret, ` ${code}x`, now, null)).toBeNull();
    expect(matchTotp(secret, code.slice(1), now, null)).toBeNull();
  });
});
