// Date-times on a terminal: local time, and always the zone it is in, as an offset
// from UTC, so that `2031-01-16 08:59` is never read without `UTC+09:00` next to it
// (an admin in Tokyo and one in London must not read the same instant as two days).
// A table names the zone once, in a date column's header; a cell whose offset is not
// the header's (the rows span a daylight-saving change) carries its own; running text
// (the ✔ lines of a mutation, the server's notes) carries it after each date-time.
// Piped, CSV and JSON output never come here: they keep the API's ISO 8601 text.

/** The start of an ISO 8601 date-time: a value the table shows as local time. */
export const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM` in local time; `seconds`: `HH:MM:SS` when they are not 0 (the instant a mutation sent). */
export function localDate(d: Date, seconds = false): string {
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds && d.getSeconds() !== 0 ? `:${pad(d.getSeconds())}` : ''}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** The local zone at `d` as an offset: `UTC+09:00`, `UTC-03:30`, `UTC+00:00`. */
export function zoneOf(d: Date): string {
  const minutes = -d.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** A date from API text, or undefined when the text is not a date-time. */
export function dateOf(text: string): Date | undefined {
  if (!ISO_DATE_TIME.test(text)) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const LOCAL_DATE = /^(\d{4}-\d\d-\d\d) \d\d:\d\d( \(UTC[+-]\d\d:\d\d\))?$/;

/** A date cell without its time (its own zone kept), for a table too wide for the terminal. */
export function shortDate(cell: string): string {
  const m = LOCAL_DATE.exec(cell);
  return m ? `${m[1]}${m[2] ?? ''}` : cell;
}

/**
 * The dates of one table column: the first date shown fixes the zone its header names
 * (`Created (UTC+09:00)`); a later date in another offset (across a daylight-saving
 * change) is suffixed with its own, so no cell is read in the wrong zone.
 */
export class DateColumn {
  private zone: string | undefined;

  cell(d: Date): string {
    const zone = zoneOf(d);
    this.zone ??= zone;
    return zone === this.zone ? localDate(d) : `${localDate(d)} (${zone})`;
  }

  /** What the header ends with: ` (UTC+09:00)`, the zone of its dates; nothing when it showed none. */
  headerSuffix(): string {
    return this.zone === undefined ? '' : ` (${this.zone})`;
  }
}

/** One date-time in running text or a record view's row: `2031-01-16 08:59:59 (UTC+09:00)`. */
export function localDateTime(d: Date): string {
  return `${localDate(d, true)} (${zoneOf(d)})`;
}

/** An ISO 8601 date-time with its zone (Z or an offset), fractions of a second allowed. */
const ISO_IN_TEXT = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)(?![\w:])/g;

/**
 * Text for a terminal with every ISO date-time in it as local time and its offset
 * (`Add-on already ended at 2026-11-28 13:19:18 (UTC+09:00)`). A date-time without a
 * zone is left as it is: which zone it means is unknown.
 */
export function localTimesIn(text: string): string {
  return text.replace(ISO_IN_TEXT, (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : localDateTime(d);
  });
}
