// A `-` batch: records streamed from stdin through one HttpClient (one keep-alive pool)
// with at most `concurrency` requests in flight. A 429 pauses the whole batch for its
// Retry-After before the record is tried again; a 401/403 stops it, since every later
// record would fail too; Ctrl-C stops sending and reports what was in flight. Each
// outcome is printed as it completes; the summary goes to stderr.

import type { Context } from '../context.js';
import type { HttpClient } from '../api/http-types.js';
import { AuthError, BoError, InterruptedError, RateLimitedError } from '../output/errors.js';
import { say } from '../output/print.js';
import type { Where } from './confirm.js';
import { emptyTally, kindOf, outcomeWriter, summaryLine, type Outcome } from './outcomes.js';
import { startProgress } from '../output/progress.js';
import { readRecords, type BatchRecord } from './records.js';
import type { MutationSpec } from './types.js';

const ABORTED = Symbol('aborted');
const BACKOFF_MS = 1000;
const MAX_WAIT_MS = 60_000;

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export async function runBatch<Prep>(
  ctx: Context,
  spec: MutationSpec<Prep>,
  prep: Prep,
  client: HttpClient,
  where: Where,
  options: { concurrency: number; failFast: boolean; check: (label: string, value: string) => string; requests: AbortSignal },
): Promise<void> {
  const writer = outcomeWriter(ctx);
  // Records from stdin: no total, so done and rate only.
  const progress = startProgress({ io: ctx.io, clock: ctx.clock, verbose: ctx.globals.verbose });
  let reported = 0;
  const tally = emptyTally();
  const signal = ctx.signal;
  let stop: 'auth' | 'failFast' | undefined;
  let authFailure: BoError | undefined;
  let notAttempted = 0;
  let pausedUntil = 0;
  const inFlight = new Set<Promise<void>>();

  const report = async (o: Outcome) => {
    tally[kindOf(o)]++;
    if (!o.ok && options.failFast && !signal.aborted) stop ??= 'failFast';
    await writer.write(o, spec.done);
    progress.update(++reported);
  };

  /** Every sender waits here while the server asked the batch to slow down. */
  const gate = async () => {
    for (let now = ctx.clock.now().getTime(); now < pausedUntil; now = ctx.clock.now().getTime()) {
      await ctx.clock.sleep(pausedUntil - now, signal);
    }
  };

  const send = async (rec: { line: number; target: string }) => {
    const base = { uid: rec.target, line: rec.line };
    const req = spec.request(rec.target, prep);
    for (let retry = 0; ; retry++) {
      try {
        await gate();
        // The batch handles 429 itself, for all records at once.
        // Sent under the batch's own signal: after Ctrl-C it still answers for a moment.
        const res = await client.request({ ...req, maxRetries: 0, signal: options.requests });
        return await report({ ...base, ok: true, status: res.status, error: null });
      } catch (err) {
        if (options.requests.aborted || err instanceof InterruptedError) {
          return await report({ ...base, ok: false, status: null, error: { code: 'interrupted', message: 'interrupted: outcome unknown' } });
        }
        const e = err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err));
        if (e.status === 429 && retry < ctx.globals.maxRetries) {
          const after = err instanceof RateLimitedError && err.retryAfter !== undefined ? err.retryAfter * 1000 : BACKOFF_MS * 2 ** retry;
          pausedUntil = Math.max(pausedUntil, ctx.clock.now().getTime() + Math.min(MAX_WAIT_MS, after));
          continue;
        }
        if (e.status === 401 || e.status === 403) {
          stop = 'auth';
          authFailure ??= e;
        }
        const message = e.status === 404 ? 'not found' : e.message;
        return await report({ ...base, ok: false, status: e.status ?? null, error: { code: e.code ?? 'failed', message } });
      }
    }
  };

  const records = readRecords(ctx.io.stdin, spec.recordKey ?? 'Uid', options.check)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await untilAborted(records.next(), signal);
      if (next === ABORTED || next.done) break;
      const rec: BatchRecord = next.value;
      if (stop === 'failFast') break;
      if (stop === 'auth') {
        // Read on only to say how many records were not attempted.
        if ('target' in rec) notAttempted++;
        continue;
      }
      if ('error' in rec) {
        await report({ uid: '-', line: rec.line, ok: false, status: null, error: { code: 'invalid', message: rec.error } });
        continue;
      }
      while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
      if (signal.aborted || stop === 'failFast') break;
      if (stop === 'auth') {
        notAttempted++;
        continue;
      }
      const p: Promise<void> = send(rec).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  } finally {
    progress.end();
    await writer.end();
  }

  say(ctx, summaryLine(tally, spec.done, where, notAttempted));
  if (signal.aborted) {
    throw new InterruptedError(`interrupted; requests still in flight were reported with an unknown outcome`);
  }
  if (stop === 'auth' && authFailure) {
    throw new AuthError(`batch stopped: ${authFailure.message}; ${notAttempted} record(s) not attempted`, {
      status: authFailure.status,
      code: authFailure.code,
      hint: authFailure.hint,
    });
  }
  const failed = tally.notFound + tally.invalid + tally.failed;
  if (failed > 0) {
    const total = failed + tally.done;
    throw new BoError(`${failed} of ${total} record(s) failed${stop === 'failFast' ? '; stopped at the first failure (--fail-fast)' : ''}`, {
      code: 'batch_failed',
    });
  }
}
