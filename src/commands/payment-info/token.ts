// The checks of `bo payment-info update`: the token (read from stdin with `-`, and
// never a card number), the last four digits and the expiry year. Messages never
// quote the token.
import type { Context } from '../../context.js';
import { readFirstLine } from '../../input/read-text.js';
import { UsageError } from '../../errors.js';

/** 12-19 digits, possibly grouped by spaces or dashes, passing the Luhn check. */
export function looksLikeCardNumber(text: string): boolean {
  if (!/^[\d -]+$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export async function readPaymentToken(ctx: Context, flag: string): Promise<string> {
  const fromStdin = flag === '-';
  if (fromStdin && ctx.io.stdinIsTTY) {
    throw new UsageError('--payment-token - reads the token from stdin, but stdin is a terminal: pipe the token in');
  }
  const value = (fromStdin ? await readFirstLine('--payment-token', ctx.io.stdin) : flag).trim();
  const where = fromStdin ? '--payment-token (read from stdin)' : '--payment-token';
  if (value === '') throw new UsageError(`${where} must not be empty`);
  if (looksLikeCardNumber(value)) {
    throw new UsageError(`${where} looks like a card number: only a payment provider's token is accepted, never a card number`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${where} must be a token without spaces or control characters`);
  return value;
}

export function checkLast4(text: string): string {
  if (!/^\d{4}$/.test(text)) throw new UsageError(`--last4 must be exactly 4 digits, not ${JSON.stringify(text)}`);
  return text;
}

export function checkYear(text: string): number {
  if (!/^\d{4}$/.test(text)) throw new UsageError(`--exp-year must be a four-digit year, not ${JSON.stringify(text)}`);
  return Number(text);
}

export function checkYearNotPast(year: number, now: Date): void {
  if (year < now.getUTCFullYear()) throw new UsageError(`--exp-year ${year} is in the past`);
}

/** A month of the current year that has already ended is refused too. */
export function checkNotExpired(month: number, year: number, now: Date): void {
  if (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1) {
    throw new UsageError(`--exp-month ${month} with --exp-year ${year} is in the past`);
  }
}
