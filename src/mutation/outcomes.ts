// One line on stdout per batch record as it completes, in the form the user asked for:
// `✔ <uid> expired` on a TTY, `<uid>\tok|<status>|invalid\t<message>` when piped, one
// JSON object a line with --jsonl, one streamed array with --json. Then the summary.

import type { Context } from '../context.js';
import { jsonStream } from '../output/json-stream.js';
import { neutralise } from '../api/neutralise.js';
import { outputMode } from '../output/print.js';
import { ChunkWriter } from '../output/sink.js';
import { style } from '../output/style.js';
import { symbols } from '../output/symbols.js';

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
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') {
    const out = jsonStream(ctx, mode, { until, afterAbort: true });
    return { write: (o) => out.write(o), end: () => out.end() };
  }
  const tty = ctx.io.stdoutIsTTY;
  // Under a non-UTF-8 locale the marks fall back to ASCII.
  const { ok: okMark, fail: failMark } = symbols(ctx.io.env);
  const { green, red } = style(ctx.globals.color);
  const out = new ChunkWriter(ctx.io.stdout, until, { afterAbort: true });
  return {
    async write(o, doneText) {
      const message = neutralise(o.ok ? doneText : (o.error?.message ?? 'failed'));
      if (tty) return out.write(o.ok ? `${green(okMark)} ${neutralise(o.uid)} ${message}\n` : `${red(failMark)} ${neutralise(o.uid)} ${message}\n`);
      const field = o.ok ? 'ok' : o.error?.code === 'invalid' ? 'invalid' : String(o.status ?? o.error?.code ?? 'failed');
      return out.write(`${neutralise(o.uid)}\t${field}\t${message}\n`);
    },
    async end() {},
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
