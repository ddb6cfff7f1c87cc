// What a mutation verb declares of each of its fields (its command definition's
// `fields`): the runner reads them from the flags and from each batch record (fields.ts,
// prepare.ts). Light: a verb file imports it at the top.

import type * as validate from '../input/validate.js';

/** The checks a field's parser uses (src/input/validate.ts), handed over when it runs. */
export type Validators = typeof validate;

/**
 * One field of a mutation verb: its flag, its name in the API, and the flag's parser.
 * The flags and the records of a `-` batch both go through it (fields.ts): a record may
 * name the field as the API does ("DueDate") or as the flag without dashes ("due").
 */
export interface MutationField {
  /** The flag, e.g. '--due'. */
  flag: string;
  /** The API's name of the field, e.g. 'DueDate': the key of its value in prepare()'s values. */
  api: string;
  /**
   * 'text' (the default): a string, or a number or boolean as its JSON text, in a record;
   * 'reference': a Uid, or {"Uid": …} in a record; 'json': any JSON value; 'boolean': a
   * flag without a value, true or false in a record.
   */
  kind?: 'text' | 'reference' | 'json' | 'boolean';
  /**
   * The flag's own check (label: the flag, or a record's line and key; `v`: the checks of
   * src/input, loaded when a command runs); not for booleans.
   */
  parse?: (label: string, text: string, v: Validators) => unknown;
  /** A boolean flag that sets the API's field to false (--clear ↔ IsPlanUpgradeRequired). */
  negates?: boolean;
}

/** Parsed field values by API name (MutationField.api). */
export type FieldValues = Record<string, unknown>;

