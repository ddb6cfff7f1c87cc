// Writing a long output to stdout: in chunks (one write a record would cost a system
// call each on a TTY), flushed whenever the producer waits for the server, honouring
// backpressure, and stopping within a moment of Ctrl-C even when stdout never drains.

import { InterruptedError } from '../errors.js';

const CHUNK = 64 * 1024;
/** A chunk waits at most this long for more text while the producer is idle. */
const IDLE_FLUSH_MS = 30;

/** Resolves when `stream` drains (or closes, or has closed: its reader left); rejects when `signal` aborts. */
export function drained(stream: NodeJS.WritableStream, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new InterruptedError());
  // A closed stream never says 'drain' nor 'close' again.
  if ((stream as { destroyed?: boolean }).destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('close', onDrain);
      signal.removeEventListener('abort', onAbort);
    };
    const onDrain = () => (cleanup(), resolve());
    const onAbort = () => (cleanup(), reject(new InterruptedError()));
    stream.on('drain', onDrain);
    stream.on('close', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Writes `text` and waits for the stream to take it (or for Ctrl-C). */
export async function writeOut(stream: NodeJS.WritableStream, text: string, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new InterruptedError();
  if (!stream.write(text)) await drained(stream, signal);
}

export interface ChunkOptions {
  /**
   * What a chunk becomes on its way out (jsonBytes for JSON text; --jq's results):
   * `bytes` is the chunk's UTF-8, valid during the call only unless it is returned
   * (then the writer hands it to the stream and fills another buffer until the stream
   * is done with it). It may throw (a --jq runtime error): the error's `output`, when
   * it has one, is written, and the error is thrown again by the next push() or flush().
   */
  encode?: (bytes: Buffer) => string | Buffer;
  /** Bytes held before a chunk is full (default 64 KB). */
  chunkSize?: number;
  /**
   * Text is still taken after `signal` aborted, and written without waiting: a batch
   * reports its interrupted records, and a reader that stopped reading cannot hold
   * the caller (nor `bo`, src/main.ts) any longer. Otherwise an abort ends the writing
   * with an InterruptedError.
   */
  afterAbort?: boolean;
}

/**
 * Buffers a writer keeps for reuse once the stream is done with them: as many as were
 * in flight at once, up to this. On a socket (how Node's child_process, and many CI
 * runners, connect stdout) a write completes at once but calls back only once the
 * writing code yields (process.nextTick), and the records of the pages at hand are
 * written without yielding: 3-15 chunks were in flight together in an export. Dropped,
 * each would be a buffer to allocate again and leave to the collector (22,000 in an
 * export of 1,000,000 accounts).
 */
const SPARES = 64;

/**
 * Text is gathered as UTF-8 in a buffer, each piece encoded into it as it comes: no
 * string of a whole chunk is built, so the pieces die young, and the chunk's bytes are
 * held outside V8's heap. A full chunk is handed to the stream as it is and the buffer
 * reused once the stream has called back: an export allocates a few buffers, not one a
 * chunk, whose memory would wait for a full collection (README "Performance"). So a
 * stream must call back only once it is done with a chunk (pager.ts does).
 */
export class ChunkWriter {
  private bytes: Buffer = Buffer.allocUnsafeSlow(0);
  private readonly spares: Buffer[] = [];
  private at = 0;
  private timer: NodeJS.Timeout | undefined;
  private failed: { error: unknown } | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly signal: AbortSignal,
    private readonly options: ChunkOptions = {},
  ) {}

  /** Adds text and writes it now, waiting for the stream to take it. */
  async write(text: string): Promise<void> {
    this.push(text);
    await this.flush();
  }

  /** Adds text; writes a full chunk (waiting for drain) or schedules an idle flush. */
  async add(text: string): Promise<void> {
    if (this.push(text)) return this.flush();
  }

  /**
   * Adds text (and `then`, written after it: a record and its separator, each encoded
   * as it is, where their concatenation would be copied whole to be encoded) without
   * waiting: true when a full chunk is ready, which the caller then flush()es. For a
   * loop over a page of records: one await a chunk, not a record.
   */
  push(text: string, then = ''): boolean {
    if (this.failed) throw this.failed.error;
    if (this.signal.aborted && !this.options.afterAbort) throw new InterruptedError();
    // At most 3 bytes a UTF-16 unit.
    const most = 3 * (text.length + then.length);
    if (this.at + most > this.bytes.length) this.grow(this.at + most);
    this.at += this.bytes.write(text, this.at, 'utf8');
    if (then !== '') this.at += this.bytes.write(then, this.at, 'utf8');
    return this.pushed();
  }

  /** Adds `bytes[start, end)` and then `then`, as push() adds text. */
  pushBytes(bytes: Buffer, start: number, end: number, then = ''): boolean {
    if (this.failed) throw this.failed.error;
    if (this.signal.aborted && !this.options.afterAbort) throw new InterruptedError();
    const most = end - start + 3 * then.length;
    if (this.at + most > this.bytes.length) this.grow(this.at + most);
    this.at += bytes.copy(this.bytes, this.at, start, end);
    if (then !== '') this.at += this.bytes.write(then, this.at, 'utf8');
    return this.pushed();
  }

  private pushed(): boolean {
    if (this.at >= (this.options.chunkSize ?? CHUNK)) return true;
    this.timer ??= setTimeout(() => this.flushIdle(), IDLE_FLUSH_MS);
    return false;
  }

  /** Writes what is pending and waits for the stream to take it. */
  async flush(): Promise<void> {
    const ok = this.flushNow();
    if (this.failed) throw this.failed.error;
    const needDrain = (this.stream as { writableNeedDrain?: boolean }).writableNeedDrain;
    if (ok && !needDrain) return;
    if (!this.options.afterAbort) return drained(this.stream, this.signal);
    if (this.signal.aborted) return;
    await drained(this.stream, this.signal).catch((err: unknown) => {
      if (!(err instanceof InterruptedError)) throw err;
    });
  }

  /** Stops the idle timer without writing (after Ctrl-C or a failure). */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = 0;
  }

  private grow(size: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(size, 2 * this.bytes.length, (this.options.chunkSize ?? CHUNK) + 4096));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }

  /** The idle flush, off any caller's stack: a write that throws is thrown by the next push() or flush(). */
  private flushIdle(): void {
    try {
      this.flushNow();
    } catch (error) {
      this.failed ??= { error };
    }
  }

  private flushNow(): boolean {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.at === 0) return true;
    const held = this.bytes;
    const chunk = held.subarray(0, this.at);
    this.at = 0;
    let out: string | Buffer = chunk;
    if (this.options.encode) {
      try {
        out = this.options.encode(chunk);
      } catch (error) {
        this.failed = { error };
        const output = (error as { output?: unknown }).output;
        return typeof output === 'string' && output !== '' ? this.stream.write(output) : true;
      }
    }
    if (typeof out === 'string' || out.buffer !== held.buffer) return this.stream.write(out);
    // The stream holds these bytes until it has written them: fill another buffer meanwhile.
    this.bytes = this.spares.pop() ?? Buffer.allocUnsafeSlow(held.length);
    return this.stream.write(out, () => {
      if (this.spares.length < SPARES) this.spares.push(held);
    });
  }
}

/**
 * The items of `source`, ending with an InterruptedError as soon as `signal` aborts,
 * also while waiting for the next item (a page the server is slow to send).
 */
export async function* untilAborted<T>(source: AsyncIterable<T> | Iterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) throw new InterruptedError();
  const it = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<T>)[Symbol.iterator]();
  try {
    for (;;) {
      const next = it.next();
      const r = next instanceof Promise ? await orAbort(next, signal) : next;
      if (r.done) return;
      yield r.value;
      if (signal.aborted) throw new InterruptedError();
    }
  } finally {
    // Stop the producer (an HTTP walk) too; it may be stuck, so do not wait for it.
    if (signal.aborted) void Promise.resolve(it.return?.()).catch(() => {});
    else await it.return?.();
  }
}

/**
 * `promise`, or an InterruptedError when `signal` aborts first. A listener per call,
 * removed when the promise settles: racing one long-lived abort promise would keep
 * every item alive until the end.
 */
export function orAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // given up: its failure is nobody's
    return Promise.reject(new InterruptedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
