// A value as one cell shows it: piped (tab-separated) as the API sent it, or on a
// terminal (dates local, lists item by item, a nested record by its name and Uid). Used by
// the tables of lists (print.ts) and by the record view (record-view.ts).

import { jsonText, neutralise } from '../api/neutralise.js';
import { ListCell, type Cell } from './list-cell.js';
import { dateOf, type DateColumn, localDate, zoneOf } from './time.js';

/** How a cell reads its value: dates print local on a TTY (time.ts); 'auto' tells by the value. */
export type CellKind = 'text' | 'date' | 'number' | 'auto';

/**
 * A row of the record view: its name, its value, how to read the value, and whether
 * the user asked for it by name (--fields): such a row shows even when empty.
 */
export type Pair = [name: string, value: unknown, kind?: CellKind, requested?: boolean];

/**
 * A cell of piped (tab-separated) output: text as the API sent it (dates ISO 8601),
 * neutralised; a record by its name and Uid; a list whole, every item, as a compact
 * JSON array (an item holding ", " or a tab survives; JSON's escapes neutralise), each
 * record in it by its name and Uid as in a cell of its own. The whole record is --json.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return neutralise(value);
  if (Array.isArray(value)) return jsonText(value.map(listItem));
  if (typeof value === 'object') return neutralise(summarize(value));
  return neutralise(String(value));
}

/** An item of a list in a piped cell: a value as it is, a record as its cell shows it. */
function listItem(item: unknown): unknown {
  if (Array.isArray(item)) return item.map(listItem);
  return item !== null && typeof item === 'object' ? summarize(item) : item;
}

/** How a terminal shows cells: the locale's empty mark, and the zone of a date column. */
export interface TtyCells {
  empty: string;
  dates?: DateColumn;
}

/**
 * A cell of a terminal table or record view: dates local (the zone in the column's
 * header, or after the date when there is none); a list as every item, which the table
 * shortens by items (list-cell.ts); a record by its name and Uid. `requested`: a field
 * the user named, shown as the empty mark rather than blank when it holds nothing.
 */
export function ttyCell(value: unknown, kind: CellKind | undefined, view: TtyCells, requested = false): Cell {
  if (isEmpty(value)) return requested ? view.empty : '';
  if (typeof value === 'string') {
    const d = kind === 'date' || kind === 'auto' ? dateOf(value) : undefined;
    if (d) return view.dates ? view.dates.cell(d) : `${localDate(d)} (${zoneOf(d)})`;
    return neutralise(value);
  }
  if (Array.isArray(value)) return new ListCell(value.map((item) => (isEmpty(item) ? view.empty : String(ttyCell(item, 'auto', view)))));
  if (typeof value === 'object') return neutralise(summarize(value as object));
  return neutralise(String(value));
}

/**
 * A nested record in one cell: by its name and Uid, anything else as compact JSON
 * without its nulls. The whole record is what --json is for.
 */
function summarize(value: object): string {
  const record = value as Record<string, unknown>;
  if (typeof record.Uid === 'string') {
    const label = record.Name ?? record.FullName ?? record.Email;
    return typeof label === 'string' && label !== '' ? `${label} (${record.Uid})` : record.Uid;
  }
  const present = Object.entries(record).filter(([, v]) => v !== null && v !== undefined);
  return present.length === 0 ? '' : JSON.stringify(Object.fromEntries(present));
}

/** Nothing to show: null, "", [] or a record of nothing but `_` keys and empties. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.entries(value).every(([k, v]) => k.startsWith('_') || isEmpty(v));
  return false;
}

