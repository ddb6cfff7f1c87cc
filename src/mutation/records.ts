// Batch input: stdin read chunk by chunk, one value a line or JSON Lines records carrying
// the value under a key (Uid, Email). Blank lines and `#` comments are skipped; a
// malformed line is an error record, so the runner reports it and sends nothing for it.
// Each chunk is scanned once for newlines and a line is kept as the pieces it arrived
// in, so reading is linear; a line over MAX_LINE_BYTES is not kept at all, only counted
// up to its newline. A line is decoded on its own, as UTF-8 that must be valid.

import { decodeUtf8 } from '../input/read-text.js';

export type BatchRecord = { line: number; target: string } | { line: number; error: string };

/** The most a batch line may hold, in bytes, its line ending aside (64 KiB). */
export const MAX_LINE_BYTES = 64 * 1024;

/** A line too long to keep: only its length in bytes is known. */
interface Overlong {
  bytes: number;
}

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

/** The lines of `input` as bytes without their "\n", or the length of one too long. */
async function* linesOf(input: NodeJS.ReadableStream): AsyncGenerator<Buffer | Overlong> {
  let pieces: Buffer[] = [];
  let size = 0;
  let last = 0;
  // A line past the limit is counted, not kept. One byte over is allowed while reading:
  // it may be the "\r" of "\r\n", which the limit does not count.
  const add = (piece: Buffer) => {
    size += piece.length;
    if (piece.length > 0) last = piece[piece.length - 1]!;
    if (size > MAX_LINE_BYTES + 1) pieces = [];
    else if (piece.length > 0) pieces.push(piece);
  };
  const take = (): Buffer | Overlong => {
    const out = size > MAX_LINE_BYTES + 1 ? { bytes: last === 13 ? size - 1 : size } : Buffer.concat(pieces, size);
    pieces = [];
    size = 0;
    return out;
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let start = 0;
      for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
        add(bytes.subarray(start, nl));
        yield take();
        start = nl + 1;
      }
      add(bytes.subarray(start));
    }
  } catch (err) {
    // Destroyed by the reader that stopped early: the input ends here, without an error.
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && (input as { destroyed?: boolean }).destroyed) return;
    throw err;
  }
  if (size > 0) yield take();
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
  let value = text;
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
    const found = (parsed as Record<string, unknown>)[key];
    if (typeof found !== 'string') return { line, error: `${where}: the record has no "${key}" string` };
    value = found;
  }
  try {
    return { line, target: check(where, value) };
  } catch (err) {
    return { line, error: (err as Error).message };
  }
}
