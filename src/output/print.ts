// Data on stdout in the form the user asked for: a table on a TTY (streamed, fitted to
// the terminal), tab-separated rows when piped, a JSON array (streamed) with --json,
// one record a line with --jsonl, RFC 4180 with --csv (csv.ts); outputMode() picks
// one writer per mode. Talk goes to stderr through `say`/`warn`.
// Every API string goes through neutralise.ts (text) or jsonText (JSON, json-stream.ts) on its way out.

import type { Context } from '../context.js';
import { jsonStream, writeJsonValue, type JsonStream } from './json-stream.js';
import type { ValueSink } from './value-sink.js';
import { neutralise } from '../api/neutralise.js';
import type { RecordPage, RecordSource } from '../api/record-source.js';
import { ChunkWriter, untilAborted, writeOut } from './sink.js';
import { writeTable } from './table.js';
import { startProgress } from './progress.js';
import { csvRow, flattenRecord, UTF8_BOM, type CsvFormat } from './csv.js';
import { csvSeparatorOf } from '../config/settings.js';
import { symbols, unicodeLocale } from './symbols.js';
import { DateColumn, localTimesIn, shortDate } from './time.js';
import { cellText, ttyCell, type CellKind, type Pair, type TtyCells } from './cells.js';
import { recordRows } from './record-view.js';
export { cellText, type Pair } from './cells.js';

export interface Column<R = any> {
  /** Sentence case on a TTY (`Base URL`, `Created`) unless `verbatim`. */
  header: string;
  get: (record: R) => unknown;
  /**
   * Dates print `YYYY-MM-DD HH:MM` local on a TTY, the header naming the zone
   * (time.ts), ISO when piped; 'auto' tells by the value.
   */
  kind?: CellKind;
  /** Never cut to fit the terminal (a Uid column is never cut either way): Uids, secrets. */
  fixed?: boolean;
  /**
   * May be left out of a terminal table too narrow for it, lowest number first
   * (table.ts `drop`); a list declares the order, and never for the Uid.
   */
  drop?: number;
  /** The header is a property path the user typed (--fields): shown as typed. */
  verbatim?: boolean;
  /** The user asked for this field by name (--fields): on a TTY an empty cell shows `—`, not blank. */
  requested?: boolean;
  /**
   * The record's own properties this column reads. When every column of a list says,
   * a table (or TSV, CSV) asks the API for just those (columns.ts tableFields).
   */
  from?: string[];
}

const ACRONYMS = new Set(['API', 'CSV', 'HTTP', 'ID', 'ISO', 'JSON', 'TOTP', 'URL', 'URI']);

/** `TOTP SECRET` → `TOTP secret`, `sent` → `Sent`; mixed-case words (`PersonUid`) stay. */
export function sentenceCase(header: string): string {
  return header
    .split(' ')
    .map((word, i) => {
      if (ACRONYMS.has(word.toUpperCase()) && word === word.toUpperCase()) return word;
      const flat = word === word.toUpperCase() || word === word.toLowerCase();
      if (!flat) return word;
      const lower = word.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

function write(ctx: Context, text: string): Promise<void> {
  return writeOut(ctx.io.stdout, text, ctx.signal);
}

/** A message for the user on stderr (never data). */
export function say(ctx: Context, text: string): void {
  ctx.io.stderr.write(`${text}\n`);
}

/**
 * A note that may quote the server's date-times (`Add-on already ended at …`): on a
 * terminal they read as local time with its zone, as the tables show them (time.ts).
 */
export function sayNote(ctx: Context, text: string): void {
  say(ctx, ctx.io.stderrIsTTY ? localTimesIn(text) : text);
}

export function warn(ctx: Context, text: string): void {
  ctx.io.stderr.write(`warning: ${text}\n`);
}

/** The table's options for this terminal. */
function tableOptions(ctx: Context) {
  return {
    width: ctx.io.columns && ctx.io.columns > 0 ? ctx.io.columns : undefined,
    color: ctx.globals.color,
    unicode: unicodeLocale(ctx.io.env),
    signal: ctx.signal,
  };
}

/** How data goes to stdout: chosen here, once, for lists and records alike. */
export type OutputMode = 'table' | 'tsv' | 'json' | 'jsonl' | 'csv';

export function outputMode(ctx: Context, forceJson = false): OutputMode {
  if (ctx.globals.jsonl) return 'jsonl';
  if (ctx.globals.json || forceJson) return 'json';
  if (ctx.globals.csv) return 'csv';
  return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
}

/** The header a column shows in a table and in CSV. */
function headerOf(c: Column): string {
  return c.verbatim ? c.header : sentenceCase(c.header);
}

/**
 * The progress of a long list (--all, --paginate) on stderr (progress.ts), or none. It
 * is told of each record in the writing loop itself: no extra layer per record.
 */
async function listProgress(ctx: Context, records: RecordSource<unknown>) {
  const total = records.longWork;
  if (!total) return undefined;
  const progress = startProgress({ io: ctx.io, clock: ctx.clock, verbose: ctx.globals.verbose, total });
  return { end: progress.end, onRecord: progress.update };
}

/**
 * Prints a list. Everything streams: the JSON array is written as records come, piped
 * rows and CSV rows one by one, and the TTY table from a look-ahead of the first page.
 * Ctrl-C ends the loop at once (InterruptedError), also while a page is on its way.
 */
export async function printList<R>(
  ctx: Context,
  records: RecordSource<R>,
  columns: Column<R>[],
  options: { forceJson?: boolean } = {},
): Promise<number> {
  if (ctx.sink) return listToSink(ctx, ctx.sink, records);
  const mode = outputMode(ctx, options.forceJson === true);
  const progress = await listProgress(ctx, records);
  const onRecord = progress?.onRecord;
  let count: number;
  // A table, TSV and CSV read columns of records: the walk refuses an item that is not one.
  const wants = { recordsOnly: mode !== 'json' && mode !== 'jsonl' };
  try {
    count = await writeList(ctx, mode, untilAborted(records.pages(wants), ctx.signal), columns, onRecord);
  } finally {
    progress?.end();
    for (const note of records.notes()) warn(ctx, note);
  }
  if (count === 0 && mode === 'table' && records.explainsEmpty !== true) say(ctx, 'No records.');
  return count;
}

/** A list handed to a caller's sink (value-sink.ts): each record as --json would print it. */
async function listToSink<R>(ctx: Context, sink: ValueSink, records: RecordSource<R>): Promise<number> {
  sink.list();
  let count = 0;
  const take = (value: unknown) => (sink.item(value), count++, false);
  try {
    for await (const page of untilAborted(records.pages({}), ctx.signal)) for (let i = 0; i < page.length; i++) page.writeJson(i, take);
  } finally {
    for (const note of records.notes()) warn(ctx, note);
  }
  return count;
}

async function writeList<R>(
  ctx: Context,
  mode: OutputMode,
  pages: AsyncIterable<RecordPage<R>>,
  columns: Column<R>[],
  onRecord?: (done: number) => void,
): Promise<number> {
  if (mode === 'table') {
    let read = 0;
    // A date column's header names the zone of its dates: the table asks for it after
    // its look-ahead, when the first rows were read (time.ts DateColumn).
    const views = columns.map((c): TtyCells => ({
      empty: symbols(ctx.io.env).empty,
      ...(c.kind === 'date' || c.kind === 'auto' ? { dates: new DateColumn() } : {}),
    }));
    const rows = (async function* () {
      for await (const page of pages) {
        for (const r of page) {
          yield columns.map((c, i) => ttyCell(c.get(r), c.kind, views[i]!, c.requested));
          read++;
          onRecord?.(read);
        }
      }
    })();
    const head = columns.map((c, i) => ({
      header: neutralise(headerOf(c)),
      ...(views[i]!.dates ? { headerSuffix: () => views[i]!.dates!.headerSuffix() } : {}),
      // Uids are never cut: an admin copies them (`Uid`, or a path such as `Plan.Uid`).
      fixed: c.fixed === true || c.header === 'Uid' || c.header.endsWith('.Uid'),
      shrinkLast: c.kind === 'date' || c.kind === 'number',
      ...(c.kind === 'date' || c.kind === 'auto' ? { shorten: shortDate } : {}),
      ...(c.drop === undefined ? {} : { drop: c.drop }),
    }));
    const onDrop = (headers: string[]) => say(ctx, `${headers.join(', ')} left out to fit the terminal; widen it, or choose the columns with --fields`);
    return writeTable(ctx.io.stdout, head, rows, { ...tableOptions(ctx), onDrop });
  }
  const out = mode === 'json' || mode === 'jsonl' ? jsonStream(ctx, mode) : await rowStream(ctx, mode, columns);
  try {
    // A page is written in one synchronous loop, waiting only for stdout to take a
    // full chunk.
    for await (const page of pages) {
      for (let i = 0; i < page.length; i++) if (page.writeJson(i, out.push, out.pushText)) await out.flush();
      onRecord?.(out.count);
    }
    await out.end();
  } catch (err) {
    // What was already read is still shown (the rows before a failing page).
    if (!ctx.signal.aborted) await out.flush().catch(() => {});
    else out.discard();
    throw err;
  }
  return out.count;
}

/** --csv's separator and byte order mark: the flags, else the profile's csv-separator and csv-bom (checked when the config was read). */
async function csvFormat(ctx: Context): Promise<CsvFormat> {
  const { settings } = await ctx.profile();
  const saved = settings['csv-separator'];
  return {
    separator: ctx.globals.csvSeparator ?? (typeof saved === 'string' ? csvSeparatorOf(saved) : ','),
    bom: ctx.globals.bom ?? settings['csv-bom'] === true,
  };
}

/** Piped rows (tab-separated) or CSV, written as jsonStream writes JSON. */
async function rowStream<R>(ctx: Context, mode: 'tsv' | 'csv', columns: Column<R>[]): Promise<Omit<JsonStream, 'write'>> {
  let line: (r: R) => string;
  let empty = '';
  if (mode === 'csv') {
    // The header row waits for the first record, as '[' does: a list that fails
    // before it prints nothing; an empty one is the header alone.
    const format = await csvFormat(ctx);
    const header = `${format.bom ? UTF8_BOM : ''}${csvRow(columns.map(headerOf), format)}`;
    line = (r) => `${count === 0 ? header : ''}${csvRow(columns.map((c) => c.get(r)), format)}`;
    empty = header;
  } else {
    line = (r) => `${columns.map((c) => cellText(c.get(r))).join('\t')}\n`;
  }
  const out = new ChunkWriter(ctx.io.stdout, ctx.signal);
  let count = 0;
  return {
    push(r) {
      const full = out.push(line(r as R));
      count++;
      return full;
    },
    flush: () => out.flush(),
    async end() {
      if (count === 0) out.push(empty);
      await out.flush();
    },
    discard: () => out.discard(),
    get count() {
      return count;
    },
  };
}

/**
 * Prints one record: key/value pairs (two-column table on a TTY), the JSON as is, or
 * with --csv a header row of its property paths (nested records flattened) and one row.
 */
export async function printRecord(ctx: Context, record: unknown, pairs?: Pair[]): Promise<void> {
  if (ctx.sink) return ctx.sink.value(record);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return writeJsonValue(ctx, record, mode === 'json' ? 2 : undefined);
  if (mode === 'csv') {
    const cells: Pair[] = pairs ?? flattenRecord(record);
    const format = await csvFormat(ctx);
    await write(ctx, (format.bom ? UTF8_BOM : '') + csvRow(cells.map(([k]) => k), format) + csvRow(cells.map(([, v]) => v), format));
    return;
  }
  const entries: Pair[] =
    pairs ??
    (record && typeof record === 'object'
      ? Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, v, 'auto'])
      : [['Value', record]]);
  // Keys are API text too (a property name can carry an escape sequence).
  if (!ctx.io.stdoutIsTTY) {
    await write(ctx, entries.map(([k, v]) => `${neutralise(k)}\t${cellText(v)}\n`).join(''));
    return;
  }
  // Values give way before property names.
  await writeTable(ctx.io.stdout, [{ header: '', shrinkLast: true }, { header: '' }], recordRows(entries, { empty: symbols(ctx.io.env).empty }), {
    ...tableOptions(ctx),
    header: false,
    // A Uid is never cut: the Uid row, and a value that is a Uid (a list item, a reference).
    keepWhole: (row, column) => column === 1 && (row[0] === 'Uid' || /^[a-z]+_[a-z0-9]+$/.test(String(row[1] ?? ''))),
  });
}

/**
 * A "string" response (D17) or any raw JSON value: JSON with --json (or `asJson`),
 * text otherwise. An empty or 204 answer prints nothing.
 */
export async function printValue(ctx: Context, value: unknown, options: { asJson?: boolean } = {}): Promise<void> {
  if (value === undefined || value === '') return;
  if (ctx.sink) return ctx.sink.value(value);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl' || options.asJson || typeof value !== 'string') {
    await writeJsonValue(ctx, value, mode === 'jsonl' ? undefined : 2);
  } else {
    await write(ctx, `${neutralise(value)}\n`);
  }
}
