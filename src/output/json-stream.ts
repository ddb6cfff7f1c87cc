// The one streaming JSON writer: lists, dry-run plans and batch outcomes go to stdout
// through it with --json (one array, written as values come) or --jsonl (one value a
// line). Text is gathered in chunks of bytes (sink.ts) and escaped a chunk at a time on
// its way out (neutralise.ts jsonBytes), so a value costs one JSON.stringify and no await;
// a record of an export whose bytes are already that text is copied (pushText), with no
// parse and no stringify. Single values (a record, a "string" answer) go out through writeJsonValue.
//
// For people (a terminal, or CLICOLOR_FORCE) --json is indented and coloured
// (json-pretty.ts); piped it is compact as ever. With --jq (jq.ts) the text goes
// through jq instead: --jsonl a chunk of lines at a time, --json once, on the whole
// array at its end.

import type { Context } from '../context.js';
import { jsonBytes, jsonText } from '../api/neutralise.js';
import { prettyJson } from './json-pretty.js';
import { ChunkWriter, writeOut } from './sink.js';
import { jsonColours } from './style.js';

export type JsonMode = 'json' | 'jsonl';

export interface JsonStream {
  /** Adds a value without waiting: true when a chunk is full, which the caller then flush()es. */
  push(value: unknown): boolean;
  /**
   * Adds a value given as its JSON text, `bytes[start, end)`, exactly as
   * JSON.stringify writes it (a record of a page, page-records.ts): as push() does,
   * without parsing it or writing it again. Absent where the text would be rewritten
   * anyway (indented and coloured for people).
   */
  readonly pushText?: (bytes: Buffer, start: number, end: number) => boolean;
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
 * --jq's input a call, with --jsonl: each call compiles jq's library and the expression
 * again (~1.8 ms), so ~400 accounts a call. Measured over 100,000 accounts on Node 24:
 * 1 MB took ~20 % less CPU than 256 KB; 2 MB was slower again (jq's memory grows).
 */
const JQ_PAGE = 1024 * 1024;

/**
 * A JSON writer on stdout. `until`: the signal that stops it, ctx.signal by default;
 * with `afterAbort` it still takes values once that signal aborted, without waiting
 * for stdout (sink.ts ChunkOptions).
 */
export function jsonStream(ctx: Context, mode: JsonMode, options: { until?: AbortSignal; afterAbort?: boolean } = {}): JsonStream {
  const until = options.until ?? ctx.signal;
  if (ctx.jq && mode === 'json') return jqArray(ctx, until, options.afterAbort === true);
  const jq = ctx.jq;
  const out = new ChunkWriter(
    ctx.io.stdout,
    until,
    jq ? { encode: (bytes) => jq.apply(bytes, true), afterAbort: options.afterAbort, chunkSize: JQ_PAGE } : { encode: jsonBytes, afterAbort: options.afterAbort },
  );
  let count = 0;
  const colours = ctx.globals.colorJson ? jsonColours() : undefined;
  // '[' waits for the first value, so a list that fails before it prints nothing; one
  // that fails midway leaves an unterminated array: invalid, never a short list.
  // A value's text and what goes before or after it are handed over apart: joined, the
  // whole text would be copied once more to be encoded.
  const push = (value: unknown): boolean => {
    const json = JSON.stringify(value) ?? 'null';
    const full =
      mode === 'jsonl'
        ? out.push(json, '\n')
        : colours
          ? out.push(count === 0 ? '[\n  ' : ',\n  ', prettyJson(json, colours, '  '))
          : out.push(count === 0 ? '[\n' : ',\n', json);
    count++;
    return full;
  };
  const pushText = (bytes: Buffer, start: number, end: number): boolean => {
    if (mode === 'json') out.push(count === 0 ? '[\n' : ',\n');
    const full = out.pushBytes(bytes, start, end, mode === 'jsonl' ? '\n' : '');
    count++;
    return full;
  };
  return {
    push,
    ...(colours ? {} : { pushText }),
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

/**
 * --json with --jq: the array --json would print, gathered whole (jq runs once on it,
 * as on the output of `bo --json …`), filtered and written at its end. Nothing is
 * printed for an array that did not end.
 */
function jqArray(ctx: Context, until: AbortSignal, afterAbort: boolean): JsonStream {
  let parts: string[] = [];
  let count = 0;
  const push = (value: unknown) => {
    parts.push(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(value) ?? 'null'}`);
    count++;
    return false;
  };
  return {
    push,
    pushText(bytes, start, end) {
      parts.push(`${count === 0 ? '[\n' : ',\n'}${bytes.toString('utf8', start, end)}`);
      count++;
      return false;
    },
    async write(value) {
      push(value);
    },
    flush: async () => {},
    async end() {
      const text = count === 0 ? '[]' : `${parts.join('')}\n]`;
      parts = [];
      await writeFiltered(ctx, text, until, afterAbort);
    },
    discard: () => {
      parts = [];
    },
    get count() {
      return count;
    },
  };
}

/** jq's results for one JSON text, written; a runtime error after what came before it. */
async function writeFiltered(ctx: Context, text: string, until: AbortSignal, afterAbort = false): Promise<void> {
  // After Ctrl-C a batch's outcomes are still written, without waiting (sink.ts).
  const write = (out: string) => (afterAbort && until.aborted ? void ctx.io.stdout.write(out) : writeOut(ctx.io.stdout, out, until));
  let out: string;
  try {
    out = ctx.jq!.apply(text, false);
  } catch (err) {
    const partial = (err as { output?: unknown }).output;
    if (typeof partial === 'string' && partial !== '') await write(partial);
    throw err;
  }
  if (out !== '') await write(out);
}

/**
 * One whole JSON value on stdout (a record, a "string" answer): `space` for its
 * indentation when piped (2 for --json, none for --jsonl); indented and coloured for
 * people; through jq with --jq.
 */
export async function writeJsonValue(ctx: Context, value: unknown, space?: number): Promise<void> {
  if (ctx.jq) return writeFiltered(ctx, JSON.stringify(value) ?? 'null', ctx.signal);
  const text = ctx.globals.colorJson ? prettyJson(jsonText(value), jsonColours()) : jsonText(value, space);
  await writeOut(ctx.io.stdout, `${text}\n`, ctx.signal);
}
