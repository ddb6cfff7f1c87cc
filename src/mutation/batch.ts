// A `-` batch: records streamed from stdin through one HttpClient (one keep-alive pool)
// with at most `concurrency` requests in flight. A 429 pauses the whole batch for its
// Retry-After (D30, the policy of single commands: a longer one stops it); a 401/403
// stops it, since every later record would fail too; Ctrl-C (SIGTERM, SIGHUP), a
// closed stdout and one that cannot be written (a full disk: exit 1, code `output`)
// stop sending and report what was in flight. Each outcome is printed as it completes;
// the summary goes to stderr, its counts adding up to the records read, also when an
// outcome could not be written.

import { setMaxListeners } from 'node:events';
import type { Context } from '../context.js';
import type { ApiResponse, HttpClient } from '../api/http-types.js';
import { nextAttempt } from '../api/http-retry.js';
import { AuthError, BoError, InterruptedError, OutputClosedError, OutputError, RateLimitedError } from '../errors.js';
import { say } from '../output/print.js';
import type { Where } from './confirm.js';
import { recordFeed, type InputRules } from './feed.js';
import { doneOf, doneWord, emptyTally, leftText, outcomeWriter, summaryLine, tallied, type Done, type Outcome, type OutcomeWriter, type Tally } from './outcomes.js';
import { failureVerdict, UNKNOWN } from './verdict.js';
import { startProgress } from '../output/progress.js';
import type { Preparation } from './prepare.js';
import type { BoundMutation, ResumeOrder, Verdict } from './types.js';
import { journaled, JournalWriteError, type RunJournal } from '../journal/open.js';
import { runPipeline, type Ready } from './pipeline.js';
import { outcomesFile, type OutcomesFile } from './outcomes-file.js';
import { diffOf, diffText, type Diff } from './diff.js';
import { symbols } from '../output/symbols.js';

/** Listeners on the batch's own signal: one for each record waiting out a 429 (at most 16) and the feed's. */
const HALT_LISTENERS = 64;

export interface BatchOptions {
  concurrency: number;
  failFast: boolean;
  requests: AbortSignal;
  /** The run's journal: an entry before each request, its outcome after. */
  journal?: RunJournal;
  /** `bo batch resume`: what the interrupted run's journal knows, line by line. */
  resume?: ResumeOrder;
  /** How stdin is read: --input-format, --only. */
  input?: InputRules;
  /** --outcomes: the file of one row per input row. */
  outcomes?: string;
  /** --diff: each target read first (diff.ts), its changes on stderr, a record whose values hold not sent. */
  diff?: boolean;
}

/** Why a batch stopped sending before its input ended. */
type StopReason = 'auth' | 'failFast' | 'rateLimited' | 'jq' | 'journal';

/**
 * Where a batch stands, in one object: what its outcomes came to, what it did not send,
 * why it stopped (the first reason), and the records its resume did not send again.
 */
class BatchState {
  readonly tally: Tally = emptyTally();
  notAttempted = 0;
  reported = 0;
  stop: { why: StopReason; error?: BoError } | undefined;
  /** An outcome that could not be written: the batch stops sending and ends with it. */
  writeFailure: { error: unknown } | undefined;
  /** Every sender waits until then: the server asked the batch to slow down (429). */
  pausedUntil = 0;
  /** Resumed: the records the run's journal knew the outcome of. */
  readonly already = { done: 0, failed: 0 };
  /** Aborted when the batch stops sending: the run's stop (a signal, a closed stdout) or its own. */
  readonly halt = new AbortController();

  constructor() {
    setMaxListeners(HALT_LISTENERS, this.halt.signal);
  }

  stopWith(why: StopReason, error?: BoError): void {
    this.stop ??= { why, error };
    this.halt.abort();
  }
}

/** A batch's parts, for the functions that send its records. */
interface BatchRun<Prep> {
  ctx: Context;
  m: BoundMutation<Prep>;
  client: HttpClient;
  options: BatchOptions;
  state: BatchState;
  report: (o: Outcome, done?: Done) => Promise<void>;
}

export async function runBatch<Prep>(ctx: Context, m: BoundMutation<Prep>, preparation: Preparation<Prep>, client: HttpClient, where: Where, options: BatchOptions): Promise<void> {
  const state = new BatchState();
  const writer = outcomeWriter(ctx, options.requests);
  // Records from stdin: no total, so done and rate only.
  const progress = startProgress({ io: ctx.io, clock: ctx.clock, verbose: ctx.globals.verbose });
  const onRunStop = () => state.halt.abort();
  if (ctx.signal.aborted) state.halt.abort();
  else ctx.signal.addEventListener('abort', onRunStop, { once: true });

  const writing = async (write: () => Promise<void>) => {
    if (state.writeFailure) return;
    try {
      await write();
    } catch (error) {
      state.writeFailure = { error };
      state.halt.abort();
    }
  };
  let outcomes: OutcomesFile | undefined;
  const report = async (o: Outcome, done?: Done) => {
    tallied(state.tally, o);
    outcomes?.reported(o);
    if (!o.ok && options.failFast && !ctx.signal.aborted) state.stopWith('failFast');
    await writing(() => writer.write(o, done));
    // --jq failed: sending stops, what was sent is still reported (outcomes.ts OutcomeWriter).
    if (writer.jqFailure) state.stopWith('jq', writer.jqFailure);
    progress.update(++state.reported);
  };
  const run: BatchRun<Prep> = { ctx, m, client, options, state, report };
  if (options.diff && !m.def.current) say(ctx, `--diff: a ${m.def.target.noun} cannot be read before a change, so each is sent without one`);

  const inFlight = new Set<Promise<void>>();
  /** Sends one record once fewer than `concurrency` are in flight; false once the batch stopped sending. */
  const take = async (rec: Ready<Prep>): Promise<boolean> => {
    while (inFlight.size >= options.concurrency && !state.halt.signal.aborted) await Promise.race(inFlight);
    if (state.halt.signal.aborted) return false;
    const p: Promise<void> = sendRecord(run, rec).finally(() => inFlight.delete(p));
    inFlight.add(p);
    return true;
  };

  const read = recordFeed(ctx, m.def, state.halt.signal, options.input);
  // --outcomes: each record read takes its row; each outcome fills it in.
  const sheet = options.outcomes === undefined ? undefined : outcomesFile(options.outcomes, read, m.def.fields ?? []);
  const feed = sheet?.feed ?? read;
  outcomes = sheet?.file;
  try {
    const end = await runPipeline(feed, preparation, options.resume && { order: options.resume, resend: m.def.resend }, {
      invalid: (r) => report({ uid: r.uid, ...(r.input === undefined ? {} : { input: r.input }), line: r.line, ok: false, status: null, ...failureVerdict(null, false), error: { code: 'invalid', message: r.message } }),
      known: (line, outcome) => {
        outcomes?.known(line, outcome, options.resume!.run);
        state.already[outcome === 'done' ? 'done' : 'failed']++;
      },
      take,
    });
    state.notAttempted += end.notTaken;
    // Stopped: stdin is let go now, not when what is in flight has answered.
    feed.close();
    await Promise.all(inFlight);
  } finally {
    feed.close();
    outcomes?.end();
    ctx.signal.removeEventListener('abort', onRunStop);
    progress.end();
    await writing(() => writer.end());
  }

  const unread = !feed.complete;
  options.journal?.left(state.notAttempted, unread, state.tally.unchanged.get('already-holds') ?? 0);
  const words = { done: doneWord(m.def, preparation.once), ...(m.def.neutral === undefined ? {} : { neutral: m.def.neutral }) };
  say(ctx, summaryLine(state.tally, words, where, state.notAttempted, unread));
  const resume = options.resume;
  if (resume && state.already.done + state.already.failed > 0) {
    say(ctx, `run ${resume.run}: ${state.already.done} done and ${state.already.failed} failed before, not sent again`);
  }
  finish(ctx, state, writer, leftText(state.notAttempted, unread));
}

/** The batch's end as an error, when it is one: the first of what stopped it, or the records that failed. */
function finish(ctx: Context, state: BatchState, writer: OutcomeWriter, left: string): void {
  const { stop, tally } = state;
  if (state.writeFailure) throw state.writeFailure.error;
  if (ctx.signal.aborted) {
    if (ctx.signal.reason instanceof OutputError) {
      throw new OutputError(`${ctx.signal.reason.message}, so the batch stopped sending; ${left}`, { cause: ctx.signal.reason.cause });
    }
    if (ctx.signal.reason instanceof OutputClosedError) {
      throw new OutputClosedError(`stdout was closed, so the batch stopped sending; ${left}`);
    }
    // Only when some request was still open does an outcome stay unknown.
    throw new InterruptedError(
      tally.interrupted > 0 ? `interrupted; requests still in flight were reported with an unknown outcome` : 'interrupted; nothing was in flight',
    );
  }
  if (stop?.why === 'journal' && stop.error) throw new BoError(`batch stopped: ${stop.error.message}; ${left}`, { code: 'journal' });
  if (stop?.why === 'auth' && stop.error) {
    const e = stop.error;
    throw new AuthError(`batch stopped: ${e.message}; ${left}`, { status: e.status, code: e.code, hint: e.hint });
  }
  if (stop?.why === 'rateLimited' && stop.error) {
    const e = stop.error;
    throw new RateLimitedError(`batch stopped: ${e.message}; ${left}`, {
      status: 429,
      code: e.code,
      serverCode: e.serverCode,
      retryAfter: e instanceof RateLimitedError ? e.retryAfter : undefined,
    });
  }
  // (--json: jq runs at the end, so it may fail with nothing left to stop.)
  if (writer.jqFailure) {
    const sending = stop?.why === 'jq' ? `batch stopped: ${left}; ` : '';
    throw new BoError(`${writer.jqFailure.message}; ${sending}the outcomes --jq could not take are on stderr`, { code: 'jq' });
  }
  // Resumed, the run is one batch: its records that failed before still failed.
  const failed = tally.notFound + tally.invalid + tally.failed + tally.interrupted + state.already.failed;
  if (failed > 0) {
    const total = failed + tally.done + state.already.done;
    throw new BoError(`${failed} of ${total} record(s) failed${stop?.why === 'failFast' ? '; stopped at the first failure (--fail-fast)' : ''}`, {
      code: 'batch_failed',
    });
  }
}

/** A refusal as a record's outcome. */
function refused(base: { uid: string; line: number }, e: BoError): Outcome {
  return { ...base, ok: false, status: e.status ?? null, ...failureVerdict(e.status), error: { code: e.code ?? 'failed', message: e.status === 404 ? 'not found' : e.message } };
}

/** Every sender waits here while the server asked the batch to slow down; throws once the batch stops. */
async function gate({ ctx, state }: BatchRun<unknown>): Promise<void> {
  if (state.halt.signal.aborted) throw new InterruptedError();
  for (let now = ctx.clock.now().getTime(); now < state.pausedUntil; now = ctx.clock.now().getTime()) {
    await ctx.clock.sleep(state.pausedUntil - now, state.halt.signal);
  }
}

/** One record: held (its earlier sending's outcome unknown), found in place already, or sent (429s waited out with the whole batch). */
async function sendRecord<Prep>(run: BatchRun<Prep>, rec: Ready<Prep>): Promise<void> {
  const { state, report } = run;
  const base = { uid: rec.target, line: rec.line };
  if (rec.step === 'hold') {
    return await report({ ...base, ok: false, status: null, ...UNKNOWN, error: { code: 'interrupted', message: UNKNOWN_HELD } });
  }
  if (rec.step === 'check') {
    try {
      await gate(run as BatchRun<unknown>);
      if (await inPlace(run, rec.target, rec.prep)) {
        // In place, but whether this run's earlier sending put it there is not known (D32).
        const done: Done = { kind: '', uid: rec.target, done: doneWord(run.m.def, rec.prep), fields: [], ...UNKNOWN, note: 'found in place' };
        return await report({ ...base, ok: true, status: null, ...UNKNOWN, error: null }, done);
      }
    } catch (err) {
      if (state.halt.signal.aborted) return void state.notAttempted++;
      return await report(refused(base, err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err))));
    }
  }
  if (run.options.diff && run.m.def.current && rec.step === 'send') {
    let diff: Diff;
    try {
      await gate(run as BatchRun<unknown>);
      diff = await diffOf(run.m, run.client, rec.target, rec.prep, rec.context, run.options.requests);
    } catch (err) {
      if (state.halt.signal.aborted) return void state.notAttempted++;
      return await report(refused(base, err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err))));
    }
    const arrow = symbols(run.ctx.io.env).arrow;
    const text = diffText(rec.target, rec.line, diff, arrow);
    run.ctx.io.stderr.write('unreadable' in diff ? `${text.trimEnd()}; sent without a diff\n` : text);
    if ('holds' in diff) {
      // Not sent: its values already hold (D32's already-holds, `skipped` in an outcomes file).
      const done: Done = { ...doneOf(run.m, rec.target, rec.prep, run.m.def.request(rec.target, rec.prep, run.m.args), null, HOLDS), fields: [] };
      return await report({ ...base, ok: true, status: null, ...HOLDS, error: null }, done);
    }
  }
  return send(run, rec);
}

/** The verdict of a record not sent because a read showed its values hold. */
const HOLDS = { changed: false, reason: 'already-holds' } as const;

/** Sends one record, again after a 429 once the batch's pause is over; its outcome reported. */
async function send<Prep>(run: BatchRun<Prep>, rec: Ready<Prep>): Promise<void> {
  const { ctx, m, client, options, state, report } = run;
  const { def, args } = m;
  const base = { uid: rec.target, line: rec.line };
  const req = def.request(rec.target, rec.prep, args);
  // Resumed, a record sent before with no answer recorded (resume.ts).
  const unknownBefore = options.resume?.known.get(rec.line)?.outcome === 'unknown';
  // The 429 this record got while it waits to be sent again.
  let refusal: BoError | undefined;
  for (let retry = 0; ; retry++) {
    try {
      await gate(run as BatchRun<unknown>);
    } catch {
      // Stopped before it was sent (again): the server did not act on it.
      if (refusal) return await report(refused(base, refusal));
      state.notAttempted++;
      return;
    }
    try {
      // The batch handles 429 itself, for all records at once.
      // Sent under the batch's own signal: after Ctrl-C it still answers for a moment.
      const change = { ...req, line: rec.line, uid: rec.target, read: rec.read };
      // Judged once, for the journal's outcome entry and the outcome alike (D32).
      let verdict: Verdict | undefined;
      const judge = (answer: ApiResponse | undefined, status: number) => (verdict = answer ? def.changed(answer, rec.target, rec.prep, args) : failureVerdict(status));
      const res = await journaled(options.journal, change, () => client.request({ ...req, maxRetries: 0, signal: options.requests }), judge);
      verdict ??= def.changed(res, rec.target, rec.prep, args);
      // The note a single run prints on stderr is part of a batch's line (no note of its own there).
      const note = def.note?.(rec.target, rec.prep, res, args);
      const done = { ...doneOf(m, rec.target, rec.prep, req, res.body, verdict), ...(note ? { note } : {}) };
      return await report({ ...base, ok: true, status: res.status, ...verdict, error: null }, done);
    } catch (err) {
      if (err instanceof JournalWriteError) {
        // Not journaled, so not sent: the batch stops.
        if (refusal) await report(refused(base, refusal));
        else state.notAttempted++;
        return state.stopWith('journal', err);
      }
      if (options.requests.aborted || err instanceof InterruptedError) {
        return await report({ ...base, ok: false, status: null, ...UNKNOWN, error: { code: 'interrupted', message: 'interrupted: outcome unknown' } });
      }
      const e = err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err));
      if (e.status === 429) {
        const after = err instanceof RateLimitedError && err.retryAfter !== undefined ? err.retryAfter * 1000 : undefined;
        const next = nextAttempt(retry, ctx.globals.maxRetries, after);
        if (next.waitMs !== undefined) {
          refusal = e;
          state.pausedUntil = Math.max(state.pausedUntil, ctx.clock.now().getTime() + next.waitMs);
          continue;
        }
        if (next.tooLong) state.stopWith('rateLimited', e);
      }
      if (e.status === 401 || e.status === 403) state.stopWith('auth', e);
      // Deleted again after an answer that was lost: the first request did it.
      // Whether it was this run's or another's deleting is not known (D32).
      if (e.status === 404 && unknownBefore && req.method === 'DELETE') return await report({ ...base, ok: true, status: 404, ...UNKNOWN, error: null });
      return await report(refused(base, e));
    }
  }
}

/** The verb's read-back shows the change in place already (a 'check' verb, resumed). */
async function inPlace<Prep>({ m, client, options }: BatchRun<Prep>, target: string, prep: Prep): Promise<boolean> {
  const readBack = m.def.readBack;
  if (!readBack) return false;
  const answer = await client.request({ ...readBack.request(target, prep, m.args), signal: options.requests });
  return readBack.inPlace(target, prep, answer.body, m.args);
}

/** Sent by the interrupted run with no answer recorded, and not safe to send blindly again. */
const UNKNOWN_HELD = 'sent before with no answer recorded, so not sent again (check it; --resend-unknown sends it)';
