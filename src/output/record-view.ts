// The record view: one record on a terminal as rows of name and value, the same for every
// record a `get` shows (printRecord, print.ts).

import { neutralise } from '../api/neutralise.js';
import type { Cell } from './list-cell.js';
import { isEmpty, ttyCell, type Pair, type TtyCells } from './cells.js';

const MAX_ITEMS = 10;
const MAX_DEPTH = 3;

const isRecordRef = (value: object): value is { Uid: string } => typeof (value as { Uid?: unknown }).Uid === 'string';

/** One line for an item of a list: a record by name and Uid, else its first record, else its values. */
function itemText(item: unknown, view: TtyCells): string {
  if (item === null || typeof item !== 'object' || isRecordRef(item)) return String(ttyCell(item, 'auto', view));
  const entries = Object.entries(item).filter(([k, v]) => !k.startsWith('_') && !isEmpty(v));
  const ref = entries.find(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v) && isRecordRef(v));
  if (ref) return String(ttyCell(ref[1], 'auto', view));
  return entries.map(([k, v]) => `${neutralise(k)}: ${String(ttyCell(v, 'auto', view))}`).join(', ');
}

/** A list of values (a path through a list, `SubscriptionAddOns.Uid`), not of records. */
const isValueList = (value: unknown[]) => value.every((item) => item === null || typeof item !== 'object');

/**
 * The rows of the record view on a terminal, the same for every record a `get` shows:
 * empty values left out (null, "", {} and []), as is the API's `_objectType`, except a
 * field the user asked for by name, shown as `—` (a misspelt name and an empty field
 * must not look alike); a nested record by its name and Uid; any other nested object
 * as indented sub-rows; a list of values on its row, every value (list-cell.ts); a list
 * of records as its count, then one indented row per item (the first ten). Dates are
 * local, each with its zone. The whole record is what --json is for.
 */
export function recordRows(entries: Pair[], view: TtyCells, indent = '', depth = 0): Cell[][] {
  const rows: Cell[][] = [];
  for (const [key, value, kind, requested] of entries) {
    if (key.startsWith('_') || (isEmpty(value) && !requested)) continue;
    const name = indent + neutralise(key);
    if (Array.isArray(value) && !isEmpty(value) && !isValueList(value)) {
      rows.push([name, `${value.length} item${value.length === 1 ? '' : 's'}`]);
      value.slice(0, MAX_ITEMS).forEach((item, i) => rows.push([`${indent}  ${i + 1}`, itemText(item, view)]));
      if (value.length > MAX_ITEMS) rows.push([`${indent}  …`, `${value.length - MAX_ITEMS} more (--json shows every one)`]);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && !isRecordRef(value) && !isEmpty(value) && depth < MAX_DEPTH) {
      rows.push([name, '']);
      rows.push(...recordRows(Object.entries(value).map(([k, v]) => [k, v, 'auto']), view, `${indent}  `, depth + 1));
    } else {
      rows.push([name, ttyCell(value, kind ?? 'auto', view, requested)]);
    }
  }
  return rows;
}

