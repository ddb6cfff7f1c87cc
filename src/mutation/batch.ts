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
import { recordFeed } from './feed.js';
import { doneOf, emptyTally, leftText, outcomeWriter, summaryLine, tallied, type Done, type Outcome } from './outcomes.js';
import { failureVerdict, UNKNOWN } from './verdict.js';
import { startProgress } from '../output/progress.js';
import type { Preparation } from './prepare.js';
import type { MutationSpec, ResumeOrder, Verdict } from './types.js';
import { inputDigest } from '../journal/input-digest.js';
import { journaled, JournalWriteError, type RunJournal } from '../journal/open.js';
import { changedInput, resumeStepChecked, type ResumeStep } from './resume.js';

/** Listeners on the batch's own signal: one for each record waiting out a 429 (at most 16) and the feed's. */
const HALT_LISTENERS = 64;

export async function runBatch<Prep>(
  ctx: Context,
  spec: MutationSpec<Prep>,
  preparation: Preparation<Prep>,
  client: HttpClient,
  where: Where,
  options: {
    concurrency: number;
    failFast: boolean;
    check: (label: string, value: string) => string;
    requests: AbortSignal;
    /** The run's journal: an entry before each request, its outcome after. */
    journal?: RunJournal;
    /** `bo batch resume`: what the interrupted run's journal knows, line by line. */
    resume?: ResumeOrder;
  },
): Promise<void> {
  const writer = outcomeWriter(ctx, options.requests);
  // Records from stdin: no total, so done and rate only.
  const progress = startProgress({ io: ctx.io, clock: ctx.clock, verbose: ctx.globals.verbose });
  let reported = 0;
  const tally = emptyTally();
  let notAttempted = 0;
  let pausedUntil = 0;
  const inFlight = new Set<Promise<void>>();

  // Aborted when the batch stops sending: the run's stop (a signal, a closed stdout) or its own.
  const halt = new AbortController();
  setMaxListeners(HALT_LISTENERS, halt.signal);
  const onRunStop = () => halt.abort();
  if (ctx.signal.aborted) halt.abort();
  else ctx.signal.addEventListener('abort', onRunStop, { once: true });
  type Why = 'auth' | 'failFast' | 'rateLimited' | 'jq' | 'journal';
  let stop: { why: Why; error?: BoError } | undefined;
  const stopWith = (why: Why, error?: BoError) => {
    stop ??= { why, error };
    halt.abort();
  };

  // An outcome that could not be written (a writer's bug, stdout that throws): the batch
  // stops sending, still counts every record it sent, and ends with this error.
  let writeFailure: { error: unknown } | undefined;
  const writing = async (write: () => Promise<void>) => {
    if (writeFailure) return;
    try {
      await write();
    } catch (error) {
      writeFailure = { error };
      halt.abort();
    }
  };
  const report = async (o: Outcome, done?: Done) => {
    tallied(tally, o);
    if (!o.ok && options.failFast && !ctx.signal.aborted) stopWith('failFast');
    await writing(() => writer.write(o, done));
    // --jq failed: sending stops, what was sent is still reported (outcomes.ts OutcomeWriter).
    if (writer.jqFailure) stopWith('jq', writer.jqFailure);
    progress.update(++reported);
  };
  const refused = (base: { uid: string; line: number }, e: BoError): Outcome => ({
    ...base,
    ok: false,
    status: e.status ?? null,
    ...failureVerdict(e.status),
    error: { code: e.code ?? 'failed', message: e.status === 404 ? 'not found' : e.message },
  });

  /** Every sender waits here while the server asked the batch to slow down; throws once the batch stops. */
  const gate = async () => {
    if (halt.signal.aborted) throw new InterruptedError();
    for (let now = ctx.clock.now().getTime(); now < pausedUntil; now = ctx.clock.now().getTime()) {
      await ctx.clock.sleep(pausedUntil - now, halt.signal);
    }
  };

  const send = async (rec: { line: number; target: string; read: string }, prep: Prep, step: ResumeStep = 'send') => {
    const base = { uid: rec.target, line: rec.line };
    const req = spec.request(rec.target, prep);
    // Resumed, a record sent before with no answer recorded (resume.ts).
    const unknownBefore = options.resume?.known.get(rec.line)?.outcome === 'unknown';
    if (step === 'hold') {
      return await report({ ...base, ok: false, status: null, ...UNKNOWN, error: { code: 'interrupted', message: UNKNOWN_HELD } });
    }
    if (step === 'check') {
      try {
        await gate();
        if (await inPlace(rec.target, prep)) {
          // In place, but whether this run's earlier sending put it there is not known (D32).
          const done: Done = { kind: '', uid: rec.target, done: spec.report.done(prep), fields: [], ...UNKNOWN, note: 'found in place' };
          return await report({ ...base, ok: true, status: null, ...UNKNOWN, error: null }, done);
        }
      } catch (err) {
        if (halt.signal.aborted) return void notAttempted++;
        return await report(refused(base, err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err))));
      }
    }
    // The 429 this record got while it waits to be sent again.
    let refusal: BoError | undefined;
    for (let retry = 0; ; retry++) {
      try {
        await gate();
      } catch {
        // Stopped before it was sent (again): the server did not act on it.
        if (refusal) return await report(refused(base, refusal));
        notAttempted++;
        return;
      }
      try {
        // The batch handles 429 itself, for all records at once.
        // Sent under the batch's own signal: after Ctrl-C it still answers for a moment.
        const change = { ...req, line: rec.line, uid: rec.target, read: rec.read };
        // Judged once, for the journal's outcome entry and the outcome alike (D32).
        let verdict: Verdict | undefined;
        const judge = (answer: ApiResponse | undefined, status: number) => (verdict = answer ? spec.report.changed(rec.target, prep, answer) : failureVerdict(status));
        const res = await journaled(options.journal, change, () => client.request({ ...req, maxRetries: 0, signal: options.requests }), judge);
        verdict ??= spec.report.changed(rec.target, prep, res);
        // The note a single run prints on stderr is part of a batch's line (no note of its own there).
        const note = spec.report.note?.(rec.target, prep, res);
        const done = { ...doneOf(spec, rec.target, prep, req, res.body, verdict), ...(note ? { note } : {}) };
        return await report({ ...base, ok: true, status: res.status, ...verdict, error: null }, done);
      } catch (err) {
        if (err instanceof JournalWriteError) {
          // Not journaled, so not sent: the batch stops.
          if (refusal) await report(refused(base, refusal));
          else notAttempted++;
          return stopWith('journal', err);
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
            pausedUntil = Math.max(pausedUntil, ctx.clock.now().getTime() + next.waitMs);
            continue;
          }
          if (next.tooLong) stopWith('rateLimited', e);
        }
        if (e.status === 401 || e.status === 403) stopWith('auth', e);
        // Deleted again after an answer that was lost: the first request did it.
        // Whether it was this run's or another's deleting is not known (D32).
        if (e.status === 404 && unknownBefore && req.method === 'DELETE') return await report({ ...base, ok: true, status: 404, ...UNKNOWN, error: null });
        return await report(refused(base, e));
      }
    }
  };

  /** The verb's read-back shows the change in place already (a 'check' verb, resumed). */
  const inPlace = async (target: string, prep: Prep): Promise<boolean> => {
    const readBack = spec.readBack;
    if (!readBack) return false;
    const answer = await client.request({ ...readBack.request(target, prep), signal: options.requests });
    return readBack.inPlace(target, prep, answer.body);
  };

  /** Sends one record once fewer than `concurrency` are in flight; false once the batch stopped sending. */
  const dispatch = async (rec: { line: number; target: string; read: string }, prep: Prep, step: ResumeStep): Promise<boolean> => {
    while (inFlight.size >= options.concurrency && !halt.signal.aborted) await Promise.race(inFlight);
    if (halt.signal.aborted) return false;
    const p: Promise<void> = send(rec, prep, step).finally(() => inFlight.delete(p));
    inFlight.add(p);
    return true;
  };

  const resume = options.resume;
  // Resumed: records up to the run's last sent line wait until the input is known to be
  // the same up to there (its running digest), so a changed input sends nothing.
  const held: Array<() => Promise<boolean>> = [];
  const already = { done: 0, failed: 0 };
  let lastLine = 0;
  const sendHeld = async () => {
    while (held.length > 0) {
      if (!(await held.shift()!())) {
        notAttempted += held.length + 1;
        held.length = 0;
        return false;
      }
    }
    return true;
  };

  const feed = recordFeed(ctx, spec, options.check, halt.signal);
  let read = '';
  try {
    for (let rec = await feed.next(); rec !== undefined; rec = await feed.next()) {
      lastLine = rec.line;
      if ('error' in rec) {
        read = inputDigest(read, rec);
        await report({ uid: null, input: rec.input, line: rec.line, ok: false, status: null, ...failureVerdict(null, false), error: { code: 'invalid', message: rec.error } });
        continue;
      }
      // Its own fields over the flags': an invalid record is reported and not sent.
      const prepared = await preparation.forRecord(rec);
      if ('error' in prepared) {
        read = inputDigest(read, rec);
        await report({ uid: rec.target, line: rec.line, ok: false, status: null, ...failureVerdict(null, false), error: { code: 'invalid', message: prepared.error } });
        continue;
      }
      read = inputDigest(read, rec);
      const step = resume ? resumeStepChecked(resume, rec.line, read, spec.effects.resend) : 'send';
      if (resume) {
        if (step === 'skip') {
          already[resume.known.get(rec.line)!.outcome === 'done' ? 'done' : 'failed']++;
          continue;
        }
        if (rec.line <= resume.lastLine) {
          const record = { ...rec, read };
          held.push(() => dispatch(record, prepared.prep, step));
          continue;
        }
        if (!(await sendHeld())) break;
      }
      if (!(await dispatch({ ...rec, read }, prepared.prep, step))) {
        notAttempted++;
        break;
      }
    }
    if (resume && feed.complete && lastLine < resume.lastLine) throw changedInput(resume.run, lastLine + 1);
    await sendHeld();
    // Stopped: stdin is let go now, not when what is in flight has answered.
    feed.close();
    await Promise.all(inFlight);
  } finally {
    feed.close();
    ctx.signal.removeEventListener('abort', onRunStop);
    progress.end();
    await writing(() => writer.end());
  }

  const unread = !feed.complete;
  options.journal?.left(notAttempted, unread);
  const words = { done: spec.report.done(preparation.once), ...(spec.report.neutral === undefined ? {} : { neutral: spec.report.neutral }) };
  say(ctx, summaryLine(tally, words, where, notAttempted, unread));
  if (resume && already.done + already.failed > 0) {
    say(ctx, `run ${resume.run}: ${already.done} done and ${already.failed} failed before, not sent again`);
  }
  const left = leftText(notAttempted, unread);
  if (writeFailure) throw writeFailure.error;
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
  const failed = tally.notFound + tally.invalid + tally.failed + tally.interrupted + already.failed;
  if (failed > 0) {
    const total = failed + tally.done + already.done;
    throw new BoError(`${failed} of ${total} record(s) failed${stop?.why === 'failFast' ? '; stopped at the first failure (--fail-fast)' : ''}`, {
      code: 'batch_failed',
    });
  }
}

/** Sent by the interrupted run with no answer recorded, and not safe to send blindly again. */
const UNKNOWN_HELD = 'sent before with no answer recorded, so not sent again (check it; --resend-unknown sends it)';

