// The fields of the API's resources as the reference documents them (generated into
// src/api/resource-fields.ts): the rows `--fields` alone lists, the check of the paths
// `--fields` names (an unknown one is still sent: a tenant may know more, but `bo` says
// which it does not know, and the nearest known names), and the field names of a
// resource's record that a batch record may carry without being one of the verb's.

import { RESOURCE_FIELDS, type FieldRow } from '../api/resource-fields.js';
import { nearest } from '../help/suggest.js';

/** The fields of `resource`: the base fields every record carries, then its own. */
export function fieldsOf(resource: string): FieldRow[] {
  const own = RESOURCE_FIELDS[resource] ?? [];
  return isRecord(resource, own) ? [...(RESOURCE_FIELDS['*'] ?? []), ...own] : [...own];
}

/**
 * Whether `resource` is a record, with the base fields (Uid …): every named resource;
 * an unnamed nested object (Parent.Field) when it refers to a record itself, as a
 * deal's DealPipelineStage does (its Deals), so `Deals.DealPipelineStage.Uid` is a
 * known path. One that refers to none (an email's Campaign, a person's ChatUser) is no
 * record: it has no base fields.
 */
function isRecord(resource: string, own: readonly FieldRow[]): boolean {
  return !resource.includes('.') || own.some(([, , holds]) => holds !== undefined && !holds.includes('.'));
}

/** The type as a person reads it: `Person`, `array of Subscription`, `object`, `not stated`. */
export function typeText([, type, holds]: FieldRow): string {
  if (holds === undefined) return type === '' ? 'not stated' : type;
  const shown = holds.includes('.') ? 'object' : holds;
  return type === 'array' ? `array of ${shown}` : shown;
}

export interface FieldListRow {
  field: string;
  type: string;
}

/**
 * What `--fields` alone prints: every field of `resource`, then the fields of each
 * resource it holds, one level down, as the dotted paths `--fields` takes
 * (PrimaryContact.Email).
 */
export function fieldListRows(resource: string): FieldListRow[] {
  const top = fieldsOf(resource);
  const rows: FieldListRow[] = top.map((row) => ({ field: row[0], type: typeText(row) }));
  for (const [name, , holds] of top) {
    if (holds === undefined) continue;
    for (const row of fieldsOf(holds)) rows.push({ field: `${name}.${row[0]}`, type: typeText(row) });
  }
  return rows;
}

export interface UnknownField {
  /** The path as given. */
  path: string;
  /** The first segment bo does not know. */
  name: string;
  /** The nearest known paths (the unknown segment replaced); empty when nothing is close. */
  nearest: string[];
}

/**
 * The paths of `--fields` with a segment the reference does not list, checked segment by
 * segment: `*` selects every field of an object, and a segment under a field whose
 * shape the reference does not give (an object without fields, a type not stated) is
 * not checked.
 */
export function unknownFields(resource: string, paths: string[]): UnknownField[] {
  const unknown: UnknownField[] = [];
  for (const path of paths) {
    const segments = path.split('.');
    // The resource the next segment is a field of; null under a scalar (it holds no
    // fields); undefined where the reference does not say.
    let holder: string | null | undefined = resource;
    for (let i = 0; i < segments.length && holder !== undefined; i++) {
      const name = segments[i]!;
      if (name === '*') break;
      const fields: FieldRow[] = holder === null ? [] : fieldsOf(holder);
      const row = fields.find((f) => f[0] === name);
      if (row) {
        holder = row[2] ?? (isScalar(row[1]) ? null : undefined);
        continue;
      }
      const prefix = segments.slice(0, i).join('.');
      const near = nearestFields(name, fields.map((f) => f[0])).map((n) => (prefix ? `${prefix}.${n}` : n));
      unknown.push({ path, name, nearest: near });
      break;
    }
  }
  return unknown;
}

/** Edits, as a share of the longer name, that still read as a typo (Nmae → Name, Emial → Email). */
const FIELD_TYPO_RATIO = 0.4;
/** Shorter names are too common an ending (Id, Url) to point at one field. */
const MIN_LAST_WORDS = 4;
const MAX_LAST_WORDS = 3;

/**
 * The known names nearest `name`: a typo of one (stricter than for commands: field names
 * are many and alike, so two edits in a short name, Nope → Nonce, is another word); else
 * the names it is the last words of, as a table header often is (Stage → AccountStage).
 */
function nearestFields(name: string, names: string[]): string[] {
  const typo = nearest(name, names, FIELD_TYPO_RATIO);
  if (typo.length > 0 || name.length < MIN_LAST_WORDS) return typo;
  const tail = name.toLowerCase();
  const ending = names.filter((n) => {
    const start = n.length - name.length;
    // Whole words only: the match starts where a capital starts a word (Account|Stage).
    return start > 0 && n.toLowerCase().endsWith(tail) && /[A-Z]/.test(n[start]!);
  });
  return ending.length <= MAX_LAST_WORDS ? ending : [];
}

/** The types that hold one value: what a filter compares and a list sorts by (D14). */
export const isScalar = (type: string) => ['string', 'integer', 'boolean', 'number', 'date-time'].includes(type);

/** The one stderr line about unknown --fields paths, or undefined when every path is known. */
export function unknownFieldsWarning(resource: string, fields: string): string | undefined {
  const paths = fields.split(',').map((p) => p.trim()).filter(Boolean);
  return unknownNamesWarning('--fields', resource, unknownFields(resource, paths));
}

/**
 * The one stderr line naming the names `flag` gave that the reference does not list,
 * each with the nearest known ones; undefined when there are none.
 */
export function unknownNamesWarning(flag: string, resource: string, unknown: UnknownField[]): string | undefined {
  if (unknown.length === 0) return undefined;
  const named = unknown.map((u) => (u.nearest.length ? `${u.path} (nearest: ${u.nearest.join(' or ')})` : `${u.path} (nothing close)`));
  return `${flag}: ${resource} has no known field${unknown.length === 1 ? '' : 's'} ${named.join(', ')}; sent as given`;
}

/**
 * The integer codes the API sends with their label beside them, code → label field
 * (AccountStage → AccountStageLabel): every integer field with a `…Label` field next to
 * it. The label is the API's, never a list of bo's (DECISIONS "Integer codes").
 */
const LABELS: ReadonlyMap<string, string> = new Map(
  Object.values(RESOURCE_FIELDS).flatMap((rows) =>
    rows.filter(([name, type]) => type === 'integer' && rows.some(([other]) => other === `${name}Label`)).map(([name]) => [name, `${name}Label`] as const),
  ),
);

/** The field holding the label of the code `name` (AccountStage → AccountStageLabel), or undefined. */
export function labelFieldOf(name: string): string | undefined {
  return LABELS.get(name);
}

/** Every field name of `resource`'s record (base fields included), for batch records. */
export function recordFieldNames(resource: string | undefined): Set<string> {
  return new Set(fieldsOf(resource ?? '').map((f) => f[0]));
}
