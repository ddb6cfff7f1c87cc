// --outcomes <file>: a sheet batch's results as a sheet a spreadsheet takes back, one row
// per input row in input order, fed by the same reports as the outcome lines
// (outcomes.ts). Each row is the input's own columns exactly as read (a `-5` or `=1+1`
// stays as it was: it is the person's own data), then `bo`'s: bo_row (the input's line),
// bo_outcome (done, skipped, failed, invalid, not attempted, unknown), bo_code and
// bo_message, which carry the formula guard of --csv. A secret field's cell is written
// as `***`, so such a row cannot be sent again from the file (sheet.ts). It uses the
// input's separator and byte order mark, CRLF line ends. Rows are written as soon as
// every row before them has its outcome, each with one write: a batch killed part-way
// leaves the rows up to the first one whose outcome was still open, and `bo batch
// resume` (which reads the same input with the same --outcomes) writes the file again
// whole. A row of an earlier run that the resume does not send again says so.

import { closeSync, openSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { csvField, UTF8_BOM } from '../output/csv.js';
import type { FedRecord, RecordFeed } from './feed.js';
import type { MutationField } from './field.js';
import { kindOf, type Outcome } from './outcomes.js';
import { RESULT_COLUMNS, type OutcomeWord, type Sheet } from './sheet.js';
import type { KnownOutcome } from './types.js';

interface Row {
  line: number;
  cells: readonly string[];
  result?: { word: OutcomeWord; code: string; message: string };
}

export interface OutcomesFile {
  /** A record's outcome as the batch reported it. */
  reported(o: Outcome): void;
  /** A record of the interrupted run the resume does not send again. */
  known(line: number, outcome: KnownOutcome, run: string): void;
  /** The batch ended: rows with no outcome were not attempted. Closes the file. */
  end(): void;
}

/** Opens `path` for writing (UsageError naming --outcomes when it cannot be) and wraps `feed`, so each record read takes its row. */
export function outcomesFile(path: string, feed: RecordFeed, fields: readonly MutationField[]): { feed: RecordFeed; file: OutcomesFile } {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such folder' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : 'cannot be written';
    throw new UsageError(`--outcomes ${JSON.stringify(path)}: ${why}; nothing was sent`);
  }
  const rows: Row[] = [];
  const byLine = new Map<number, Row>();
  let format: SheetFormat | undefined;
  let closed = false;

  const write = (text: string) => {
    if (!closed) writeSync(fd, text);
  };
  const flush = () => {
    let text = '';
    while (rows.length > 0 && rows[0]!.result) {
      const row = rows.shift()!;
      byLine.delete(row.line);
      text += format!.row(row);
    }
    if (text) write(text);
  };
  const settle = (lineNo: number, result: Row['result']) => {
    const row = byLine.get(lineNo);
    if (!row || row.result) return;
    row.result = result;
    flush();
  };

  const wrapped: RecordFeed = {
    get complete() {
      return feed.complete;
    },
    get sheet() {
      return feed.sheet;
    },
    close: () => feed.close(),
    async next(): Promise<FedRecord | undefined> {
      const rec = await feed.next();
      if (rec === undefined) return undefined;
      if (!format) {
        if (!feed.sheet) throw new UsageError('--outcomes writes the rows of a sheet: the input has no header row naming its columns; nothing was sent');
        format = sheetFormat(feed.sheet, fields);
        write(format.header);
      }
      const row: Row = { line: rec.line, cells: rec.cells ?? [] };
      rows.push(row);
      byLine.set(rec.line, row);
      return rec;
    },
  };

  const file: OutcomesFile = {
    reported(o) {
      settle(o.line, resultOf(o));
    },
    known(lineNo, outcome, run) {
      settle(lineNo, { word: outcome === 'done' ? 'done' : outcome === 'failed' ? 'failed' : 'unknown', code: '', message: `${outcome} in run ${run}; not sent again` });
    },
    end() {
      if (closed) return;
      for (const row of rows) row.result ??= { word: 'not attempted', code: '', message: 'the batch stopped before sending it' };
      if (format) flush();
      closed = true;
      closeSync(fd);
    },
  };
  return { feed: wrapped, file };
}

/** How the file's rows are written: its header, and each row's text. */
interface SheetFormat {
  header: string;
  row(row: Row): string;
}

/** The input's columns but `bo`'s own (written afresh after them), a secret field's cells as `***`. */
function sheetFormat(sheet: Sheet, fields: readonly MutationField[]): SheetFormat {
  const { separator } = sheet;
  const result = new Set<string>(RESULT_COLUMNS);
  const kept = sheet.columns.flatMap((c, i) => (result.has(c.toLowerCase()) ? [] : [i]));
  const secrets = fields.filter((f) => f.secret).flatMap((f) => [f.api, f.flag.replace(/^--/, '')].map((n) => n.toLowerCase()));
  const secret = new Set(kept.filter((i) => secrets.includes(sheet.columns[i]!.toLowerCase())));
  const line = (cells: string[]) => `${cells.join(separator)}\r\n`;
  return {
    header: `${sheet.bom ? UTF8_BOM : ''}${line([...kept.map((i) => sheet.columns[i]!), ...RESULT_COLUMNS].map((c) => asIs(c, separator)))}`,
    row(row) {
      const { word, code, message } = row.result!;
      const own = kept.map((i) => {
        const cell = row.cells[i] ?? '';
        return asIs(secret.has(i) && cell !== '' ? '***' : cell, separator);
      });
      return line([...own, ...[String(row.line), word, code, message].map((v) => csvField(v, separator))]);
    },
  };
}

/** An outcome's row words: bo_outcome, bo_code (the status, the error's code, or why nothing changed), bo_message. */
function resultOf(o: Outcome): NonNullable<Row['result']> {
  const kind = kindOf(o);
  if (kind === 'done') return { word: o.reason === 'already-holds' ? 'skipped' : 'done', code: o.reason ?? '', message: '' };
  const code = o.status === null ? (o.error?.code ?? '') : String(o.status);
  const message = o.error?.message ?? '';
  if (kind === 'invalid') return { word: 'invalid', code: 'invalid', message };
  if (kind === 'interrupted') return { word: 'unknown', code: o.error?.code ?? 'interrupted', message };
  return { word: 'failed', code, message };
}

/** An input cell written back as it was read: quoted only when it must be, never changed. */
function asIs(text: string, separator: string): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
