// Data on stdout in the form the user asked for: a table on a TTY, tab-separated rows
// when piped, a JSON array (streamed) with --json, one record a line with --jsonl.
// Talk goes to stderr through `say`/`warn`. Tables load cli-table3 and chalk lazily.

import type { Context } from '../context.js';

export interface Column<R = any> {
  header: string;
  get: (record: R) => unknown;
  /** Dates print local and readable on a TTY, ISO when piped. */
  kind?: 'text' | 'date' | 'number';
}

/** Neutralises control characters and escape sequences from API text. */
export function sanitize(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === '\t' || c === '\n' ? ' ' : '\uFFFD',
  );
}

export function cellText(value: unknown, kind: Column['kind'], tty: boolean): string {
  if (value === null || value === undefined) return '';
  if (kind === 'date' && typeof value === 'string' && tty) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) {
      return d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
    }
  }
  if (typeof value === 'object') return sanitize(summarize(value));
  return sanitize(String(value));
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

function write(ctx: Context, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = ctx.io.stdout.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else ctx.io.stdout.once('drain', resolve);
  });
}

/** A message for the user on stderr (never data). */
export function say(ctx: Context, text: string): void {
  ctx.io.stderr.write(`${text}\n`);
}

export function warn(ctx: Context, text: string): void {
  ctx.io.stderr.write(`warning: ${text}\n`);
}

/**
 * Prints a list. Records stream: with --json the array is written as it comes, piped
 * rows are written one by one; only the TTY table holds the rows it shows.
 */
export async function printList<R>(
  ctx: Context,
  records: AsyncIterable<R> | Iterable<R>,
  columns: Column<R>[],
  options: { forceJson?: boolean } = {},
): Promise<number> {
  const jsonl = ctx.globals.jsonl;
  const json = !jsonl && (ctx.globals.json || options.forceJson === true);
  const tty = ctx.io.stdoutIsTTY && !json && !jsonl;
  let count = 0;
  if (json) {
    // '[' waits for the first record, so a list that fails before it prints nothing;
    // one that fails midway leaves an unterminated array: invalid, never a short list.
    for await (const r of records) {
      await write(ctx, `${count === 0 ? '[\n' : ',\n'}${JSON.stringify(r)}`);
      count++;
    }
    await write(ctx, count === 0 ? '[]\n' : '\n]\n');
    return count;
  }
  if (jsonl) {
    for await (const r of records) {
      await write(ctx, `${JSON.stringify(r)}\n`);
      count++;
    }
    return count;
  }
  if (!tty) {
    for await (const r of records) {
      await write(ctx, `${columns.map((c) => cellText(c.get(r), c.kind, false)).join('\t')}\n`);
      count++;
    }
    return count;
  }
  const rows: string[][] = [];
  for await (const r of records) rows.push(columns.map((c) => cellText(c.get(r), c.kind, true)));
  count = rows.length;
  if (count === 0) {
    say(ctx, 'No records.');
    return 0;
  }
  const table = await makeTable(ctx, columns.map((c) => c.header));
  table.push(...rows);
  await write(ctx, `${table.toString()}\n`);
  return count;
}

/** Prints one record: key/value pairs (two-column table on a TTY), or the JSON as is. */
export async function printRecord(ctx: Context, record: unknown, pairs?: Array<[string, unknown, Column['kind']?]>): Promise<void> {
  if (ctx.globals.json || ctx.globals.jsonl) {
    await write(ctx, `${JSON.stringify(record, null, ctx.globals.json ? 2 : undefined)}\n`);
    return;
  }
  const entries: Array<[string, unknown, Column['kind']?]> =
    pairs ??
    (record && typeof record === 'object'
      ? Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, v, guessKind(v)])
      : [['Value', record]]);
  if (ctx.io.stdoutIsTTY) {
    const table = await makeTable(ctx, []);
    for (const [k, v, kind] of entries) table.push([k, cellText(v, kind, true)]);
    await write(ctx, `${table.toString()}\n`);
  } else {
    for (const [k, v, kind] of entries) await write(ctx, `${k}\t${cellText(v, kind, false)}\n`);
  }
}

/**
 * A "string" response (D17) or any raw JSON value: JSON with --json (or `asJson`),
 * text otherwise. An empty or 204 answer prints nothing.
 */
export async function printValue(ctx: Context, value: unknown, options: { asJson?: boolean } = {}): Promise<void> {
  if (value === undefined || value === '') return;
  if (ctx.globals.json || ctx.globals.jsonl || options.asJson || typeof value !== 'string') {
    await write(ctx, `${JSON.stringify(value, null, ctx.globals.jsonl ? undefined : 2)}\n`);
  } else {
    await write(ctx, `${sanitize(value)}\n`);
  }
}

function guessKind(v: unknown): Column['kind'] {
  return typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) ? 'date' : 'text';
}

async function makeTable(ctx: Context, head: string[]) {
  const [{ default: Table }, { Chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
  const chalk = new Chalk({ level: ctx.globals.color ? 1 : 0 });
  return new Table({
    head: head.map((h) => chalk.bold(h)),
    style: { head: [], border: ctx.globals.color ? ['grey'] : [] },
    // No rule between rows: a 100-row list stays 100 lines tall.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: false,
  });
}
