import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { InterruptedError } from '../../src/errors.js';
import { ChunkWriter, drained } from '../../src/output/sink.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

describe('waiting for stdout to drain', () => {
  it('leaves no listener behind, after a drain or after Ctrl-C', async () => {
    const stream = new PassThrough();
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      const wait = drained(stream, signal);
      stream.emit('drain');
      await wait;
    }
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
    const controller = new AbortController();
    const wait = drained(stream, controller.signal);
    controller.abort();
    await expect(wait).rejects.toBeInstanceOf(InterruptedError);
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
  });
});

describe('a chunk writer whose stream holds what it is given', () => {
  // The writer hands a full chunk's own buffer to the stream and reuses it only once the
  // stream says it is written: a stream that holds chunks (a slow reader) must still get
  // every byte as pushed, whatever the sizes, the chunk size and the moment it writes.
  it('writes every byte in order, with or without an encoding that returns the chunk itself', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n', '"', 'z'), maxLength: 300 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        async (texts, chunkSize, delay, encoded) => {
          const written: Buffer[] = [];
          // Takes each chunk, and says it is written only later: as a pipe to a slow reader does.
          const stream = new Writable({
            highWaterMark: 16,
            write(chunk: Buffer, _encoding, callback) {
              // What the stream holds now must not change before the callback.
              const copy = Buffer.from(chunk);
              setTimeout(() => {
                expect(chunk.equals(copy)).toBe(true);
                written.push(copy);
                callback();
              }, delay);
            },
          });
          const writer = new ChunkWriter(stream, new AbortController().signal, { chunkSize, encode: encoded ? (bytes) => bytes : undefined });
          for (const text of texts) if (writer.push(text, '|')) await writer.flush();
          await writer.flush();
          await new Promise<void>((resolve) => stream.end(resolve));
          expect(Buffer.concat(written).toString('utf8')).toBe(texts.map((t) => `${t}|`).join(''));
        },
      ),
      { numRuns: fuzzRuns(100) },
    );
  });
});

describe('a chunk writer whose stream takes each chunk at once and calls back later', () => {
  // As a socket on stdout does (Node's child_process connects a child's stdout so): the
  // write completes at once, write() says to go on, and the callback waits for the code
  // writing to yield. A page's chunks are written without yielding, so several are in
  // flight together; once they call back, their buffers are reused, never allocated
  // again and left to the collector.
  it('reuses every buffer the stream gave back: as many buffers as chunks were ever in flight at once', async () => {
    const buffers = new Set<ArrayBuffer>();
    const written: Buffer[] = [];
    const stream = new Writable({
      highWaterMark: 1024 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        buffers.add(chunk.buffer as ArrayBuffer);
        written.push(Buffer.from(chunk));
        callback(); // done now: Node calls the writer's callback on the next tick
      },
    });
    const writer = new ChunkWriter(stream, new AbortController().signal, { chunkSize: 100 });
    const record = 'x'.repeat(49);
    const perPage = 12; // 6 full chunks a page, written without yielding to the next tick
    for (let page = 0; page < 50; page++) {
      for (let i = 0; i < perPage; i++) if (writer.push(record, '\n')) await writer.flush();
      // Waiting for the next page: the callbacks run.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.flush();
    expect(Buffer.concat(written).toString('utf8')).toBe(`${record}\n`.repeat(50 * perPage));
    expect(buffers.size).toBeLessThanOrEqual(perPage / 2 + 1);
  });
});

describe('a chunk writer whose stream throws on write (a bug on the output path)', () => {
  it('the idle flush, off any caller, keeps the error for the next push or flush instead of throwing it from its timer', async () => {
    vi.useFakeTimers();
    try {
      const stream = new PassThrough();
      stream.write = () => {
        throw new TypeError('stream is broken');
      };
      const writer = new ChunkWriter(stream, new AbortController().signal);
      expect(writer.push('a short line\n')).toBe(false);
      // The idle flush's timer fires: it must not throw (from a timer it would end the process).
      expect(() => vi.runOnlyPendingTimers()).not.toThrow();
      expect(() => writer.push('more\n')).toThrow('stream is broken');
      await expect(writer.flush()).rejects.toThrow('stream is broken');
    } finally {
      vi.useRealTimers();
    }
  });
});
