// Table columns for a list: a command's defaults, or the paths the user asked for
// with --fields (COMMANDS.md: "table columns follow it").

import type { Column } from './print.js';

/** Reads a dotted path ("Plan.Name") from a record; arrays read their first item. */
export function pick(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (Array.isArray(value)) value = value[0];
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export function columnsFor<R>(defaults: Column<R>[], fields: string | undefined): Column<R>[] {
  if (!fields) return defaults;
  const paths = ['Uid', ...fields.split(',').map((f) => f.trim()).filter((f) => f && f !== 'Uid' && !f.endsWith('*'))];
  return paths.map((path) => ({
    header: path,
    get: (r: R) => pick(r, path),
    kind: /Date|Created|Updated/.test(path) ? 'date' : 'text',
  }));
}
