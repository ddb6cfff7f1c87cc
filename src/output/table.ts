// The TTY table, streamed: column widths come from a bounded look-ahead (the first
// page, in practice), then rows are written as they arrive, so memory stays flat and
// the first rows show while later pages are still on their way. The table fits the
// terminal: the widest text columns shrink with an ellipsis, a fixed column (the Uid)
// never does; a later cell wider than its column is cut the same way.
//
// Cells arrive already neutralised (neutralise.ts); widths are display widths. A cell
// holding a list (list-cell.ts) is cut by its items, saying how many it left out.

import { cellString, ListCell, type Cell } from './list-cell.js';
import { ChunkWriter } from './sink.js';
import { style } from './style.js';
import { symbolsFor } from './symbols.js';
import { displayWidth, padEnd, truncate, widthsFor, widthsLoaded } from './width.js';

export interface TableColumn {
  header: string;
  /**
   * Text the header ends with that is never cut (a date column's zone, ` (UTC+09:00)`):
   * the name before it is cut first, and the column is never narrower than it. Called
   * once the look-ahead rows are read, before the header is written: the zone is that
   * of the dates the column read (time.ts).
   */
  headerSuffix?: () => string;
  /** Never cut (the Uid: an admin copies it). */
  fixed?: boolean;
  /** Cut only once the text columns are as narrow as they go (dates, numbers). */
  shrinkLast?: boolean;
  /**
   * A shorter form of a cell (a date without its time), used for the whole column
   * when the table does not fit: tried before any text is cut.
   */
  shorten?: (cell: string) => string;
  /**
   * May be left out when the terminal is too narrow: the column with the lowest number
   * goes first, once keeping it would cut a kept column below DROP_BELOW cells.
   * Columns without one are always shown.
   */
  drop?: number;
}

/** Narrower than this, a text column is no longer worth reading: a droppable column goes first. */
export const DROP_BELOW = 8;

export interface TableOptions {
  /** Terminal width; undefined: no limit. */
  width?: number;
  color: boolean;
  /** Box-drawing characters; ASCII when the locale is not UTF-8. */
  unicode: boolean;
  /** False for the two-column record view. */
  header?: boolean;
  signal: AbortSignal;
  /** Rows read ahead to size the columns. */
  lookAhead?: number;
  /** Longest wait for look-ahead rows after the first one, in ms. */
  lookAheadMs?: number;
  /** Told the headers of the columns left out to fit the width, once, before the table is written. */
  onDrop?: (headers: string[]) => void;
  /** A cell never cut although its column may be (the Uid row of the record view). */
  keepWhole?: (row: Cell[], column: number) => boolean;
}

const MIN_WIDTH = 3;
const TIMEOUT = Symbol('timeout');

/**
 * Column widths that fit `width` cells: shrink the widest text column one cell at a
 * time; `last` columns only when no text column can give more; `fixed` ones never.
 * `limits.min`: a column never narrower than this (a header's zone). `limits.cells`: a
 * `last` column wider than its widest cell (its header is: `Created (UTC+09:00)` over
 * `2025-10-16`) gives way as a text column down to that width: a header's name is cut
 * before the data.
 */
export function fitWidths(
  natural: number[],
  fixed: boolean[],
  width: number | undefined,
  last: boolean[] = [],
  limits: { min?: number[]; cells?: number[] } = {},
): number[] {
  const widths = [...natural];
  if (width === undefined) return widths;
  const available = width - (3 * widths.length + 1);
  let total = widths.reduce((a, b) => a + b, 0);
  const widestOf = (late: boolean) => {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const isLate = last[i] === true && widths[i]! <= (limits.cells?.[i] ?? Infinity);
      if (fixed[i] || isLate !== late || widths[i]! <= Math.max(MIN_WIDTH, limits.min?.[i] ?? 0)) continue;
      if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
    }
    return widest;
  };
  while (total > available) {
    let widest = widestOf(false);
    if (widest < 0) widest = widestOf(true);
    if (widest < 0) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

/** The width of a table whose columns are `widths` wide: borders and padding included. */
function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + 3 * widths.length + 1;
}

/** Writes a table; returns the number of rows. Nothing is written for no rows. */
export async function writeTable(
  stream: NodeJS.WritableStream,
  columns: TableColumn[],
  rows: AsyncIterable<Cell[]> | Iterable<Cell[]>,
  options: TableOptions,
): Promise<number> {
  const it = Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : (rows as Iterable<Cell[]>)[Symbol.iterator]();
  const lookAhead = options.lookAhead ?? 100;
  const buffered: Cell[][] = [];
  let pending: Promise<IteratorResult<Cell[]>> | undefined;
  let done = false;
  const first = await it.next();
  if (first.done) return 0;
  buffered.push(first.value);
  const deadline = Date.now() + (options.lookAheadMs ?? 200);
  // A page failing during the look-ahead: the rows read so far are still shown.
  let failure: { error: unknown } | undefined;
  try {
    while (buffered.length < lookAhead) {
      const next = Promise.resolve(it.next());
      const r = await raceDeadline(next, deadline);
      if (r === TIMEOUT) {
        pending = next;
        // Awaited below, after the first rows; until then its failure is not unhandled.
        pending.catch(() => {});
        break;
      }
      if (r.done) {
        done = true;
        break;
      }
      buffered.push(r.value);
    }
  } catch (error) {
    if (options.signal.aborted) throw error;
    failure = { error };
  }

  const showHeader = options.header !== false;
  const suffixes = columns.map((c) => c.headerSuffix?.() ?? '');
  const headers = columns.map((c, i) => c.header + suffixes[i]);
  // Text beyond ASCII loads the width library (width.ts): here for what sizes the
  // columns, then for each later row that holds some (rowReady).
  await widthsFor([...headers, ...buffered.flatMap((row) => row.map(cellString))]);
  const widestCell = (cell: (row: Cell[], i: number) => string, i: number) => Math.max(0, ...buffered.map((row) => displayWidth(cell(row, i))));
  const naturalOf = (cell: (row: Cell[], i: number) => string) =>
    columns.map((_, i) => Math.max(showHeader ? displayWidth(headers[i]!) : 0, widestCell(cell, i)));
  let natural = naturalOf((row, i) => cellString(row[i]));
  // Too wide: the columns that have a shorter form take it before any text is cut.
  const shorten = columns.map(() => false);
  if (options.width !== undefined && columns.some((c) => c.shorten) && tableWidth(natural) > options.width) {
    columns.forEach((c, i) => (shorten[i] = c.shorten !== undefined));
    natural = naturalOf((row, i) => shortCell(row, i));
  }
  function shortCell(row: Cell[], i: number): string {
    const cell = cellString(row[i]);
    return shorten[i] ? columns[i]!.shorten!(cell) : cell;
  }
  // The columns shown: a droppable one goes, lowest number first, while fitting the
  // rest would cut one of them below DROP_BELOW (or its natural width, when narrower).
  let keep = columns.map((_, i) => i);
  const fit = (kept: number[]) =>
    fitWidths(
      kept.map((i) => natural[i]!),
      kept.map((i) => columns[i]!.fixed === true),
      options.width,
      kept.map((i) => columns[i]!.shrinkLast === true),
      {
        min: kept.map((i) => (suffixes[i] ? displayWidth(suffixes[i]!) + MIN_WIDTH : 0)),
        cells: kept.map((i) => (suffixes[i] ? widestCell(shortCell, i) : Infinity)),
      },
    );
  let widths = fit(keep);
  const cramped = () => keep.some((c, j) => columns[c]!.fixed !== true && widths[j]! < Math.min(DROP_BELOW, natural[c]!));
  while (options.width !== undefined && cramped()) {
    const droppable = keep.filter((c) => columns[c]!.drop !== undefined);
    if (droppable.length === 0) break;
    const next = droppable.reduce((a, b) => (columns[b]!.drop! < columns[a]!.drop! ? b : a));
    keep = keep.filter((c) => c !== next);
    widths = fit(keep);
  }
  if (keep.length < columns.length) options.onDrop?.(columns.filter((_, i) => !keep.includes(i)).map((c) => c.header));
  const fixed = keep.map((i) => columns[i]!.fixed === true);
  const { box, ellipsis } = symbolsFor(options.unicode);
  const { grey, bold } = style(options.color);
  const rule = (l: string, m: string, r: string) => grey(l + widths.map((w) => box.h.repeat(w + 2)).join(m) + r) + '\n';
  const bar = grey(box.v);
  const line = (cells: Cell[], style?: (s: string) => string) => {
    let out = bar;
    for (let j = 0; j < widths.length; j++) {
      const i = keep[j]!;
      const w = widths[j]!;
      const list = cells[i];
      let cell = shortCell(cells, i);
      if (!fixed[j] && !options.keepWhole?.(cells, i)) cell = list instanceof ListCell ? list.fit(w, ellipsis) : truncate(cell, w, ellipsis);
      const padded = padEnd(cell, w);
      out += ` ${style ? style(padded) : padded} ${bar}`;
    }
    return `${out}\n`;
  };

  const rowReady = (cells: Cell[]) => widthsFor(cells.map(cellString));
  const out = new ChunkWriter(stream, options.signal);
  let count = 0;
  try {
    await out.add(rule(box.tl, box.tm, box.tr));
    if (showHeader) {
      // A header's suffix stays whole: its name is cut before it.
      const cut = headers.map((h, i) => {
        const w = widths[keep.indexOf(i)] ?? 0;
        return suffixes[i] && displayWidth(h) > w ? truncate(columns[i]!.header, w - displayWidth(suffixes[i]!), ellipsis) + suffixes[i] : h;
      });
      await out.add(line(cut, bold));
      await out.add(rule(box.ml, box.mm, box.mr));
    }
    for (const row of buffered) {
      await out.add(line(row));
      count++;
    }
    buffered.length = 0;
    if (failure) throw failure.error;
    if (pending) {
      const r = await pending;
      if (r.done) done = true;
      else {
        if (!widthsLoaded()) await rowReady(r.value);
        await out.add(line(r.value));
        count++;
      }
    }
    while (!done) {
      const r = await it.next();
      if (r.done) break;
      if (!widthsLoaded()) await rowReady(r.value);
      await out.add(line(r.value));
      count++;
    }
    await out.add(rule(box.bl, box.bm, box.br));
    await out.flush();
  } catch (err) {
    // A failing page: close the table under the rows already read, then report.
    if (options.signal.aborted) out.discard();
    else await out.add(rule(box.bl, box.bm, box.br)).then(() => out.flush()).catch(() => out.discard());
    throw err;
  }
  return count;
}

async function raceDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof TIMEOUT> {
  const ms = deadline - Date.now();
  if (ms <= 0) {
    // Past the deadline: take only what is already there (same page), never wait.
    const r = await Promise.race([promise, new Promise<typeof TIMEOUT>((resolve) => setImmediate(() => resolve(TIMEOUT)))]);
    return r;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<typeof TIMEOUT>((resolve) => (timer = setTimeout(() => resolve(TIMEOUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
