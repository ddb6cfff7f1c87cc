// What a mutation says when it succeeded, once for a single run and for each record of
// a batch: on a TTY `✔ <Kind> <Uid>: Field=value, …` (the fields sent, with the values
// the server's answer holds, or as sent when the answer is a string or empty; `✔ <Kind>
// <Uid> <done>` when nothing was sent but the target), piped `<uid>\tok\t<Field=value;…>`
// (or the done word). A change that changed nothing shows the reason's words instead
// (`already ended`, and in a batch the server's note after them), one that cannot tell
// `done` (D32: verdict.ts). A batch's failures: `✘ <uid> <message>` and
// `<uid>\t<status>|invalid\t<message>`; with --jsonl one JSON object a line, with --json
// one streamed array. Then the summary, counting what changed apart from what did not.

import type { Context } from '../context.js';
import type { BoError } from '../errors.js';
import { jqOutcomeWriter } from './jq-outcomes.js';
import { jsonStream } from '../output/json-stream.js';
import { neutralise } from '../api/neutralise.js';
import { outputMode } from '../output/print.js';
import { ChunkWriter } from '../output/sink.js';
import { localTimesIn } from '../output/time.js';
import { style } from '../output/style.js';
import { symbols } from '../output/symbols.js';
import { jsonText } from '../api/neutralise.js';
import { redactJson } from '../api/redact.js';
import type { BoundMutation, MutationRequest, Reason, Verdict } from './types.js';
import { REASON_WORDS } from './verdict.js';

/** What a success line of the verb shows for one target, its request, the server's answer and its verdict (D32). */
export function doneOf<Prep>({ def, args }: BoundMutation<Prep>, target: string, prep: Prep, request: MutationRequest, answer: unknown, verdict: Verdict): Done {
  const noun = def.kind ?? `${def.target.noun.charAt(0).toUpperCase()}${def.target.noun.slice(1)}`;
  return {
    kind: noun,
    uid: def.shownUid ? def.shownUid(target, prep, answer, args) : target,
    done: doneWord(def, prep),
    fields: doneFields(def.shown ? def.shown(target, prep, args) : request.body, answer),
    ...verdict,
    ...(def.neutral === undefined ? {} : { neutral: def.neutral }),
  };
}

/** The verb's past tense for its outcomes and summary: 'expired' (its flags' preparation may choose). */
export function doneWord<Prep>(def: Pick<BoundMutation<Prep>['def'], 'done'>, prep: Prep | undefined): string {
  return typeof def.done === 'string' ? def.done : def.done(prep);
}

/** A change that succeeded: what it was made to, the fields it set, and whether it changed anything (D32). */
export interface Done {
  /** `Account`, `Subscription add-on`, … */
  kind: string;
  /** The Uid shown (the target, or what the answer names: a new list's Uid). */
  uid: string;
  /** Past tense, shown when no field was sent and it changed: `expired`. */
  done: string;
  fields: Array<[string, unknown]>;
  changed: boolean | null;
  reason: Reason | null;
  /** The word when the answer cannot tell (default `done`). */
  neutral?: string;
  /** What the line cannot say (the verb's note), shown after it in a batch, where there is no note of its own. */
  note?: string;
}

/** What a success line says in place of fields: the verb's word, the reason's words (nothing changed), or a neutral word (not known). */
export function outcomeWord(d: Pick<Done, 'done' | 'changed' | 'reason' | 'neutral'>): string {
  if (d.changed === false) return d.reason ? REASON_WORDS[d.reason] : 'unchanged';
  if (d.changed === null) return d.neutral ?? 'done';
  return d.done;
}

/**
 * The fields sent, each with the value the server's answer holds for it when the answer
 * is a record that has it, else as sent. Secret-named fields are never shown.
 */
export function doneFields(sent: unknown, answer: unknown): Array<[string, unknown]> {
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
  const record = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : undefined;
  const shown = redactJson(sent) as Record<string, unknown>;
  const held = record === undefined ? undefined : (redactJson(record) as Record<string, unknown>);
  return Object.entries(shown)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, held !== undefined && Object.hasOwn(held, name) ? held[name] : value]);
}

/** A field's value in one cell: text as is, a reference by its Uid, anything else as compact JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { Uid?: unknown }).Uid === 'string') {
    return (value as { Uid: string }).Uid;
  }
  return jsonText(value);
}

/** On a terminal a long value (an email body) is cut to this many characters; piped, never. */
const TTY_VALUE_MAX = 60;

/**
 * The success line, without its mark (the caller colours that): `Account acc_1: ToDate=…`
 * or, piped, `acc_1\tok\tToDate=…`. `ellipsis`: what a value cut on a terminal ends with.
 */
export function doneText(d: Done, tty: boolean, ellipsis = '…'): string {
  const uid = neutralise(d.uid);
  // Nothing changed: the fields were not set, the reason is what the line says (D32).
  const fields = d.changed === false ? [] : d.fields;
  // On a terminal an instant it quotes is local, as a single run's note shows it (print.ts).
  const note = d.note ? ` (${neutralise(tty ? localTimesIn(d.note) : d.note)})` : '';
  if (!tty) {
    const shown = fields.map(([k, v]) => `${k}=${neutralise(valueText(v))}`).join(';');
    return `${uid}\tok\t${shown || neutralise(outcomeWord(d))}${note}`;
  }
  if (fields.length === 0) return `${d.kind} ${uid} ${outcomeWord(d)}${note}`;
  const cut = (text: string) => {
    const chars = [...text];
    return chars.length > TTY_VALUE_MAX ? `${chars.slice(0, TTY_VALUE_MAX - 1).join('')}${ellipsis}` : text;
  };
  // Date-times local with their zone, as the tables show them; piped, as the API wrote them.
  return `${d.kind} ${uid}: ${fields.map(([k, v]) => `${k}=${neutralise(cut(localTimesIn(valueText(v))))}`).join(', ')}${note}`;
}

/** The success line as written to stdout, mark and colour included on a TTY. */
export function doneLine(ctx: Context, d: Done): string {
  if (!ctx.io.stdoutIsTTY) return `${doneText(d, false)}\n`;
  const marks = symbols(ctx.io.env);
  return `${style(ctx.globals.color).green(marks.ok)} ${doneText(d, true, marks.ellipsis)}\n`;
}

export interface Outcome {
  /** The target; null for a line that holds none (shown as `-` in text). */
  uid: string | null;
  /** A line that holds no target: its text, neutralised and cut (records.ts). */
  input?: string;
  line: number;
  ok: boolean;
  /** HTTP status when there was an answer; null otherwise. */
  status: number | null;
  /** Whether it changed anything (D32): true, false with a reason, null when not known. */
  changed: boolean | null;
  reason: Reason | null;
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
  /** `done`: what a successful record changed (unused for a failure). */
  write(outcome: Outcome, done?: Done): Promise<void>;
  end(): Promise<void>;
  /**
   * The --jq error (code `jq`) after which the filter took no more outcomes: they went
   * to stderr as bo's own JSON lines (jq-outcomes.ts), and the batch stops sending.
   */
  readonly jqFailure?: BoError;
}

/**
 * `until`: the batch's requests signal. Outcomes are written after Ctrl-C too (the
 * interrupted ones), but once it aborts none waits for a reader that stopped reading.
 */
export function outcomeWriter(ctx: Context, until: AbortSignal): OutcomeWriter {
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') {
    if (ctx.jq) return jqOutcomeWriter<Outcome>(ctx, mode, until);
    const out = jsonStream(ctx, mode, { until, afterAbort: true });
    return { write: (o) => out.write(o), end: () => out.end() };
  }
  const tty = ctx.io.stdoutIsTTY;
  // Under a non-UTF-8 locale the marks fall back to ASCII.
  const { fail: failMark } = symbols(ctx.io.env);
  const { red } = style(ctx.globals.color);
  const out = new ChunkWriter(ctx.io.stdout, until, { afterAbort: true });
  return {
    async write(o, done) {
      if (o.ok) return out.write(doneLine(ctx, done ?? { kind: '', uid: o.uid ?? '-', done: 'ok', fields: [], changed: o.changed, reason: o.reason }));
      const uid = neutralise(o.uid ?? '-');
      const message = neutralise(o.error?.message ?? 'failed');
      if (tty) return out.write(`${red(failMark)} ${uid} ${message}\n`);
      const field = o.error?.code === 'invalid' ? 'invalid' : String(o.status ?? o.error?.code ?? 'failed');
      return out.write(`${uid}\t${field}\t${message}\n`);
    },
    async end() {},
  };
}

export type Tally = Record<OutcomeKind, number> & {
  /** The successes by verdict (D32): changed, not known, and unchanged by reason. */
  changed: number;
  notKnown: number;
  unchanged: Map<Reason | null, number>;
};

export function emptyTally(): Tally {
  return { done: 0, notFound: 0, invalid: 0, failed: 0, interrupted: 0, changed: 0, notKnown: 0, unchanged: new Map() };
}

/** Counts one outcome. */
export function tallied(tally: Tally, o: Outcome): void {
  const kind = kindOf(o);
  tally[kind]++;
  if (kind !== 'done') return;
  if (o.changed === true) tally.changed++;
  else if (o.changed === null) tally.notKnown++;
  else tally.unchanged.set(o.reason, (tally.unchanged.get(o.reason) ?? 0) + 1);
}

/**
 * `198 expired, 1 already ended, 1 not found, 1 failed on https://acme.example.com (profile
 * default)`: the successes by what they did (D32: changed with the verb's word, unchanged
 * with the reason's words, not known as `done`). The counts add up to the records read;
 * `unread`: the batch stopped before the end of stdin, whose rest is not read just to count it.
 */
export function summaryLine(
  tally: Tally,
  words: { done: string; neutral?: string },
  where: { profile: string; origin: string },
  notAttempted = 0,
  unread = false,
): string {
  const parts: string[] = [];
  if (tally.changed || tally.done === 0) parts.push(`${tally.changed} ${words.done}`);
  for (const [reason, n] of tally.unchanged) parts.push(`${n} ${outcomeWord({ done: words.done, changed: false, reason })}`);
  if (tally.notKnown) parts.push(`${tally.notKnown} ${words.neutral ?? 'done'}`);
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
