import { describe, expect, it } from 'vitest';
import { checkInteger, checkNumber } from '../../src/input/validate.js';
import { UsageError } from '../../src/output/errors.js';

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
