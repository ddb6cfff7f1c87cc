// The one reader of text a user hands `bo`: a whole file (`@file`, `--input file`,
// `--tls-cert`), all of stdin (`--input -`, `-F key=@-`), its first line (a secret or
// token read with `-`), or its lines (batches, src/mutation/records.ts). Bytes are
// gathered and decoded once per text or line, so a character split across two reads
// arrives whole; bytes that are not UTF-8 are refused naming the flag (exit 2), never
// sent as U+FFFD. A leading byte order mark is dropped.

import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

const HINT = 'save it as UTF-8 first, e.g. iconv -f latin1 -t utf-8';

/** The most a line may hold, in bytes, its line ending aside (64 KiB). */
export const MAX_LINE_BYTES = 64 * 1024;

/** A line too long to keep: its length in bytes, and its first bytes (to show what it was). */
export interface Overlong {
  bytes: number;
  /** Its first OVERLONG_HEAD_BYTES bytes. */
  head: Buffer;
}

/** What an overlong line keeps of its start: enough for 200 characters of any script. */
const OVERLONG_HEAD_BYTES = 1024;

/** The text of UTF-8 bytes, or undefined when they are not UTF-8 (nothing replaced). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  return isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : undefined;
}

/**
 * The encoding a UTF-16 or UTF-32 byte order mark at the start of `bytes` names (Excel's
 * "Unicode text" is UTF-16), or undefined. UTF-32 first: its little-endian mark begins
 * with UTF-16's.
 */
export function foreignEncoding(bytes: Uint8Array): 'UTF-16' | 'UTF-32' | undefined {
  const [a, b, c, d] = bytes;
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) return 'UTF-32';
  if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) return 'UTF-16';
  return undefined;
}

/**
 * The encoding of UTF-16 text without a byte order mark, told from its first line (its
 * bytes up to the first 0x0A): text of mostly Latin letters, digits and punctuation
 * (Uids, addresses, JSON) holds a NUL in every other byte, the second of each pair in
 * little-endian order, the first in big-endian. UTF-8 text never holds a NUL there.
 * Undefined when the line shows no such pattern.
 */
export function unmarkedUtf16(line: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (line.length < 2 || !line.includes(0)) return undefined;
  const nul = [0, 0];
  const all = [0, 0];
  for (let i = 0; i < line.length; i++) {
    all[i % 2]!++;
    if (line[i] === 0) nul[i % 2]!++;
  }
  /** Most bytes at even (0) or odd (1) offsets are NUL, and few at the others. */
  const zeros = (at: 0 | 1) => nul[at]! * 2 >= all[at]! && nul[1 - at]! * 4 <= all[1 - at]!;
  return zeros(1) ? 'UTF-16LE' : zeros(0) ? 'UTF-16BE' : undefined;
}

/**
 * The first line of input in UTF-16 or UTF-32 rather than UTF-8, refused (exit 2) with
 * the iconv that converts it: by its byte order mark, or UTF-16 without one
 * (unmarkedUtf16). Undefined for a line that may be UTF-8.
 */
export function foreignFirstLine(what: string, line: Uint8Array): UsageError | undefined {
  if (foreignEncoding(line) !== undefined) return notUtf8(what, line);
  const unmarked = unmarkedUtf16(line);
  if (unmarked === undefined) return undefined;
  return new UsageError(`${what} is ${unmarked} text without a byte-order mark, not UTF-8: convert it first with iconv -f ${unmarked} -t UTF-8`);
}

/**
 * Text that is not UTF-8, refused (exit 2): `what` (`--input: stdin`) named with the
 * encoding its byte order mark gives and the iconv that converts it, else as not UTF-8.
 */
export function notUtf8(what: string, bytes: Uint8Array): UsageError {
  const encoding = foreignEncoding(bytes);
  if (encoding === undefined) return new UsageError(`${what} is not valid UTF-8`, { hint: HINT });
  return new UsageError(`${what} is ${encoding} text, not UTF-8: convert it first with iconv -f ${encoding} -t UTF-8`);
}

/** Whole text: its byte order mark, if any, is no part of it. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** All of a stream (stdin), as text. */
export async function readStreamText(flag: string, stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  const bytes = Buffer.concat(chunks);
  const text = decodeUtf8(bytes);
  if (text === undefined) throw notUtf8(`${flag}: stdin`, bytes);
  return withoutBom(text);
}

/** A whole file, as text; a file that cannot be read is refused naming the flag. */
export async function readFileText(flag: string, path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : 'unreadable';
    throw new UsageError(`${flag} cannot read ${JSON.stringify(path)}: ${why}`);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw notUtf8(`${flag}: ${JSON.stringify(path)}`, bytes);
  return withoutBom(text);
}

/**
 * The lines of a stream as bytes, without "\n" or "\r\n"; a line over MAX_LINE_BYTES
 * as its length only. Each chunk is scanned once and a line kept as the pieces it came
 * in, so reading is linear; a line past the limit is counted up to its newline, not
 * kept. Leaving early (return()) destroys the stream; so may the reader, while a read
 * waits: that ends the lines without an error.
 */
export async function* linesOf(input: NodeJS.ReadableStream): AsyncGenerator<Buffer | Overlong> {
  let pieces: Buffer[] = [];
  let size = 0;
  let last = 0;
  let head: Buffer | undefined;
  // One byte over is allowed while reading: it may be the "\r" of "\r\n".
  const add = (piece: Buffer) => {
    size += piece.length;
    if (piece.length > 0) last = piece[piece.length - 1]!;
    if (size > MAX_LINE_BYTES + 1) {
      // Past the limit: the start is copied once, the rest only counted.
      head ??= Buffer.concat([...pieces, piece], OVERLONG_HEAD_BYTES);
      pieces = [];
    } else if (piece.length > 0) pieces.push(piece);
  };
  const take = (): Buffer | Overlong => {
    const end = size > 0 && last === 13 ? size - 1 : size;
    const out = end > MAX_LINE_BYTES ? { bytes: end, head: head ?? Buffer.concat(pieces, OVERLONG_HEAD_BYTES) } : Buffer.concat(pieces, size).subarray(0, end);
    pieces = [];
    size = 0;
    head = undefined;
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
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && (input as { destroyed?: boolean }).destroyed) return;
    throw err;
  }
  if (size > 0) yield take();
}

/** The first line of a stream (stdin), trimmed; the rest is not read. */
export async function readFirstLine(flag: string, stream: NodeJS.ReadableStream): Promise<string> {
  for await (const line of linesOf(stream)) {
    if (!(line instanceof Uint8Array)) throw new UsageError(`${flag}: the first line of stdin is over ${MAX_LINE_BYTES / 1024} KiB`);
    const text = decodeUtf8(line);
    if (text === undefined) throw notUtf8(`${flag}: stdin`, line);
    return withoutBom(text).trim();
  }
  return '';
}
