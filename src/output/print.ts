// Data on stdout in the form the user asked for: a table on a TTY (streamed, fitted to
// the terminal), tab-separated rows when piped, a JSON array (streamed) with --json,
// one record a line with --jsonl, RFC 4180 with --csv (csv.ts); outputMode() picks
// one writer per mode. Talk goes to stderr through `say`/`warn`.
// Every API string goes through neutralise.ts (text) or jsonText (JSON, json-stream.ts) on its way out.

import type { Context } from '../context.js';
import { jsonStream, writeJsonValue, type JsonStream } from './json-stream.js';
import { neutralise } from '../api/neutralise.js';
import { explainsEmpty, longWorkTotal, pagesOf, walkNotes, type Records } from '../api/pages.js';
import { PageRecords } from '../api/page-records.js';
import { ChunkWriter, untilAborted, writeOut } from './sink.js';

export interface Column<R = any> {
  /** Sentence case on a TTY (`Base URL`, `Created`) unless `verbatim`. */
  header: string;
  get: (record: R) => unknown;
  /** Dates print `YYYY-MM-DD HH:MM` local on a TTY, ISO when piped; 'auto' tells by the value. */
  kind?: 'text' | 'date' | 'number' | 'auto';
  /** Never cut to fit the terminal (a Uid column is never cut either way): Uids, secrets. */
  fixed?: boolean;
  /** The header is a property path the user typed (--fields): shown as typed. */
  verbatim?: boolean;
  /**
   * The record's own properties this column reads. When every column of a list says,
   * a table (or TSV, CSV) asks the API for just those (columns.ts tableFields).
   */
  from?: string[];
}

const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** `YYYY-MM-DD HH:MM` in local time. */
export function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const LOCAL_DATE = /^(\d{4}-\d\d-\d\d) \d\d:\d\d$/;

/** A date cell without its time, for a table too wide for the terminal. */
export function shortDate(cell: string): string {
  return LOCAL_DATE.exec(cell)?.[1] ?? cell;
}

export function cellText(value: unknown, kind: Column['kind'], tty: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    if (tty && (kind === 'date' || (kind === 'auto' && ISO_DATE.test(value)))) {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return localDate(d);
    }
    return neutralise(value);
  }
  if (typeof value === 'object') return neutralise(summarize(value));
  return neutralise(String(value));
}

const MAX_LISTED = 3;

/**
 * A nested value in one cell: a record by its name and Uid, a list of records by up to
 * three of them, anything else as compact JSON without its nulls. The whole record is
 * what --json is for.
 */
function summarize(value: object): string {
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_LISTED).map((v) => (v && typeof v === 'object' ? summarize(v) : String(v)));
    const more = value.length > MAX_LISTED ? `, +${value.length - MAX_LISTED} more` : '';
    return shown.join(', ') + more;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.Uid === 'string') {
    const label = record.Name ?? record.FullName ?? record.Email;
    return typeof label === 'string' && label !== '' ? `${label} (${record.Uid})` : record.Uid;
  }
  const present = Object.entries(record).filter(([, v]) => v !== null && v !== undefined);
  return present.length === 0 ? '' : JSON.stringify(Object.fromEntries(present));
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

export function warn(ctx: Context, text: string): void {
  ctx.io.stderr.write(`warning: ${text}\n`);
}

/** The table writer, loaded on first use (a piped or JSON run never needs it). */
async function tables() {
  const [table, { unicodeLocale }] = await Promise.all([import('./table.js'), import('./symbols.js')]);
  return {
    writeTable: table.writeTable,
    options: (ctx: Context) => ({
      width: ctx.io.columns && ctx.io.columns > 0 ? ctx.io.columns : undefined,
      color: ctx.globals.color,
      unicode: unicodeLocale(ctx.io.env),
      signal: ctx.signal,
    }),
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
async function listProgress(ctx: Context, records: unknown) {
  const { startProgress } = await import('./progress.js');
  const total = longWorkTotal(records);
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
  records: AsyncIterable<R> | Iterable<R>,
  columns: Column<R>[],
  options: { forceJson?: boolean } = {},
): Promise<number> {
  const mode = outputMode(ctx, options.forceJson === true);
  const progress = await listProgress(ctx, records);
  const onRecord = progress?.onRecord;
  let count: number;
  // A table, TSV and CSV read columns of records: the walk refuses an item that is not one.
  const wants = { recordsOnly: mode !== 'json' && mode !== 'jsonl' };
  try {
    count = await writeList(ctx, mode, untilAborted(pagesOf(records, wants), ctx.signal), columns, onRecord);
  } finally {
    progress?.end();
    for (const note of walkNotes(records)) warn(ctx, note);
  }
  if (count === 0 && mode === 'table' && !explainsEmpty(records)) say(ctx, 'No records.');
  return count;
}

async function writeList<R>(
  ctx: Context,
  mode: OutputMode,
  pages: AsyncIterable<Records<R>>,
  columns: Column<R>[],
  onRecord?: (done: number) => void,
): Promise<number> {
  if (mode === 'table') {
    const { writeTable, options: tableOptions } = await tables();
    let read = 0;
    const rows = (async function* () {
      for await (const page of pages) {
        for (const r of page) {
          yield columns.map((c) => cellText(c.get(r), c.kind, true));
          read++;
          onRecord?.(read);
        }
      }
    })();
    const head = columns.map((c) => ({
      header: neutralise(headerOf(c)),
      // Uids are never cut: an admin copies them (`Uid`, or a path such as `Plan.Uid`).
      fixed: c.fixed === true || c.header === 'Uid' || c.header.endsWith('.Uid'),
      shrinkLast: c.kind === 'date' || c.kind === 'number',
      ...(c.kind === 'date' || c.kind === 'auto' ? { shorten: shortDate } : {}),
    }));
    return writeTable(ctx.io.stdout, head, rows, tableOptions(ctx));
  }
  const out = mode === 'json' || mode === 'jsonl' ? jsonStream(ctx, mode) : await rowStream(ctx, mode, columns);
  try {
    // A page is written in one synchronous loop, waiting only for stdout to take a
    // full chunk.
    for await (const page of pages) {
      if (page instanceof PageRecords) {
        for (let i = 0; i < page.length; i++) if (page.pushTo(out, i)) await out.flush();
      } else for (const r of page) if (out.push(r)) await out.flush();
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

/** Piped rows (tab-separated) or CSV, written as jsonStream writes JSON. */
async function rowStream<R>(ctx: Context, mode: 'tsv' | 'csv', columns: Column<R>[]): Promise<Omit<JsonStream, 'write'>> {
  let line: (r: R) => string;
  let empty = '';
  if (mode === 'csv') {
    // The header row waits for the first record, as '[' does: a list that fails
    // before it prints nothing; an empty one is the header alone.
    const { csvRow } = await import('./csv.js');
    const header = csvRow(columns.map(headerOf));
    line = (r) => `${count === 0 ? header : ''}${csvRow(columns.map((c) => c.get(r)))}`;
    empty = header;
  } else {
    line = (r) => `${columns.map((c) => cellText(c.get(r), c.kind, false)).join('\t')}\n`;
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
export async function printRecord(ctx: Context, record: unknown, pairs?: Array<[string, unknown, Column['kind']?]>): Promise<void> {
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return writeJsonValue(ctx, record, mode === 'json' ? 2 : undefined);
  if (mode === 'csv') {
    const { csvRow, flattenRecord } = await import('./csv.js');
    const cells: Array<[string, unknown, Column['kind']?]> = pairs ?? flattenRecord(record);
    await write(ctx, csvRow(cells.map(([k]) => k)) + csvRow(cells.map(([, v]) => v)));
    return;
  }
  const entries: Array<[string, unknown, Column['kind']?]> =
    pairs ??
    (record && typeof record === 'object'
      ? Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, v, 'auto'])
      : [['Value', record]]);
  const tty = ctx.io.stdoutIsTTY;
  // Keys are API text too (a property name can carry an escape sequence).
  const rows = tty ? recordRows(entries) : entries.map(([k, v, kind]) => [neutralise(k), cellText(v, kind ?? 'auto', false)]);
  if (tty) {
    const { writeTable, options: tableOptions } = await tables();
    // Values give way before property names.
    await writeTable(ctx.io.stdout, [{ header: '', shrinkLast: true }, { header: '' }], rows, {
      ...tableOptions(ctx),
      header: false,
      // A Uid is never cut: the Uid row, and a value that is a Uid (a list item, a reference).
      keepWhole: (row, column) => column === 1 && (row[0] === 'Uid' || /^[a-z]+_[a-z0-9]+$/.test(row[1] ?? '')),
    });
  } else {
    await write(ctx, rows.map(([k, v]) => `${k}\t${v}\n`).join(''));
  }
}

const MAX_ITEMS = 10;
const MAX_DEPTH = 3;

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.entries(value).every(([k, v]) => k.startsWith('_') || isEmpty(v));
  return false;
}

const isRecordRef = (value: object): value is { Uid: string } => typeof (value as { Uid?: unknown }).Uid === 'string';

/** One line for an item of a list: a record by name and Uid, else its first record, else its values. */
function itemText(item: unknown): string {
  if (item === null || typeof item !== 'object') return cellText(item, 'auto', true);
  if (isRecordRef(item)) return cellText(item, 'auto', true);
  const entries = Object.entries(item).filter(([k, v]) => !k.startsWith('_') && !isEmpty(v));
  const ref = entries.find(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v) && isRecordRef(v));
  if (ref) return cellText(ref[1], 'auto', true);
  return entries.map(([k, v]) => `${neutralise(k)}: ${cellText(v, 'auto', true)}`).join(', ');
}

/**
 * The rows of the record view on a terminal, the same for every record a `get` shows:
 * empty values left out (null, "", {} and []), as is the API's `_objectType`; a
 * nested record by its name and Uid; any other nested object as indented sub-rows; a
 * list as its count, then one indented row per item (the first ten). The whole record
 * is what --json is for.
 */
function recordRows(entries: Array<[string, unknown, Column['kind']?]>, indent = '', depth = 0): string[][] {
  const rows: string[][] = [];
  for (const [key, value, kind] of entries) {
    if (key.startsWith('_') || isEmpty(value)) continue;
    const name = indent + neutralise(key);
    if (Array.isArray(value)) {
      rows.push([name, `${value.length} item${value.length === 1 ? '' : 's'}`]);
      value.slice(0, MAX_ITEMS).forEach((item, i) => rows.push([`${indent}  ${i + 1}`, itemText(item)]));
      if (value.length > MAX_ITEMS) rows.push([`${indent}  …`, `${value.length - MAX_ITEMS} more (--json shows every one)`]);
    } else if (value !== null && typeof value === 'object' && !isRecordRef(value) && depth < MAX_DEPTH) {
      rows.push([name, '']);
      rows.push(...recordRows(Object.entries(value).map(([k, v]) => [k, v, 'auto']), `${indent}  `, depth + 1));
    } else {
      rows.push([name, cellText(value, kind ?? 'auto', true)]);
    }
  }
  return rows;
}

/**
 * A "string" response (D17) or any raw JSON value: JSON with --json (or `asJson`),
 * text otherwise. An empty or 204 answer prints nothing.
 */
export async function printValue(ctx: Context, value: unknown, options: { asJson?: boolean } = {}): Promise<void> {
  if (value === undefined || value === '') return;
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl' || options.asJson || typeof value !== 'string') {
    await writeJsonValue(ctx, value, mode === 'jsonl' ? undefined : 2);
  } else {
    await write(ctx, `${neutralise(value)}\n`);
  }
}
