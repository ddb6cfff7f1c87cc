// Batch progress on stderr while it runs — records done and the rate — only when
// stderr is a terminal and BO_NO_PROGRESS is not set; erased when the batch ends.
// The total is unknown (stdin streams), so no time left is shown.

import type { Context } from '../context.js';

const EVERY_MS = 100;

export interface Progress {
  /** Call before writing an outcome line, so the two never share a line. */
  clear(): void;
  /** Call after each outcome. */
  tick(done: number): void;
  end(): void;
}

export function batchProgress(ctx: Context): Progress {
  const env = ctx.io.env.BO_NO_PROGRESS;
  if (!ctx.io.stderrIsTTY || (env !== undefined && env !== '' && env !== '0')) {
    return { clear() {}, tick() {}, end() {} };
  }
  const started = ctx.clock.now().getTime();
  let shown = false;
  let last = 0;
  const clear = () => {
    if (shown) ctx.io.stderr.write('\r\u001b[K');
    shown = false;
  };
  return {
    clear,
    tick(done) {
      const now = ctx.clock.now().getTime();
      if (shown && now - last < EVERY_MS) return;
      last = now;
      const seconds = Math.max((now - started) / 1000, 0.001);
      ctx.io.stderr.write(`\r\u001b[K${done} done, ${Math.round(done / seconds)}/s`);
      shown = true;
    },
    end: clear,
  };
}
