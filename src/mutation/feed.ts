// The records of a `-` batch (and of its --dry-run), taken from stdin one by one until
// the batch stops. Stopping lets stdin go at once: an idle FIFO or `tail -f … | bo …`
// holding it open never keeps `bo` running, and what was not read is never read (the
// summary says so instead of counting it).

import { orAbort } from '../output/sink.js';
import { readRecords, type BatchRecord } from './records.js';

export interface RecordFeed {
  /** The next record; undefined at the end of stdin, once `signal` aborted, or after close(). */
  next(): Promise<BatchRecord | undefined>;
  /** True once stdin was read to its end. */
  readonly complete: boolean;
  /** Stops reading (again and again is fine): stdin is let go unless it was read to its end. */
  close(): void;
}

export function recordFeed(
  stdin: NodeJS.ReadableStream,
  key: string,
  check: (label: string, value: string) => string,
  signal: AbortSignal,
): RecordFeed {
  const records = readRecords(stdin, key, check)[Symbol.asyncIterator]();
  let complete = false;
  let closed = false;
  return {
    get complete() {
      return complete;
    },
    async next() {
      if (closed || signal.aborted) return undefined;
      try {
        const r = await orAbort(records.next(), signal);
        if (r.done) complete = true;
        return r.done ? undefined : r.value;
      } catch (err) {
        if (signal.aborted) return undefined;
        throw err;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      // readRecords' return() ends stdin, even while a read waits on it; how is nobody's concern now.
      if (!complete) records.return?.(undefined).catch(() => {});
    },
  };
}
