// Numbers typed on the command line: plain decimal digits only, so that "1e3", "0x10",
// "Infinity" or "" (all of which Number() accepts) are refused instead of surprising.
// An exponent is refused too although it could be read exactly: a count or an amount
// is typed in digits, and "1e3" there is more often a slip than a wish.
//
// A number is sent as a JSON double, so one that a double cannot carry exactly is
// refused rather than rounded: an accepted number, printed by JSON.stringify, has the
// value that was typed. Leading zeros, a leading "+" and trailing zeros after the point
// change no value ("1200.50" is sent as 1200.5); more significant digits than a double
// keeps, or a whole number past 2^53 - 1 (where doubles skip integers), are exit 2.

import { UsageError } from '../errors.js';

const big = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;

function range(min: number | undefined, max: number | undefined): string {
  if (!big(min) && !big(max)) return ` from ${min} to ${max}`;
  if (!big(min)) return ` of at least ${min}`;
  if (!big(max)) return ` of at most ${max}`;
  return '';
}

/**
 * A decimal's value as one string (sign, significant digits, power of ten), so that
 * "+001200.50", "1200.5" and "1.2005e+3" compare equal; `undefined` for what is not a
 * decimal (JSON.stringify's forms included).
 */
export function decimalValue(text: string): string | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  const digits = (whole! + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - significant.length);
  return `${sign === '-' ? '-' : ''}${significant}e${power}`;
}

/**
 * Whether `n` (read from `text`) reaches the server as typed: the JSON that carries it
 * has the typed value. Numbers are sent with JSON.stringify, which writes a double's
 * shortest round-trip form.
 */
export function sentExactly(text: string, n: number): boolean {
  return Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && decimalValue(JSON.stringify(n)) === decimalValue(text);
}

/** The one message for a number `text` a double would change; `typed` shows it as given ("--amount 1.5", "-F Amount=1.5"). */
export function inexactError(typed: string, text: string, hint?: string): UsageError {
  const why = /[.]/.test(text) ? 'at most 15 significant digits are always kept' : `whole numbers go up to ${Number.MAX_SAFE_INTEGER}`;
  return new UsageError(`${typed} has more digits than can be sent exactly (${why})`, hint === undefined ? {} : { hint });
}

function checkValue(flag: string, text: string, n: number, min: number | undefined, max: number | undefined, what: string): number {
  const below = min !== undefined && n < min;
  const above = max !== undefined && n > max;
  const outside = () => new UsageError(`${flag} must be ${what}${range(min, max)}, not ${JSON.stringify(text)}`);
  // A bound the message can state comes first ("--role must be … from 0 to 2147483647").
  if ((below && !big(min)) || (above && !big(max))) throw outside();
  if (!sentExactly(text, n)) throw inexactError(`${flag} ${text.trim()}`, text);
  if (below || above) throw outside();
  return n === 0 ? 0 : n;
}

/** A whole number within min…max (inclusive). */
export function checkInteger(flag: string, text: string, min: number, max: number): number {
  const value = text.trim();
  if (!/^[+-]?\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number${range(min, max)}, not ${JSON.stringify(text)}`);
  return checkValue(flag, text, Number(value), min, max, 'a whole number');
}

/** A finite decimal number (e.g. 12, -3.5, .25) within the optional bounds. */
export function checkNumber(flag: string, text: string, min?: number, max?: number): number {
  const value = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`${flag} must be a decimal number${range(min, max)}, not ${JSON.stringify(text)}`);
  return checkValue(flag, text, Number(value), min, max, 'a decimal number');
}
