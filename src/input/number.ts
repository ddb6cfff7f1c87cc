// Numbers typed on the command line: plain decimal digits only, so that "1e3", "0x10",
// "Infinity" or "" (all of which Number() accepts) are refused instead of surprising.

import { UsageError } from '../output/errors.js';

function range(min: number | undefined, max: number | undefined): string {
  const big = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;
  if (!big(min) && !big(max)) return ` from ${min} to ${max}`;
  if (!big(min)) return ` of at least ${min}`;
  if (!big(max)) return ` of at most ${max}`;
  return '';
}

/** A whole number within min…max (inclusive). */
export function checkInteger(flag: string, text: string, min: number, max: number): number {
  const value = text.trim();
  const n = Number(value);
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number${range(min, max)}, not ${JSON.stringify(text)}`);
  }
  return n === 0 ? 0 : n;
}

/** A finite decimal number (e.g. 12, -3.5, .25) within the optional bounds. */
export function checkNumber(flag: string, text: string, min?: number, max?: number): number {
  const value = text.trim();
  const n = Number(value);
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) || !Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
    throw new UsageError(`${flag} must be a decimal number${range(min, max)}, not ${JSON.stringify(text)}`);
  }
  return n === 0 ? 0 : n;
}
