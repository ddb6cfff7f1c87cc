// --filter and --order-by against the fields the API reference lists for the resource
// (src/api/resource-fields.ts), before any request: what can never match is exit 2
// naming the flag, the field and its type; a name `bo` does not know is still sent (a
// tenant may know more) with the warning --fields gives, naming the nearest known field.
// D14: filters and orderBy take a top-level scalar property; values compare as text
// after reading true/false and numbers as JSON scalars.

import { UsageError } from '../errors.js';
import type { FieldRow } from '../api/resource-fields.js';
import { fieldsOf, isScalar, labelFieldOf, typeText, unknownFields, unknownNamesWarning, type UnknownField } from './fields.js';
import { filterSpecs, orderBySpec } from './list-options.js';
import { decimalValue } from './number.js';
import { checkUid } from './validate.js';

/** Where a name stands among the resource's fields. */
type Lookup = { kind: 'scalar'; row: FieldRow } | { kind: 'unknown'; unknown: UnknownField } | { kind: 'unchecked' };

const ONE_VALUE = 'a top-level field that holds one value (a string, number, boolean or date-time)';

/**
 * A top-level scalar, a name the reference does not list, or unchecked (a field whose
 * type it does not state). A known field that holds more than one value, or a path
 * into one (PrimaryContact.Email), is exit 2: D14 compares top-level scalars only.
 */
function lookUp(flag: string, verb: string, resource: string, name: string): Lookup {
  const [first] = name.split('.');
  const row = fieldsOf(resource).find((f) => f[0] === first);
  if (!row) {
    const [unknown] = unknownFields(resource, [name]);
    return unknown ? { kind: 'unknown', unknown } : { kind: 'unchecked' };
  }
  if (name !== first) throw new UsageError(`${flag} cannot ${verb} ${name} (a field of ${first}, not of ${resource}): it takes ${ONE_VALUE}`);
  if (row[1] === '') return { kind: 'unchecked' };
  if (row[2] !== undefined || !isScalar(row[1])) throw new UsageError(`${flag} cannot ${verb} ${name} (${typeText(row)}): it takes ${ONE_VALUE}`);
  return { kind: 'scalar', row };
}

/**
 * Exit 2 when `value` can never equal a value of the field's type: conservatively, as a
 * real tenant's values may differ from the document's. Strings take anything.
 */
function checkValue([name, type]: FieldRow, value: string): void {
  const flag = `--filter ${name}`;
  const shown = JSON.stringify(value);
  if (type === 'integer' || type === 'number') {
    // D14 reads numbers as JSON scalars: 2, 2.0 and 2e0 are all 2; an integer field is never 2.5.
    const decimal = decimalValue(value);
    const whole = decimal !== undefined && (decimal === '0' || !decimal.includes('e-'));
    if (type === 'number' ? decimal !== undefined : whole) return;
    throw new UsageError(`${flag} is ${type === 'integer' ? 'an integer' : 'a number'}, not ${shown}${labelHint(name, value)}`);
  }
  // D14 reads only true and false as booleans; any other text never equals one.
  if (type === 'boolean' && value !== 'true' && value !== 'false') throw new UsageError(`${flag} is a boolean (true or false), not ${shown}`);
  // Date-times are ISO 8601 text (§2) and compare as text: they start with the date.
  if (type === 'date-time' && !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new UsageError(`${flag} is a date-time (ISO 8601, as 2026-03-01T08:00:00Z), not ${shown}`);
  }
  // Uids are opaque, but never empty or with spaces, "/" or control characters.
  if (type === 'string' && /Uid$/.test(name)) checkUid(flag, value);
}

/**
 * For a code a table shows with its label ("2 Trialing"): that the filter takes the
 * number, and how to match the label instead.
 */
function labelHint(name: string, value: string): string {
  const label = labelFieldOf(name);
  // A number that is no integer (2.5) is no label either.
  if (!label || decimalValue(value) !== undefined) return '';
  const cell = /^\s*(\S+)\s+(\S.*?)\s*$/.exec(value);
  if (cell && decimalValue(cell[1]!) !== undefined) {
    return `: a table shows it with its label, so ${JSON.stringify(value)} is ${name}=${cell[1]} (or ${label}=${cell[2]})`;
  }
  return `: a table shows it with its label (as "2 Trialing" for ${name}=2); to match the label, use --filter ${label}=${value}`;
}

/**
 * Checks --filter and --order-by against `resource`'s fields: exit 2 (a UsageError) for
 * what can never match; the stderr warnings for names the reference does not list.
 */
export function listFieldWarnings(resource: string, opts: { filter?: string[]; orderBy?: string }): string[] {
  const unknownFilters: UnknownField[] = [];
  for (const { name, value } of filterSpecs(opts.filter)) {
    const found = lookUp('--filter', 'compare', resource, name);
    if (found.kind === 'scalar') checkValue(found.row, value);
    else if (found.kind === 'unknown' && !unknownFilters.some((u) => u.path === name)) unknownFilters.push(found.unknown);
  }
  const order = orderBySpec(opts.orderBy);
  const sortedBy = order && lookUp('--order-by', 'sort by', resource, order.name);
  const warnings = [
    unknownNamesWarning('--filter', resource, unknownFilters),
    sortedBy?.kind === 'unknown' ? unknownNamesWarning('--order-by', resource, [sortedBy.unknown]) : undefined,
  ];
  return warnings.filter((w) => w !== undefined);
}
