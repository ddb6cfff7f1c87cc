// Batch input: stdin read chunk by chunk, one value a line or JSON Lines records carrying
// the value under a key (Uid, Email) and maybe the verb's fields (prepare.ts). A plain
// line's first tab-separated field is the value, so `bo`'s own piped rows need no
// `cut`. Blank lines and `#` comments are skipped; a
// malformed line is an error record, so the runner reports it and sends nothing for it.
// Lines are cut by the one line reader (src/input/read-text.ts): linear, and a line
// over MAX_LINE_BYTES is only counted, never held. Each line is decoded on its own, as
// UTF-8 that must be valid.

import { decodeUtf8, linesOf, MAX_LINE_BYTES, type Overlong } from '../input/read-text.js';

/** A target (with the JSON Lines record it came in, if any), or why the line is invalid. */
export type BatchRecord = { line: number; target: string; record?: Record<string, unknown> } | { line: number; error: string };

/** The most a batch line may hold, in bytes, its line ending aside (64 KiB). */
export { MAX_LINE_BYTES };

type Check = (label: string, value: string) => string;

/**
 * The records of `input`, in order. Ending early (`return()`, a `for await` left with
 * break) stops reading: the stream is destroyed, even while a read is waiting on it.
 */
export function readRecords(input: NodeJS.ReadableStream, key: string, check: Check): AsyncIterableIterator<BatchRecord> {
  const records = recordsOf(input, key, check);
  return {
    next: () => records.next(),
    async return() {
      // A pending read would hold return() until the next chunk: end the stream first.
      (input as { destroy?: () => void }).destroy?.();
      return records.return(undefined);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

async function* recordsOf(input: NodeJS.ReadableStream, key: string, check: Check): AsyncGenerator<BatchRecord> {
  let line = 0;
  for await (const bytes of linesOf(input)) {
    line++;
    const record = parseLine(bytes, line, key, check);
    if (record) yield record;
  }
}

/**
 * One line (its bytes, without the "\n"; or the length of one too long to keep): a
 * record, an error record, or undefined for a blank line or a `#` comment. Never throws.
 */
export function parseLine(raw: Uint8Array | Overlong, line: number, key: string, check: Check): BatchRecord | undefined {
  const where = `line ${line}`;
  let bytes = raw instanceof Uint8Array ? raw : undefined;
  if (bytes && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1);
  const length = bytes ? bytes.length : (raw as Overlong).bytes;
  if (!bytes || length > MAX_LINE_BYTES) {
    return { line, error: `${where}: ${length.toLocaleString('en-US')} bytes, over the ${MAX_LINE_BYTES / 1024} KiB a line may hold` };
  }
  const decoded = decodeUtf8(bytes);
  if (decoded === undefined) return { line, error: `${where}: not valid UTF-8` };
  const text = decoded.trim();
  if (text === '' || text.startsWith('#')) return undefined;
  // bo's own piped rows: the Uid first, then a tab and the other columns.
  let value = text.split('\t', 1)[0]!.trim();
  let record: Record<string, unknown> | undefined;
  if (/^[{["]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { line, error: `${where}: not valid JSON` };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { line, error: `${where}: starts like JSON but is not a record; give the value alone or {"${key}": "…"}` };
    }
    record = parsed as Record<string, unknown>;
    const found = record[key];
    if (typeof found !== 'string') return { line, error: `${where}: the record has no "${key}" string` };
    value = found;
  }
  try {
    return record === undefined ? { line, target: check(where, value) } : { line, target: check(where, value), record };
  } catch (err) {
    return { line, error: (err as Error).message };
  }
}
