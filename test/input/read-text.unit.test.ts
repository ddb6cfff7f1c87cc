// The one reader of text from stdin or a file: whatever the reads cut, the text is the
// text written; bytes that are not UTF-8, and a first line over 64 KiB, are refused
// naming the flag (exit 2), without quoting what was read.
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, readFirstLine, readStreamText } from '../../src/input/read-text.js';
import { UsageError } from '../../src/errors.js';
import { cutBytes } from '../helpers/cut-bytes.js';

/** `bytes` as a stream whose reads are cut at the given offsets. */
const cut = (bytes: Buffer, at: number[]) => Readable.from(cutBytes(bytes, at));

async function refused(p: Promise<unknown>): Promise<UsageError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as UsageError).exitCode).toBe(2);
  return err as UsageError;
}

describe('readStreamText', () => {
  it('gives the text written, wherever the reads cut it (inside characters too)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), fc.array(fc.nat(), { maxLength: 12 }), async (text, at) => {
        expect(await readStreamText('--input', cut(Buffer.from(text), at))).toBe(text.replace(/^\uFEFF/, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses bytes that are not UTF-8 naming the flag', async () => {
    const err = await refused(readStreamText('-F Description', cut(Buffer.from('caf\xe9', 'latin1'), [])));
    expect(err.message).toBe('-F Description: stdin is not valid UTF-8');
  });
});

describe('readFirstLine', () => {
  it('gives the first line, trimmed, wherever the reads cut it, and reads no further', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }).map((s) => s.replace(/\n/g, '')), fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 8 }), async (line, eol, at) => {
        expect(await readFirstLine('--secret-stdin', cut(Buffer.from(`${line}${eol}second line${eol}`), at))).toBe(line.replace(/^\uFEFF/, '').trim());
      }),
      { numRuns: 300 },
    );
    const stdin = new PassThrough();
    stdin.write('sk_1\nmore');
    expect(await readFirstLine('--secret-stdin', stdin)).toBe('sk_1');
    expect(stdin.destroyed).toBe(true);
  });

  it('refuses a first line over 64 KiB, or not UTF-8, without quoting it', async () => {
    const long = await refused(readFirstLine('--secret-stdin', cut(Buffer.alloc(MAX_LINE_BYTES + 1, 's'), [4096, 8192])));
    expect(long.message).toBe('--secret-stdin: the first line of stdin is over 64 KiB');
    const bad = await refused(readFirstLine('--payment-token', cut(Buffer.from('tok_\xff\n', 'latin1'), [])));
    expect(bad.message).toBe('--payment-token: stdin is not valid UTF-8');
  });
});
