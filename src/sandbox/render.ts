// How a stored record goes on the wire (D16). Default: the record and its immediate
// children; anything deeper is null, and a reference back to a kind already on the
// path is {} or []. With `fields`: Uid plus the requested paths; `X.*` is X's own
// scalar fields; unknown paths are dropped silently.

import type { Db } from './db.js';
import { relationsOf, type Kind, type Rec, type Relation } from './schema.js';

export type FieldTree = Map<string, FieldTree | true>;

export interface FieldsSpec {
  tree: FieldTree;
  /** A dotted path or `*`: D13 caps the page at 25. */
  deep: boolean;
}

export function parseFields(text: string | null): FieldsSpec | undefined {
  if (text === null || text.trim() === '') return undefined;
  const tree: FieldTree = new Map();
  let deep = false;
  for (const raw of text.split(',')) {
    const parts = raw.trim().split('.').filter((p) => p !== '');
    if (parts.length === 0) continue;
    if (parts.length > 1 || parts[0] === '*') deep = true;
    let node = tree;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const existing = node.get(part);
      if (last) {
        if (existing === undefined) node.set(part, true);
        return;
      }
      if (existing instanceof Map) node = existing;
      else {
        const child: FieldTree = new Map();
        node.set(part, child);
        node = child;
      }
    });
  }
  return { tree, deep };
}

export function render(db: Db, kind: Kind, rec: Rec, fields?: FieldsSpec): Record<string, unknown> {
  return fields ? renderPicked(db, kind, rec, fields.tree) : renderDefault(db, kind, rec, 1, [kind]);
}

function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}

/** Each kind's relations as a list, made once: rendering walks them for every record. */
const relationLists = new Map<Kind, Array<[string, Relation]>>();
function relationList(kind: Kind): Array<[string, Relation]> {
  let list = relationLists.get(kind);
  if (!list) relationLists.set(kind, (list = Object.entries(relationsOf(kind))));
  return list;
}

/**
 * Written for a cold process: `bo --sandbox accounts list` renders a page once, mostly
 * in V8's interpreter. for…in instead of Object.entries (no [key, value] array per
 * field) and one path array per record instead of one per child: measured on Node 20,
 * a page of 60 accounts with their children went from ~19 ms to ~11 ms. The children
 * (most of the calls) go through the small renderShallow: the function V8 finds hot
 * and optimises in the background is then quick to compile, and a process that has
 * printed its answer does not wait for a long compile job of renderDefault to exit
 * (measured: ~20 ms of a run, more on a busy machine).
 */
function renderDefault(db: Db, kind: Kind, rec: Rec, depth: number, path: Kind[]): Record<string, unknown> {
  if (depth < 1) return renderShallow(kind, rec, path);
  const relations = relationsOf(kind);
  const out: Record<string, unknown> = {};
  // A stored record is a plain object (JSON.parse, or spread by a handler): for…in sees
  // its own keys only, in the order Object.entries gives.
  for (const key in rec) {
    if (!relations[key]) out[key] = rec[key];
  }
  let inner: Kind[] | undefined;
  for (const [key, rel] of relationList(kind)) {
    if (path.includes(rel.kind)) {
      out[key] = rel.type === 'one' ? (rec[key] == null ? null : {}) : [];
      continue;
    }
    const related = db.related(kind, rec, key);
    inner ??= [...path, kind];
    if (related == null) out[key] = null;
    else if (Array.isArray(related)) {
      const list: Array<Record<string, unknown>> = [];
      for (const r of related) list.push(renderDefault(db, rel.kind, r, depth - 1, inner));
      out[key] = list;
    } else out[key] = renderDefault(db, rel.kind, related, depth - 1, inner);
  }
  return out;
}

/** The last level: own fields with objects as null; relations null, or {} / [] back to a kind on the path. */
function renderShallow(kind: Kind, rec: Rec, path: Kind[]): Record<string, unknown> {
  const relations = relationsOf(kind);
  const out: Record<string, unknown> = {};
  for (const key in rec) {
    if (relations[key]) continue;
    const value = rec[key];
    out[key] = value !== null && typeof value === 'object' ? null : value;
  }
  for (const [key, rel] of relationList(kind)) {
    out[key] = !path.includes(rel.kind) ? null : rel.type === 'one' ? (rec[key] == null ? null : {}) : [];
  }
  return out;
}

function scalarsOf(rec: Rec): Record<string, unknown> {
  const out: Record<string, unknown> = { Uid: rec.Uid };
  for (const [key, value] of Object.entries(rec)) if (!isObject(value)) out[key] = value;
  return out;
}

function renderPicked(db: Db, kind: Kind, rec: Rec, tree: FieldTree): Record<string, unknown> {
  const relations = relationsOf(kind);
  let out: Record<string, unknown> = { Uid: rec.Uid };
  for (const [key, sub] of tree) {
    if (key === '*') {
      out = { ...out, ...scalarsOf(rec) };
      continue;
    }
    const rel = relations[key];
    if (rel) {
      const related = db.related(kind, rec, key);
      const one = (r: Rec) => (sub === true ? scalarsOf(r) : renderPicked(db, rel.kind, r, sub));
      out[key] = related == null ? null : Array.isArray(related) ? related.map(one) : one(related);
    } else if (key in rec) {
      out[key] = sub === true ? rec[key] : pickEmbedded(rec[key], sub);
    }
  }
  return out;
}

/** A dotted path into an embedded object (an address, a Campaign, a Message). */
function pickEmbedded(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((v) => pickEmbedded(v, tree));
  if (!isObject(value)) return value === undefined ? null : value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (key === '*') {
      for (const [k, v] of Object.entries(obj)) if (!isObject(v)) out[k] = v;
    } else if (key in obj) {
      out[key] = sub === true ? obj[key] : pickEmbedded(obj[key], sub);
    }
  }
  return out;
}
