import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInteger, checkNumber } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';

function refused(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('accepted');
}

describe('checkInteger', () => {
  it('accepts whole numbers within the bounds', () => {
    expect(checkInteger('--quantity', '1', 1, 10)).toBe(1);
    expect(checkInteger('--quantity', '10', 1, 10)).toBe(10);
    expect(checkInteger('--quantity', ' 007 ', 1, 10)).toBe(7);
    expect(checkInteger('--role', '-3', -5, 5)).toBe(-3);
    expect(checkInteger('--role', '+4', -5, 5)).toBe(4);
    expect(Object.is(checkInteger('--role', '-0', -5, 5), 0)).toBe(true);
    expect(checkInteger('--n', '9007199254740991', 0, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses numbers outside the bounds, saying the range', () => {
    expect(refused(() => checkInteger('--quantity', '0', 1, 10)).message).toBe('--quantity must be a whole number from 1 to 10, not "0"');
    expect(refused(() => checkInteger('--quantity', '11', 1, 10)).message).toContain('from 1 to 10');
    expect(refused(() => checkInteger('--quantity', '0', 1, Number.MAX_SAFE_INTEGER)).message).toBe(
      '--quantity must be a whole number of at least 1, not "0"',
    );
    expect(refused(() => checkInteger('--n', '9007199254740992', 0, Number.MAX_SAFE_INTEGER)).exitCode).toBe(2);
  });

  it('refuses what Number() would quietly accept', () => {
    for (const bad of ['', ' ', '1.0', '1.5', '1e3', '0x10', '0b1', '0o7', 'Infinity', 'NaN', '1_000', '1,000', '٣', '--1', '1 2']) {
      expect(refused(() => checkInteger('--quantity', bad, 0, 1_000_000)).message, JSON.stringify(bad)).toMatch(/^--quantity must be a whole number/);
    }
  });
});

describe('checkNumber', () => {
  it('accepts finite decimals within optional bounds', () => {
    expect(checkNumber('--amount', '12')).toBe(12);
    expect(checkNumber('--amount', '-3.5')).toBe(-3.5);
    expect(checkNumber('--amount', '.25')).toBe(0.25);
    expect(checkNumber('--amount', '4.')).toBe(4);
    expect(checkNumber('--amount', ' 1999.99 ', 0)).toBe(1999.99);
    expect(checkNumber('--amount', '100', 0, 100)).toBe(100);
  });

  it('refuses exponents, hex, infinities and other surprises', () => {
    for (const bad of ['', '.', '-', '1e3', '1E-2', '0x1F', 'Infinity', '-Infinity', 'NaN', '1,5', '12abc', '$5', '1..2']) {
      expect(refused(() => checkNumber('--amount', bad)).message, JSON.stringify(bad)).toBe(`--amount must be a decimal number, not ${JSON.stringify(bad)}`);
    }
    // Digits beyond what a double holds are not finite.
    expect(refused(() => checkNumber('--amount', '9'.repeat(400))).exitCode).toBe(2);
  });

  it('applies the bounds', () => {
    expect(refused(() => checkNumber('--amount', '-0.01', 0)).message).toBe('--amount must be a decimal number of at least 0, not "-0.01"');
    expect(refused(() => checkNumber('--amount', '101', 0, 100)).message).toContain('from 0 to 100');
    expect(refused(() => checkNumber('--amount', '101', undefined, 100)).message).toContain('of at most 100');
  });
});

/** A decimal text (digits, optional point, optional exponent) as an exact rational m × 10^e, by BigInt arithmetic. */
function exact(text: string): { m: bigint; e: bigint } {
  const [, sign, whole, fraction = '', exponent = '0'] = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim())!;
  const m = BigInt(`${whole}${fraction}` || '0');
  return { m: sign === '-' ? -m : m, e: BigInt(exponent) - BigInt(fraction.length) };
}

function sameValue(a: string, b: string): boolean {
  const x = exact(a);
  const y = exact(b);
  const e = x.e < y.e ? x.e : y.e;
  return x.m * 10n ** (x.e - e) === y.m * 10n ** (y.e - e);
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** The typed value is a whole number past 2^53 - 1 (or below its negative). */
function beyondSafe(text: string): boolean {
  const { m, e } = exact(text);
  const size = m < 0n ? -m : m;
  return e >= 0n ? size * 10n ** e > MAX : size > MAX * 10n ** -e;
}

describe('numbers reach the server exactly as typed', () => {
  it('refuses more digits than a double keeps, naming the flag', () => {
    expect(refused(() => checkNumber('--amount', '12345678901234567890')).message).toBe(
      '--amount 12345678901234567890 has more digits than can be sent exactly (whole numbers go up to 9007199254740991)',
    );
    expect(refused(() => checkNumber('--amount', '1200.123456789012345678')).message).toBe(
      '--amount 1200.123456789012345678 has more digits than can be sent exactly (at most 15 significant digits are always kept)',
    );
    expect(refused(() => checkNumber('--amount', '0.' + '0'.repeat(400) + '1')).exitCode).toBe(2);
    // 2^53 and 2^54 are doubles, but past 2^53 doubles skip whole numbers: refused.
    expect(refused(() => checkNumber('--amount', '9007199254740992')).message).toMatch(/^--amount 9007199254740992 has more digits/);
    expect(refused(() => checkNumber('--amount', '-18014398509481984')).exitCode).toBe(2);
    expect(refused(() => checkInteger('--quantity', '9007199254740992', 1, Number.MAX_SAFE_INTEGER)).message).toMatch(
      /^--quantity 9007199254740992 has more digits than can be sent exactly/,
    );
    // A bound the message can state still comes first.
    expect(refused(() => checkInteger('--role', '99999999999999999999', 0, 2_147_483_647)).message).toBe(
      '--role must be a whole number from 0 to 2147483647, not "99999999999999999999"',
    );
  });

  it('accepts leading zeros, a leading +, trailing zeros and -0: they change no value', () => {
    expect(checkNumber('--amount', '1200.50')).toBe(1200.5);
    expect(checkNumber('--amount', '+001200.500000000000000000000')).toBe(1200.5);
    expect(checkNumber('--amount', '9007199254740991.000')).toBe(Number.MAX_SAFE_INTEGER);
    expect(checkNumber('--amount', '-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(checkNumber('--amount', '0.30000000000000004')).toBe(0.1 + 0.2);
    expect(checkNumber('--amount', '0.0000001')).toBe(1e-7);
    expect(Object.is(checkNumber('--amount', '-0.000'), 0)).toBe(true);
    // An exponent stays refused although it could be read exactly.
    expect(refused(() => checkNumber('--amount', '1e3')).message).toBe('--amount must be a decimal number, not "1e3"');
  });

  const digits = (max: number) => fc.string({ unit: fc.constantFrom('0', '0', '1', '5', '9', '3'), minLength: 0, maxLength: max });
  const typed = fc.oneof(
    // Arbitrary decimals, long enough to cross what a double keeps.
    fc
      .tuple(fc.constantFrom('', '+', '-'), digits(24), fc.option(digits(24)))
      .filter(([, w, f]) => w !== '' || (f !== null && f !== ''))
      .map(([s, w, f]) => `${s}${w}${f === null ? '' : `.${f}`}`),
    // Doubles written out in full: accepted, at the edge of what round-trips.
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e16, max: 1e16 }).map((d) => JSON.stringify(d)).filter((t) => !/e/.test(t)),
    // Whole numbers around 2^53.
    fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }).map(String),
  );

  it('property: an accepted number, as JSON.stringify sends it, has the typed value; a refused one would have changed', () => {
    fc.assert(
      fc.property(typed, (text) => {
        let sent: number | undefined;
        try {
          sent = checkNumber('--amount', text);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect((err as UsageError).message).toMatch(/^--amount .* has more digits than can be sent exactly/);
        }
        if (sent !== undefined) {
          expect(sameValue(JSON.stringify(sent), text), text).toBe(true);
          expect(beyondSafe(text), text).toBe(false);
        } else {
          expect(beyondSafe(text) || !sameValue(JSON.stringify(Number(text)), text), text).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('property: checkInteger accepts exactly the whole numbers up to 2^53 - 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }), (big) => {
        const text = String(big);
        const safe = big >= -MAX && big <= MAX;
        if (safe) expect(checkInteger('--n', text, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(Number(big));
        else expect(refused(() => checkInteger('--n', text, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).message).toMatch(/has more digits/);
      }),
    );
  });
});
