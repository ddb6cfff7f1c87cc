// An instant as a terminal shows it, in this test process's own zone, computed with
// Intl rather than bo's code (src/output/time.ts), so that a test compares two
// independent readings: `2030-07-01 08:59:59 (UTC+09:00)` under TZ=Asia/Tokyo.

/** `UTC+09:00` for the process's zone at `iso` (Intl says `GMT+09:00`, and `GMT` for UTC). */
export function zoneAt(iso: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'longOffset' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')!.value;
  return name === 'GMT' ? 'UTC+00:00' : name.replace('GMT', 'UTC');
}

/** `YYYY-MM-DD HH:MM[:SS]` local: seconds when asked for and not 0. */
export function localText(iso: string, seconds = false): string {
  const d = new Date(iso);
  const text = d.toLocaleString('sv-SE', { hour12: false }); // 2030-06-30 23:59:59
  return seconds && d.getSeconds() !== 0 ? text : text.slice(0, 16);
}

/** A date-time in running text (a ✔ line, a note): local, seconds kept, its zone after it. */
export function shownInText(iso: string): string {
  return `${localText(iso, true)} (${zoneAt(iso)})`;
}
