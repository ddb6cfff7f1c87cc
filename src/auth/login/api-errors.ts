// Reading the two-factor refusals of §7 off whatever the HTTP core threw. The client
// does not depend on the sandbox's error shape (D6): status first, then the code from
// the error object or the body.

import { BoError, RateLimitedError } from '../../errors.js';

export function statusOf(err: unknown): number | undefined {
  return err instanceof BoError ? err.status : undefined;
}

export function codeOf(err: unknown): string | undefined {
  if (!(err instanceof BoError)) return undefined;
  if (err.code) return err.code;
  const body = (err as { body?: unknown }).body;
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    return (body as { error: string }).error;
  }
  return undefined;
}

/** 400 invalid_grant: a wrong password, code or recovery code. */
export function isInvalidGrant(err: unknown): boolean {
  return statusOf(err) === 400 && (codeOf(err) === 'invalid_grant' || codeOf(err) === undefined);
}

export function isRateLimited(err: unknown): boolean {
  return err instanceof RateLimitedError || statusOf(err) === 429;
}

/** Seconds to wait from Retry-After (seconds or an HTTP date); a minute when absent (§7). */
export function retryAfterSeconds(err: unknown, now: Date): number {
  if (err instanceof RateLimitedError && err.retryAfter !== undefined) return Math.max(1, Math.ceil(err.retryAfter));
  const header = (err as { headers?: Record<string, string> }).headers?.['retry-after'];
  if (header !== undefined) {
    const n = Number(header);
    if (Number.isFinite(n)) return Math.max(1, Math.ceil(n));
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
  }
  return 60;
}
