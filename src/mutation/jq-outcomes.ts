// --jq on a batch's outcomes: with --jsonl each outcome goes through jq as it completes,
// with --json (what --jq implies) the array of them at the end. A filter that fails (a
// runtime error, jq out of memory) takes no more outcomes, yet every record that was
// sent is still reported: the outcome it failed on and every later one are written to
// stderr as bo's own JSON lines (the --jsonl outcome, each once), and the batch stops
// sending (batch.ts).

import type { Context } from '../context.js';
import { BoError } from '../errors.js';
import { jsonText } from '../api/neutralise.js';
import { jsonStream, type JsonMode } from '../output/json-stream.js';

/** A failure of the filter itself (jq.ts JqRuntimeError, here by its code: jq.ts is loaded only with --jq). */
function isJqFailure(err: unknown): err is BoError {
  return err instanceof BoError && err.code === 'jq';
}

/** The outcome writer of outcomes.ts, over any outcome value (so that file alone imports this one). */
export interface JqOutcomeWriter<T> {
  write(outcome: T): Promise<void>;
  end(): Promise<void>;
  readonly jqFailure: BoError | undefined;
}

export function jqOutcomeWriter<T>(ctx: Context, mode: JsonMode, until: AbortSignal): JqOutcomeWriter<T> {
  const out = jsonStream(ctx, mode, { until, afterAbort: true });
  // --json: jq sees the outcomes only at the end; they are kept until it has taken them.
  const held: T[] = [];
  let failure: BoError | undefined;
  const own = (o: T) => void ctx.io.stderr.write(`${jsonText(o)}\n`);
  /** `outcomes`: those the filter was given when it failed, none of which it reported whole. */
  const failed = (err: unknown, outcomes: T[]) => {
    if (!isJqFailure(err)) throw err;
    failure = err;
    for (const o of outcomes) own(o);
  };
  return {
    async write(o) {
      if (failure) return own(o);
      if (mode === 'json') held.push(o);
      try {
        // One outcome a call: write() hands jq what it pushed at once (json-stream.ts).
        await out.write(o);
      } catch (err) {
        failed(err, [o]);
      }
    },
    async end() {
      if (failure) return;
      try {
        await out.end();
      } catch (err) {
        failed(err, held);
      }
    },
    get jqFailure() {
      return failure;
    },
  };
}
