// Table columns for a list, and the rows of the record view: a command's defaults, or
// the paths the user asked for with --fields (COMMANDS.md: "table columns follow it").
// A nested path (CurrentSubscription.Plan.Name) is its own column, headed by the path
// as typed, and shows that value, not the record that holds it.

import type { Context } from '../context.js';
import { labelFieldOf } from '../input/fields.js';
import { outputMode, type Column, type Pair } from './print.js';

/**
 * Reads a dotted path ("Plan.Name") from a record. A path through a list reads every
 * item: `SubscriptionAddOns.Uid` is the list of their Uids (an item without the
 * property gives null, so two such columns stay item by item side by side); through
 * two lists, one flat list. The cells then show every value (print.ts).
 */
export function pick(record: unknown, path: string): unknown {
  return pickParts(record, path.split('.'));
}

function pickParts(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const v = pickParts(item, parts);
      return Array.isArray(v) ? v : [v ?? null];
    });
  }
  if (value === null || typeof value !== 'object') return undefined;
  return pickParts((value as Record<string, unknown>)[parts[0]!], parts.slice(1));
}

/** The --fields paths to show, Uid first (the API always sends it, D16). */
export function fieldPaths(fields: string): string[] {
  const paths = fields.split(',').map((f) => f.trim()).filter((f) => f && f !== 'Uid');
  return ['Uid', ...new Set(paths)];
}

/**
 * What a list asks the API for when it prints its default columns: the properties they
 * read (fields=Name,Currency,…), so that a page of 100 accounts is 5 columns' worth of
 * JSON instead of every field and child of every record (measured: a `bo --sandbox
 * accounts list` 112 ms → 86 ms, most of it the sandbox rendering and the client
 * parsing what was never shown). A column may read a nested path
 * (Subscription.Account.Name, which the default answer leaves null): the API then caps
 * a page at 25 records (D13, D16), the price of showing it. Never when the output is
 * the records themselves (--json, --jsonl) or --fields names the columns. Undefined:
 * ask for the whole records, as before.
 */
export function tableFields<R>(ctx: Context, defaults: Column<R>[], fields: string | undefined): string | undefined {
  if (fields !== undefined) return labelledFields(ctx, fields);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return undefined;
  const names = new Set<string>();
  for (const column of defaults) {
    if (!column.from) return undefined;
    for (const name of column.from) names.add(name);
  }
  names.delete('Uid'); // always sent (D16)
  if (names.size === 0 || [...names].some((n) => !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(n))) return undefined;
  return [...names].join(',');
}

/** A code and the label the API sent beside it, as one cell: `2 Trialing`. */
export function withLabel(code: unknown, label: unknown): string {
  return [code, label].filter((v) => v != null).join(' ');
}

/** The path of the label of the code at `path` (X.AccountStage → X.AccountStageLabel), or undefined. */
function labelPath(path: string): string | undefined {
  const at = path.lastIndexOf('.') + 1;
  const label = labelFieldOf(path.slice(at));
  return label === undefined ? undefined : path.slice(0, at) + label;
}

/**
 * --fields as asked for on a terminal table: with the label of each code it names
 * (AccountStage → also AccountStageLabel), which shows beside the code as the default
 * columns show it (`2 Trialing`). Undefined (ask for --fields as typed) anywhere else:
 * piped output, CSV and JSON ask for and print exactly the fields given.
 */
export function labelledFields(ctx: Context, fields: string): string | undefined {
  if (outputMode(ctx) !== 'table') return undefined;
  const paths = fields.split(',').map((p) => p.trim());
  const labels = paths.map(labelPath).filter((l) => l !== undefined && !paths.includes(l));
  return labels.length === 0 ? undefined : [...paths, ...new Set(labels)].join(',');
}

/** The value shown for `path`: on a terminal table a code with its label (labelledFields). */
function shownValue(ctx: Context, path: string): (record: unknown) => unknown {
  const label = outputMode(ctx) === 'table' ? labelPath(path) : undefined;
  return label === undefined ? (r) => pick(r, path) : (r) => withLabel(pick(r, path), pick(r, label));
}

export function columnsFor<R>(ctx: Context, defaults: Column<R>[], fields: string | undefined): Column<R>[] {
  if (!fields) return defaults;
  // `Plan.*` (every field of Plan) has no one value to show in a column: --json has it.
  return fieldPaths(fields)
    .filter((path) => !path.endsWith('*'))
    .map((path) => ({ header: path, verbatim: true, requested: true, get: shownValue(ctx, path), kind: 'auto' as const }));
}

/**
 * Key/value rows of one record for --fields: each path its own row, shown even when
 * empty (the user asked for it); `X.*` becomes a row for each field of X.
 */
export function fieldPairs(ctx: Context, record: unknown, fields: string): Pair[] {
  const pairs: Pair[] = [];
  for (const path of fieldPaths(fields)) {
    if (path === '*' || path.endsWith('.*')) {
      const base = path === '*' ? '' : path.slice(0, -2);
      const owner = base ? pick(record, base) : record;
      if (owner && typeof owner === 'object' && !Array.isArray(owner)) {
        for (const [k, v] of Object.entries(owner)) pairs.push([base ? `${base}.${k}` : k, v, 'auto', true]);
      }
      continue;
    }
    pairs.push([path, shownValue(ctx, path)(record), 'auto', true]);
  }
  return pairs;
}
