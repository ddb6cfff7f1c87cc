// The retry layer of the HTTP core (http.ts): D30's policy (http-retry.ts) applied. A
// connection failure safe to repeat, and a 429 (or a GET's 502-504), are tried again
// after a wait, said in the trace; a connection that failed for good becomes its error
// (http-failures.ts); any other answer is handed on with its Retry-After.

import { setTimeout as delay } from 'node:timers/promises';
import { InterruptedError } from '../errors.js';
import { ConnectionFailure } from './http-attempt.js';
import { connectionError, connectionText, seconds } from './http-failures.js';
import type { Attempt, Outgoing, Received } from './http-request.js';
import { isRetryableFailure, isRetryableStatus, nextAttempt, parseRetryAfter, waitMs } from './http-retry.js';
import type { Tracer } from './trace.js';

export interface RetryContext {
  /** Injected for tests (HttpClientOptions.sleep); defaults to real timers. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  tracer?: Tracer;
  bo: (rest: string) => string;
}

export function retrying(attempt: Attempt, ctx: RetryContext): Attempt {
  const sleep = ctx.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted || err instanceof InterruptedError) throw new InterruptedError();
      throw err;
    }
  }
  return async (request: Outgoing): Promise<Received> => {
    const { method, url, maxRetries, signal } = request;
    const again = (ms: number, retry: number) => `retrying in ${seconds(ms)} s (retry ${retry + 1} of ${maxRetries})`;
    for (let retry = 0; ; retry++) {
      let received: Received;
      try {
        received = await attempt(request);
      } catch (err) {
        if (!(err instanceof ConnectionFailure)) throw err;
        if (retry >= maxRetries || !isRetryableFailure(method, err)) throw connectionError(err, method, url, ctx);
        const ms = waitMs(retry, undefined);
        ctx.tracer?.note(`${connectionText(err, method, url)}; ${again(ms, retry)}`);
        await wait(ms, signal);
        continue;
      }
      const { raw } = received;
      const retryAfterMs = parseRetryAfter(raw.headers['retry-after']);
      // A wait longer than the cap is not waited for, nor shortened: the answer stands.
      const ms = isRetryableStatus(method, raw.status) ? nextAttempt(retry, maxRetries, retryAfterMs).waitMs : undefined;
      if (ms === undefined) return { ...received, retryAfterMs };
      ctx.tracer?.note(`${raw.status} ${raw.statusText}; ${again(ms, retry)}`);
      await wait(ms, signal);
    }
  };
}
