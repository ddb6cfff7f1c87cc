// The one reader of text a user hands `bo` whole: a file (`@file`, `--input file`,
// `--tls-cert`) or stdin (`--input -`, `-F key=@-`). The bytes are gathered and decoded
// once, so a character split across two reads arrives whole; bytes that are not UTF-8
// are refused naming the flag (exit 2), never sent as U+FFFD. A leading byte order mark
// is dropped. Batch lines (src/mutation/records.ts) are decoded here too, line by line.

import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../output/errors.js';

const HINT = 'save it as UTF-8 first, e.g. iconv -f latin1 -t utf-8';

/** The text of UTF-8 bytes, or undefined when they are not UTF-8 (nothing replaced). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  return isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : undefined;
}

/** Whole text: its byte order mark, if any, is no part of it. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** All of a stream (stdin), as text. */
export async function readStreamText(flag: string, stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  const text = decodeUtf8(Buffer.concat(chunks));
  if (text === undefined) throw new UsageError(`${flag}: stdin is not valid UTF-8`, { hint: HINT });
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
  if (text === undefined) throw new UsageError(`${flag}: ${JSON.stringify(path)} is not valid UTF-8`, { hint: HINT });
  return withoutBom(text);
}
