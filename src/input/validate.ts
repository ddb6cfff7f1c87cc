// Checks of what the user typed, before anything is sent (COMMANDS.md "Input is
// checked before any request"). Each failure is a UsageError (exit 2) naming the flag.

import { UsageError } from '../output/errors.js';

/** Uids are opaque strings, but never empty and never with spaces, `/` or controls. */
export function checkUid(label: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${label} must not be empty`);
  // eslint-disable-next-line no-control-regex
  if (/[\s/\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError(`${label} must be a Uid without spaces, "/" or control characters, got ${JSON.stringify(value)}`);
  }
  return value;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function realDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * An ISO 8601 date-time (with Z or an offset) or a bare date, which means the end of
 * that day, 23:59:59 UTC. Returns the instant as an ISO string (what is sent).
 */
export function checkDate(flag: string, text: string): string {
  const value = text.trim();
  const bare = DATE_ONLY.exec(value);
  if (bare) {
    const [y, m, d] = [Number(bare[1]), Number(bare[2]), Number(bare[3])];
    if (!realDay(y, m, d)) throw new UsageError(`${flag} must be a real calendar date, got "${text}"`);
    return new Date(Date.UTC(y, m - 1, d, 23, 59, 59)).toISOString();
  }
  const full = DATE_TIME.exec(value);
  if (!full) {
    throw new UsageError(`${flag} must be a date (2027-01-31) or an ISO 8601 date-time with a zone (2027-01-31T12:00:00Z), got "${text}"`);
  }
  const [y, m, d, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(full[i] ?? 0)) as [number, number, number, number, number, number];
  const at = new Date(value);
  if (!realDay(y, m, d) || hh > 23 || mm > 59 || ss > 59 || Number.isNaN(at.getTime())) {
    throw new UsageError(`${flag} must be a real date and time, got "${text}"`);
  }
  return at.toISOString();
}

/** A whole number from `min` to `max`, written in plain decimal digits. */
export function checkInteger(flag: string, text: string, min: number, max: number): number {
  const value = text.trim();
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return n;
}

/** Text of bounded length (in characters); `@file` reads the text from a file. */
export async function checkText(flag: string, text: string, opts: { min?: number; max?: number }): Promise<string> {
  let value = text;
  if (text.startsWith('@') && text.length > 1) {
    const file = text.slice(1);
    const { readFile } = await import('node:fs/promises');
    try {
      value = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`${flag}: cannot read the file ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const length = [...value].length;
  const min = opts.min ?? 0;
  if (length < min) {
    throw new UsageError(min <= 1 ? `${flag} must not be empty` : `${flag} must be at least ${min} characters, got ${length}`);
  }
  if (opts.max !== undefined && length > opts.max) {
    throw new UsageError(`${flag} must be at most ${opts.max} characters, got ${length}`);
  }
  return value;
}
