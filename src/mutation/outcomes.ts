// One line on stdout per batch record as it completes, in the form the user asked for:
// `✔ <uid> expired` on a TTY, `<uid>\tok|<status>|invalid\t<message>` when piped, one
// JSON object a line with --jsonl, one streamed array with --json. Then the summary.

import type { Context } from '../context.js';
import { sanitize } from '../output/print.js';
import { symbols } from '../output/symbols.js';
import { jsonText } from '../api/neutralise.js';
import { writeQueued } from '../output/sink.js';

export interface Outcome {
  /** The target, or '-' for a malformed line. */
  uid: string;
  line: number;
  ok: boolean;
  /** HTTP status when there was an answer; null otherwise. */
  status: number | null;
  error: { code: string; message: string } | null;
}

export type OutcomeKind = 'done' | 'notFound' | 'invalid' | 'failed' | 'interrupted';

export function kindOf(o: Outcome): OutcomeKind {
  if (o.ok) return 'done';
  if (o.status === 404) return 'notFound';
  if (o.error?.code === 'invalid') return 'invalid';
  if (o.error?.code === 'interrupted') return 'interrupted';
  return 'failed';
}

export interface OutcomeWriter {
  write(outcome: Outcome, doneText: string): Promise<void>;
  end(): Promise<void>;
}

/**
 * `until`: the batch's requests signal. Outcomes are written after Ctrl-C too (the
 * interrupted ones), but once it aborts none waits for a reader that stopped reading.
 */
export function outcomeWriter(ctx: Context, until: AbortSignal): OutcomeWriter {
  const { json, jsonl } = ctx.globals;
  const tty = ctx.io.stdoutIsTTY && !json && !jsonl;
  // Under a non-UTF-8 locale the marks fall back to ASCII.
  const { ok: okMark, fail: failMark } = symbols(ctx.io.env);
  const green = (s: string) => (ctx.globals.color ? `\u001b[32m${s}\u001b[39m` : s);
  const red = (s: string) => (ctx.globals.color ? `\u001b[31m${s}\u001b[39m` : s);
  let count = 0;
  const out = (text: string) => writeQueued(ctx.io.stdout, text, until);
  return {
    async write(o, doneText) {
      count++;
      if (json) return out(`${count === 1 ? '[\n' : ',\n'}${jsonText(o)}`);
      if (jsonl) return out(`${jsonText(o)}\n`);
      const message = sanitize(o.ok ? doneText : (o.error?.message ?? 'failed'));
      if (tty) return out(o.ok ? `${green(okMark)} ${sanitize(o.uid)} ${message}\n` : `${red(failMark)} ${sanitize(o.uid)} ${message}\n`);
      const field = o.ok ? 'ok' : o.error?.code === 'invalid' ? 'invalid' : String(o.status ?? o.error?.code ?? 'failed');
      return out(`${sanitize(o.uid)}\t${field}\t${message}\n`);
    },
    async end() {
      if (json) await out(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

export type Tally = Record<OutcomeKind, number>;

export function emptyTally(): Tally {
  return { done: 0, notFound: 0, invalid: 0, failed: 0, interrupted: 0 };
}

/**
 * `198 expired, 1 not found, 1 failed on https://acme.example.com (profile default)`.
 * The counts add up to the records read; `unread`: the batch stopped before the end of
 * stdin, whose rest is not read just to count it.
 */
export function summaryLine(
  tally: Tally,
  done: string,
  where: { profile: string; origin: string },
  notAttempted = 0,
  unread = false,
): string {
  const parts = [`${tally.done} ${done}`];
  if (tally.notFound) parts.push(`${tally.notFound} not found`);
  if (tally.invalid) parts.push(`${tally.invalid} invalid`);
  if (tally.failed) parts.push(`${tally.failed} failed`);
  if (tally.interrupted) parts.push(`${tally.interrupted} interrupted (outcome unknown)`);
  if (notAttempted) parts.push(`${notAttempted} not attempted`);
  return `${parts.join(', ')} on ${where.origin} (profile ${where.profile})${unread ? '; the rest of stdin was not read' : ''}`;
}

/** What a stopped batch left: `3 record(s) not attempted, the rest of stdin not read`. */
export function leftText(notAttempted: number, unread: boolean): string {
  const parts = notAttempted || !unread ? [`${notAttempted} record(s) not attempted`] : [];
  if (unread) parts.push('the rest of stdin not read');
  return parts.join(', ');
}
