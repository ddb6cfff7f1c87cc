// List endpoints: D13 paging and caps, D14 equality filters and orderBy on top-level
// scalar properties (400 naming an unknown one), D16 fields. Endpoint-specific
// filters (q, segmentUid, D15) are applied by the route before calling `page`.

import type { Db } from './db.js';
import { invalid } from './http-error.js';
import { parseFields, render, type FieldsSpec } from './render.js';
import { SCALARS, type Kind, type Rec } from './schema.js';

export const MAX_LIMIT = 100;
export const MAX_DEEP_LIMIT = 25;
const RESERVED = new Set(['limit', 'offset', 'fields', 'orderBy', 'donotlog']);

export interface Envelope {
  metadata: { limit: number; offset: number; total: number };
  items: Array<Record<string, unknown>>;
}

function nonNegativeInt(query: URLSearchParams, name: string, min: number): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw invalid(name, `must be ${min === 1 ? 'a positive' : 'a non-negative'} integer, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** A filter value read as a JSON scalar for true/false and numbers, text otherwise (D14). */
interface Wanted {
  text: string;
  value: unknown;
}

function wanted(text: string): Wanted {
  let value: unknown = text;
  if (text === 'true') value = true;
  else if (text === 'false') value = false;
  else if (text.trim() !== '' && Number.isFinite(Number(text))) value = Number(text);
  return { text, value };
}

function matches(value: unknown, want: Wanted): boolean {
  if (value === null || value === undefined || typeof value === 'object') return false;
  return value === want.value || String(value) === want.text;
}

/** Missing values sort last in either direction. */
function compare(a: unknown, b: unknown, sign: number): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  return sign * compareValues(a, b);
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * One page of `records` (already narrowed by the endpoint's named filters, whose
 * query names go in `named`).
 */
export function page(db: Db, kind: Kind, records: Rec[], query: URLSearchParams, named: string[] = []): Envelope {
  const fields: FieldsSpec | undefined = parseFields(query.get('fields'));
  const cap = fields?.deep ? MAX_DEEP_LIMIT : MAX_LIMIT;
  const limit = Math.min(nonNegativeInt(query, 'limit', 1) ?? MAX_LIMIT, cap);
  const offset = nonNegativeInt(query, 'offset', 0) ?? 0;
  const known = new Set(SCALARS[kind] ?? []);

  const filters = new Map<string, Wanted[]>();
  for (const [name, value] of query) {
    if (RESERVED.has(name) || named.includes(name)) continue;
    if (!known.has(name)) throw invalid(name, `unknown filter property "${name}" (a filter names a top-level scalar property of the record)`);
    filters.set(name, [...(filters.get(name) ?? []), wanted(value)]);
  }
  let result = records;
  if (filters.size > 0) {
    const checks = [...filters];
    result = result.filter((r) => checks.every(([name, values]) => values.some((v) => matches(r[name], v))));
  }

  const orderBy = query.get('orderBy');
  if (orderBy !== null && orderBy.trim() !== '') {
    const m = /^\s*([^\s]+)(?:\s+(asc|desc))?\s*$/i.exec(orderBy);
    if (!m) throw invalid('orderBy', `expected "<Property>" or "<Property> desc", got ${JSON.stringify(orderBy)}`);
    const prop = m[1]!;
    if (!known.has(prop)) throw invalid('orderBy', `unknown property "${prop}" (orderBy names a top-level scalar property of the record)`);
    const sign = m[2]?.toLowerCase() === 'desc' ? -1 : 1;
    result = [...result].sort((a, b) => compare(a[prop], b[prop], sign));
  }

  const start = offset * limit;
  const items = start >= result.length ? [] : result.slice(start, start + limit).map((r) => render(db, kind, r, fields));
  return { metadata: { limit, offset, total: result.length }, items };
}
