// The fields a mutation verb declares (types.ts MutationField): read once from its flags,
// and from each JSON Lines record of a `-` batch, where a field may be named as the API
// names it ("Amount") or as its flag without dashes ("amount"). Both go through the
// flag's own parser, so a record's value is checked exactly as the flag's is; a record
// never reads a file (`@file` is the command line's). The values are keyed by the API
// name, which is what the verb's prepare() turns into its request.

import { UsageError } from '../errors.js';
import { jsonText } from '../api/neutralise.js';
import { didYouMean } from '../help/suggest.js';
import { decimalValue, inexactError } from '../input/number.js';
import type { FieldValues, MutationField, Validators } from './field.js';
import { attributeName } from '../input/declare.js';

/** `--assigned-to` → `assigned-to`: the name a batch record may give the flag. */
export const recordNameOf = (flag: string) => flag.replace(/^--/, '');

/** The values of the flags given, parsed and checked (UsageError naming the flag). */
export async function flagValues(fields: readonly MutationField[], flags: object, v: Validators): Promise<FieldValues> {
  const given = flags as Record<string, unknown>;
  const values: FieldValues = {};
  for (const field of fields) {
    const raw = given[attributeName(field.flag)];
    if (raw === undefined) continue;
    // A toggle's `--no-x` is false; a switch not given is false and leaves the field out.
    if (field.form === 'toggle') values[field.api] = raw === true;
    else if (raw === false) continue;
    else if (field.form === 'boolean') values[field.api] = field.negates ? raw !== true : raw === true;
    else values[field.api] = await field.parse!(field.flag, String(raw), v);
  }
  return values;
}

/**
 * The verb's fields in a batch record. `ignored` are the field names of the resource's
 * own record (what `bo --jsonl … list` prints): carried along, not the verb's, ignored.
 * Any other key is refused, naming it. Throws UsageError with `where` ("line 3") first.
 */
export async function recordValues(
  fields: readonly MutationField[],
  record: Record<string, unknown>,
  where: string,
  target: { recordKey: string; recordAlias?: string },
  ignored: ReadonlySet<string>,
  v: Validators,
): Promise<FieldValues> {
  const key = target.recordKey;
  const values: FieldValues = {};
  const namedAs = new Map<string, string>();
  for (const [name, value] of Object.entries(record)) {
    if (name === key || name === target.recordAlias) continue;
    const field = fields.find((f) => f.api === name || recordNameOf(f.flag) === name);
    if (!field) {
      if (ignored.has(name)) continue;
      const names = fields.flatMap((f) => [f.api, recordNameOf(f.flag)]);
      throw new UsageError(`${where}: unknown key ${shown(name)}${didYouMean(name, names)}; ${takes(fields, key)}`);
    }
    const other = namedAs.get(field.api);
    if (other !== undefined) throw new UsageError(`${where}: ${jsonText(other)} and ${jsonText(name)} name the same field; give one`);
    namedAs.set(field.api, name);
    const label = `${where}: ${name}`;
    if (field.form === 'boolean' || field.form === 'toggle') {
      if (typeof value !== 'boolean') throw new UsageError(`${label} must be true or false, not ${shown(value)}`);
      values[field.api] = field.negates && name !== field.api ? !value : value;
      continue;
    }
    values[field.api] = await field.parse!(label, textOf(field, label, value), v);
  }
  return values;
}

/** A value in a message: as JSON, cut short (a record line may hold 64 KiB). */
function shown(value: unknown): string {
  const text = jsonText(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A record's value as the text its flag would have been given. */
function textOf(field: MutationField, label: string, value: unknown): string {
  if (field.form === 'json') return JSON.stringify(value);
  if (field.form === 'reference') {
    const uid = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).Uid : value;
    if (typeof uid !== 'string') throw new UsageError(`${label} must be a Uid or {"Uid": "…"}, not ${shown(value)}`);
    return uid;
  }
  // Text from a record is taken as it is: "@notes.txt" is that text, never a file.
  if (typeof value === 'string') return value.startsWith('@') ? `@${value}` : value;
  if (typeof value === 'number') {
    // JSON.parse has already made the record's digits a double: past 15 significant
    // digits (or 2^53 for whole numbers) that may not be the number written, so it is
    // refused rather than sent rounded, as the flag's own check would.
    const text = JSON.stringify(value);
    const digits = decimalValue(text)!.replace(/^-/, '').split('e')[0]!.length;
    if (digits > 15 || (Number.isInteger(value) && !Number.isSafeInteger(value))) throw inexactError(`${label} ${text}`, text);
    return text;
  }
  if (typeof value === 'boolean') return JSON.stringify(value);
  throw new UsageError(`${label} must be text or a number, not ${shown(value)}`);
}

/** What a record of this verb may carry, for the message about an unknown key. */
function takes(fields: readonly MutationField[], key: string): string {
  if (fields.length === 0) return `a record of this command carries only "${key}" (and the fields of the record it names)`;
  return `a record may carry "${key}" and ${fields.map((f) => `${f.api} (or ${recordNameOf(f.flag)})`).join(', ')}`;
}

/** The words of "nothing to change" for a verb that needs at least one field. */
export function nothingToChange(fields: readonly MutationField[], inRecord = false): string {
  return `nothing to change: give at least one of ${fields.map((f) => f.flag).join(', ')}${inRecord ? ', or the field in the record' : ''}`;
}
