// Dates typed on the command line (COMMANDS.md "Input is checked before any request"):
// an ISO 8601 date-time with its zone, or a bare date meaning the end of that day,
// 23:59:59 UTC. The result is the instant to send, in ISO form.

import { UsageError } from '../errors.js';

const MIN_YEAR = 1900;
const MAX_YEAR = 9999;

const BARE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * `2026-03-01` → `2026-03-01T23:59:59.000Z`; `2026-03-01T10:00:00+02:00` →
 * `2026-03-01T08:00:00.000Z`. Impossible dates (2026-02-30), years outside
 * 1900–9999 and a date-time without a zone are refused: a time without a zone would
 * mean whatever the machine's zone happens to be.
 */
export function checkDate(flag: string, text: string): string {
  const value = text.trim();
  const wanted = `${flag} must be a date (YYYY-MM-DD, meaning 23:59:59 UTC that day) or a date-time with a zone (YYYY-MM-DDTHH:MM:SSZ or +HH:MM)`;
  const bare = BARE.exec(value);
  const full = bare ? null : DATE_TIME.exec(value);
  if (!bare && !full) throw new UsageError(`${wanted}, not ${JSON.stringify(text)}`);
  const m = (bare ?? full)!;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < MIN_YEAR || year > MAX_YEAR) throw new UsageError(`${flag} must have a year from ${MIN_YEAR} to ${MAX_YEAR}, not ${JSON.stringify(text)}`);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    throw new UsageError(`${flag} is not a real date: ${JSON.stringify(text)}`);
  }
  if (bare) return new Date(Date.UTC(year, month - 1, day, 23, 59, 59)).toISOString();

  const f = full!;
  const [hour, minute, second] = [Number(f[4]), Number(f[5]), Number(f[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) throw new UsageError(`${flag} is not a real time of day: ${JSON.stringify(text)}`);
  if (!f[8] && !f[9]) {
    throw new UsageError(`${flag} needs a time zone: add Z for UTC or an offset like +02:00, as in ${JSON.stringify(`${value}Z`)}`);
  }
  let offsetMinutes = 0;
  if (f[9]) {
    const [oh, om] = [Number(f[10]), Number(f[11])];
    if (oh > 14 || om > 59 || (oh === 14 && om > 0)) throw new UsageError(`${flag} has an impossible time zone offset: ${JSON.stringify(text)}`);
    offsetMinutes = (f[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = f[7] ? Number(f[7].slice(0, 3).padEnd(3, '0')) : 0;
  const instant = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  const utcYear = new Date(instant).getUTCFullYear();
  if (utcYear < MIN_YEAR || utcYear > MAX_YEAR) throw new UsageError(`${flag} must have a year from ${MIN_YEAR} to ${MAX_YEAR}, not ${JSON.stringify(text)}`);
  return new Date(instant).toISOString();
}
