// `bo api` fields, as `gh api` reads them: `-f key=value` (always a string) and
// `-F key=value` (typed: true, false, null, a number, `@file`, `@-` for stdin), with
// nested keys `Account[Uid]=acc_1` → {"Account":{"Uid":"acc_1"}}, arrays
// `Uids[]=a -F Uids[]=b` → {"Uids":["a","b"]}, objects in arrays `Items[][Name]=x`
// (a key seen again starts the next object) and `Uids[]` alone for an empty array.
// The fields make one tree, which becomes a JSON body (typed values) or a query string
// (`a[b]=c`, `a[]=x`, the text as typed). A key given twice, or given as a value and as
// an object or list, is refused naming the field (exit 2): nothing is sent.

import { UsageError } from '../errors.js';
import { inexactError, sentExactly } from './number.js';

/** A value: typed (JSON) and the text a query carries; `field` names it in messages (`-F a[b]=1`). */
interface Leaf {
  kind: 'leaf';
  value: unknown;
  text: string;
  field: string;
}
interface ObjectNode {
  kind: 'object';
  entries: Map<string, FieldNode>;
}
interface ArrayNode {
  kind: 'array';
  items: FieldNode[];
}
type FieldNode = Leaf | ObjectNode | ArrayNode;

/** One field as typed: the flag (`-F`, `-f`), its key segments ('' for `[]`) and raw value. */
export interface ParsedField {
  flag: '-F' | '-f';
  /** As typed, for messages. */
  typed: string;
  /** `Account[Uid]` → ['Account', 'Uid']; `Uids[]` → ['Uids', '']. */
  keys: string[];
  /** The text after `=`; undefined for `key[]` alone (an empty array). */
  raw: string | undefined;
}

const KEY = /^([^[\]=]+)((?:\[[^[\]=]*\])*)$/;

/** Splits `key=value` (or `key[]` alone) into key segments and value text, checking the key's form. */
export function splitField(flag: '-F' | '-f', typed: string): ParsedField {
  const eq = typed.indexOf('=');
  const key = eq < 0 ? typed : typed.slice(0, eq);
  const raw = eq < 0 ? undefined : typed.slice(eq + 1);
  const name = flag === '-F' ? '-F/--field' : '-f/--raw-field';
  if (eq < 0 && !key.endsWith('[]')) throw new UsageError(`${name} must be key=value (or key[] for an empty list), got ${JSON.stringify(typed)}`);
  const m = KEY.exec(key);
  if (!m) {
    throw new UsageError(`${name} has a key ${JSON.stringify(key)} that is not name, name[key] or name[]: ${JSON.stringify(typed)}`);
  }
  const keys = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!)];
  if (keys.some((k, i) => k === '' && keys[i + 1] === '')) {
    throw new UsageError(`${name} ${JSON.stringify(typed)} asks for a list of lists, which fields cannot make; give the body with --input`);
  }
  return { flag, typed, keys, raw };
}

/** The typed value of `-F` text; `read` turns `@file` / `@-` into the text read. */
export async function typedLeaf(f: ParsedField, read: (source: string) => Promise<string>): Promise<Leaf | undefined> {
  const raw = f.raw;
  if (raw === undefined) return undefined;
  const field = `${f.flag} ${f.typed}`;
  if (f.flag === '-f') return { kind: 'leaf', value: raw, text: raw, field };
  if (raw.startsWith('@')) {
    const text = await read(raw.slice(1));
    return { kind: 'leaf', value: text, text, field };
  }
  const literals: Record<string, unknown> = { true: true, false: false, null: null };
  if (Object.hasOwn(literals, raw)) return { kind: 'leaf', value: literals[raw], text: raw, field };
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw)) return { kind: 'leaf', value: Number(raw), text: raw, field };
  return { kind: 'leaf', value: raw, text: raw, field };
}

/** The fields, in order, as one tree (gh's rules); `leaves[i]` is field i's value (undefined: an empty list). */
export function fieldTree(fields: ParsedField[], leaves: Array<Leaf | undefined>): ObjectNode {
  const root: ObjectNode = { kind: 'object', entries: new Map() };
  fields.forEach((f, i) => place(root, f, leaves[i]));
  return root;
}

function conflict(f: ParsedField, path: string, was: FieldNode, wanted: string): UsageError {
  const what = was.kind === 'leaf' ? `a value (${was.field})` : was.kind === 'array' ? 'a list' : 'an object';
  return new UsageError(`${f.flag} ${f.typed}: ${path} is already ${what}; it cannot also be ${wanted}`);
}

function place(root: ObjectNode, f: ParsedField, leaf: Leaf | undefined): void {
  let dest = root;
  let isArray = false;
  let subkey: string | undefined;
  let path = '';
  for (const k of f.keys) {
    if (k === '') {
      isArray = true;
      continue;
    }
    if (subkey !== undefined) {
      const here = `${path}${isArray ? '[]' : ''}`;
      dest = isArray ? objectInArray(dest, subkey, k, f, path) : childObject(dest, subkey, f, path);
      path = `${here}[${k}]`;
      isArray = false;
    } else {
      path = k;
    }
    subkey = k;
  }
  const key = subkey!;
  const existing = dest.entries.get(key);
  if (isArray) {
    if (existing && existing.kind !== 'array') throw conflict(f, path, existing, 'a list');
    const list: ArrayNode = existing ?? { kind: 'array', items: [] };
    if (leaf) list.items.push(leaf);
    dest.entries.set(key, list);
    return;
  }
  if (existing) {
    if (existing.kind === 'leaf') {
      throw new UsageError(`${f.flag} ${f.typed}: ${path} is already given (${existing.field}); to send a list, name it ${path}[] each time`);
    }
    throw conflict(f, path, existing, 'a value');
  }
  dest.entries.set(key, leaf!);
}

function childObject(dest: ObjectNode, key: string, f: ParsedField, path: string): ObjectNode {
  const existing = dest.entries.get(key);
  if (existing === undefined) {
    const made: ObjectNode = { kind: 'object', entries: new Map() };
    dest.entries.set(key, made);
    return made;
  }
  if (existing.kind !== 'object') throw conflict(f, path, existing, 'an object');
  return existing;
}

/** `key[][next]`: the list's last object, or a new one when it already has `next` (as gh does). */
function objectInArray(dest: ObjectNode, key: string, next: string, f: ParsedField, path: string): ObjectNode {
  const existing = dest.entries.get(key);
  if (existing !== undefined && existing.kind !== 'array') throw conflict(f, path, existing, 'a list');
  const list: ArrayNode = existing ?? { kind: 'array', items: [] };
  dest.entries.set(key, list);
  const last = list.items.at(-1);
  if (last?.kind === 'object') {
    const taken = last.entries.get(next);
    if (taken === undefined || taken.kind === 'array') return last;
  } else if (last !== undefined) {
    throw new UsageError(`${f.flag} ${f.typed}: ${path}[] already holds values; it cannot also hold objects`);
  }
  const made: ObjectNode = { kind: 'object', entries: new Map() };
  list.items.push(made);
  return made;
}

/** The tree as a JSON body; a number goes only if the body carries the value typed (input/number.ts). */
export function jsonOf(node: FieldNode): unknown {
  if (node.kind === 'object') return Object.fromEntries([...node.entries].map(([k, v]) => [k, jsonOf(v)]));
  if (node.kind === 'array') return node.items.map(jsonOf);
  if (typeof node.value === 'number' && !sentExactly(node.text, node.value)) {
    throw inexactError(node.field, node.text, 'to send the digits as a string, use -f, or give the body as JSON with --input');
  }
  return node.value;
}

/** The tree as query parameters, in order: `a[b]=c`, `a[]=x`, values as typed; an empty list adds nothing. */
export function appendQuery(query: URLSearchParams, node: ObjectNode): void {
  const walk = (prefix: string, n: FieldNode) => {
    if (n.kind === 'leaf') query.append(prefix, n.text);
    else if (n.kind === 'array') for (const item of n.items) walk(`${prefix}[]`, item);
    else for (const [k, v] of n.entries) walk(prefix === '' ? k : `${prefix}[${k}]`, v);
  };
  walk('', node);
}
