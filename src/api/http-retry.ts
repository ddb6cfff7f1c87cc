// When to try a request again, and how long to wait first (D30). Pure functions so the
// policy is tested on its own; http.ts applies it.

import type { Method } from './http-types.js';
import { PROXY_AUTH, PROXY_DENIED } from './proxy-env.js';

/** D30: the most a single wait may last, whatever Retry-After says. */
export const MAX_WAIT_MS = 60_000;
const BASE_MS = 250;
const MAX_BACKOFF_MS = 8_000;

/**
 * GET may be repeated on any of these. A write only on 429: the server refused before
 * acting. A 5xx on a write may come after the server acted (a repeated extend-trial
 * would be refused, a repeated delete would be 404), so it is reported instead.
 */
export function isRetryableStatus(method: Method, status: number): boolean {
  if (status === 429) return true;
  return method === 'GET' && (status === 502 || status === 503 || status === 504);
}

/**
 * Failures that trying again cannot fix: a wrong host name, a certificate problem, a
 * proxy that refused the tunnel or its user and password (trying those again could
 * lock a directory account).
 */
function isPermanent(code: string): boolean {
  if (code === 'ENOTFOUND' || code === PROXY_AUTH || code === PROXY_DENIED) return true;
  return /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_TLS_|^ERR_SSL_/.test(code);
}

/**
 * A connection failure is safe to repeat for GET; for a write only when no byte of the
 * request went out (refused, unreachable). Our own --timeout is never repeated: it is
 * the user's budget for the request, and a write may have reached the server.
 */
export function isRetryableFailure(method: Method, failure: { sent: boolean; code: string }): boolean {
  if (isPermanent(failure.code)) return false;
  return method === 'GET' || !failure.sent;
}

/** Exponential backoff with jitter: 250 ms × 2^n (at most 8 s), from half to all of it. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_MS * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * D30, the one policy of single commands and batches for a request the server refused
 * (429, or 502-504 for GET): after `retry` retries, how long to wait before sending it
 * again. The server's Retry-After (`retryAfterMs`) when it gave one, else the backoff;
 * nothing when the retries are used up, nor when Retry-After asks for more than 60 s
 * (`tooLong`): no command waits that out, it stops and says when to retry.
 */
export function nextAttempt(
  retry: number,
  maxRetries: number,
  retryAfterMs: number | undefined,
  random?: () => number,
): { waitMs: number } | { waitMs: undefined; tooLong: boolean } {
  const tooLong = retryAfterMs !== undefined && retryAfterMs > MAX_WAIT_MS;
  if (tooLong || retry >= maxRetries) return { waitMs: undefined, tooLong };
  return { waitMs: retryAfterMs ?? backoffMs(retry, random) };
}

/** The wait before the next attempt: the server's word when it gave one, capped at 60 s. */
export function waitMs(retry: number, retryAfterHeader: string | undefined, random?: () => number): number {
  const server = parseRetryAfter(retryAfterHeader);
  return Math.min(MAX_WAIT_MS, server ?? backoffMs(retry, random));
}

/**
 * A wait in words, to the nearest unit that matters: "45 s", "12 min", "3 h 20 min",
 * "2 d 4 h"; anything past a year (a Retry-After of 1e23 s) is "more than a year".
 */
export function humanWait(ms: number): string {
  const total = Math.ceil(ms / 1000);
  if (!Number.isFinite(total) || total > 365 * 86_400) return 'more than a year';
  if (total < 60) return `${total} s`;
  const minutes = Math.ceil(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
