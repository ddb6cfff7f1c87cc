/**
 * A count with comma thousands separators, as toLocaleString('en-US') writes it, but
 * without it: its first call loads the ICU locale data, ~10 ms of every list command's
 * start-up (measured on Node 20, test/bench/run.mjs).
 */
export function groupDigits(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
