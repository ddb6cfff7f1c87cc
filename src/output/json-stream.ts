// The one streaming JSON writer: lists, dry-run plans and batch outcomes go to stdout
// through it with --json (one array, written as values come) or --jsonl (one value a
// line). Text is gathered in chunks (sink.ts) and escaped a chunk at a time on its way
// out (neutralise.ts jsonBytes), so a value costs one JSON.stringify and no await.

import type { Context } from '../context.js';
import { jsonBytes } from '../api/neutralise.js';
import { ChunkWriter } from './sink.js';

export type JsonMode = 'json' | 'jsonl';

export interface JsonStream {
  /** Adds a value without waiting: true when a chunk is full, which the caller then flush()es. */
  push(value: unknown): boolean;
  /** Adds a value and writes it now (an outcome, a plan: seen as it happens). */
  write(value: unknown): Promise<void>;
  /** Writes what is pending and waits for stdout to take it. */
  flush(): Promise<void>;
  /** Closes the array (`[]` for none) and writes what is pending. */
  end(): Promise<void>;
  /** Drops what is pending (after Ctrl-C). */
  discard(): void;
  /** Values pushed so far. */
  readonly count: number;
}

/**
 * A JSON writer on stdout. `until`: the signal that stops it, ctx.signal by default;
 * with `afterAbort` it still takes values once that signal aborted, without waiting
 * for stdout (sink.ts ChunkOptions).
 */
export function jsonStream(ctx: Context, mode: JsonMode, options: { until?: AbortSignal; afterAbort?: boolean } = {}): JsonStream {
  const out = new ChunkWriter(ctx.io.stdout, options.until ?? ctx.signal, { encode: jsonBytes, afterAbort: options.afterAbort });
  let count = 0;
  // '[' waits for the first value, so a list that fails before it prints nothing; one
  // that fails midway leaves an unterminated array: invalid, never a short list.
  const text =
    mode === 'jsonl'
      ? (value: unknown) => `${JSON.stringify(value) ?? 'null'}\n`
      : (value: unknown) => `${count === 0 ? '[\n' : ',\n'}${JSON.stringify(value) ?? 'null'}`;
  const push = (value: unknown) => {
    const full = out.push(text(value));
    count++;
    return full;
  };
  return {
    push,
    async write(value) {
      push(value);
      await out.flush();
    },
    flush: () => out.flush(),
    async end() {
      if (mode === 'json') out.push(count === 0 ? '[]\n' : '\n]\n');
      await out.flush();
    },
    discard: () => out.discard(),
    get count() {
      return count;
    },
  };
}
