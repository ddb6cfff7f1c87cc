// The records of a `-` batch (and of its --dry-run), taken from stdin one by one until
// the batch stops. Stopping lets stdin go at once: an idle FIFO or `tail -f … | bo …`
// holding it open never keeps `bo` running, and what was not read is never read (the
// summary says so instead of counting it). A first line that is a column header is no
// record: a note on stderr says it was skipped.

import type { Context } from '../context.js';
import { recordFieldNames } from '../input/fields.js';
import { say } from '../output/print.js';
import { orAbort } from '../output/sink.js';
import { readRecords, type BatchRecord } from './records.js';
import type { MutationField, TargetDeclaration } from './types.js';
import type { InputFormat, OutcomeWord, Sheet, SheetRules } from './sheet.js';
import { recordAlias, recordKey, targetCheck } from './target.js';

/** What the runner gets: a target, or an invalid line. */
export type FedRecord = Exclude<BatchRecord, { header: string }>;

export interface RecordFeed {
  /** The next record; undefined at the end of stdin, once `signal` aborted, or after close(). */
  next(): Promise<FedRecord | undefined>;
  /** True once stdin was read to its end. */
  readonly complete: boolean;
  /** Stops reading (again and again is fine): stdin is let go unless it was read to its end. */
  close(): void;
  /** The input's header row, once read, when it is a sheet (sheet.ts). */
  readonly sheet: Sheet | undefined;
}

/** How stdin is read beyond the verb's target: --input-format and --only (sheet.ts). */
export interface InputRules {
  format?: InputFormat;
  only?: OutcomeWord;
}

export function recordFeed(ctx: Context, def: { target: TargetDeclaration; fields?: readonly MutationField[] }, signal: AbortSignal, input: InputRules = {}): RecordFeed {
  const { target } = def;
  const key = recordKey(target);
  const alias = recordAlias(target);
  const rules: SheetRules = { key, fields: def.fields ?? [], ...(alias === undefined ? {} : { alias }), ...(target.resource === undefined ? {} : { resource: target.resource }), ...(target.columns ? { context: target.columns } : {}), ...input };
  const records = readRecords(ctx.io.stdin, key, targetCheck(target), headerNames(key, target.resource), alias, rules)[Symbol.asyncIterator]();
  let complete = false;
  let closed = false;
  let sheet: Sheet | undefined;
  return {
    get complete() {
      return complete;
    },
    get sheet() {
      return sheet;
    },
    async next() {
      for (;;) {
        if (closed || signal.aborted) return undefined;
        try {
          const r = await orAbort(records.next(), signal);
          if (r.done) complete = true;
          if (r.done) return undefined;
          if (!('header' in r.value)) return r.value;
          if (r.value.sheet) {
            sheet = r.value.sheet;
            if (r.value.ignored?.length) say(ctx, `column(s) ${r.value.ignored.join(', ')} of the input: not changed by this command, ignored`);
            continue;
          }
          say(ctx, `line ${r.value.line} is a column header (${r.value.header}): skipped`);
        } catch (err) {
          if (signal.aborted) return undefined;
          throw err;
        }
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

/** A spreadsheet's first column's heading, lower case: `uid`, `id`, the record key, a field of the resource. */
function headerNames(key: string, resource: string | undefined): Set<string> {
  return new Set(['uid', 'id', key, ...recordFieldNames(resource)].map((name) => name.toLowerCase()));
}

/** A batch waiting on a terminal says what it waits for, before it waits. */
export function readingNotice(ctx: Context, key: string): void {
  if (!ctx.io.stdinIsTTY) return;
  const noun = key === 'Uid' ? 'Uids' : `${key.toLowerCase()}s`;
  ctx.io.stderr.write(`reading ${noun} from stdin, one a line; Ctrl-D to end\n`);
}
