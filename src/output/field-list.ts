// `--fields`, `--filter` and `--order-by` on a command that prints records of one
// resource. `--fields` alone lists the resource's fields with their types (stdout, exit
// 0, nothing sent); with paths, it says once on stderr which of them the API reference
// does not list, and the nearest known names. --filter and --order-by are checked the
// same way (input/list-fields.ts), and a filter that can never match is exit 2. Unknown
// names are sent as given either way: a tenant may know more fields.

import type { Context } from '../context.js';
import { fieldListRows, unknownFieldsWarning } from '../input/fields.js';
import { listFieldWarnings } from '../input/list-fields.js';
import { FIELD_PATH } from '../input/list-options.js';
import { printList, warn } from './print.js';
import { listOf } from '../api/record-source.js';

/** The options as commander hands them over; a command has those it declares. */
export interface FieldFlags {
  fields?: unknown;
  filter?: string[];
  orderBy?: string;
}

/** True when the command's work is done (the list of fields was printed). */
export async function handleFieldFlags(ctx: Context, resource: string, opts: FieldFlags): Promise<boolean> {
  const { fields } = opts;
  if (fields === true) {
    await printList(ctx, listOf(fieldListRows(resource)), [
      { header: 'Field', get: (r) => r.field, fixed: true, verbatim: true },
      { header: 'Type', get: (r) => r.type, verbatim: true },
    ]);
    return true;
  }
  // A filter that can never match is exit 2 before any warning.
  const listWarnings = listFieldWarnings(resource, opts);
  // Malformed paths are the command's to refuse (exit 2); only well-formed ones are checked.
  const wellFormed = typeof fields === 'string' && fields.split(',').every((path) => FIELD_PATH.test(path.trim()));
  const fieldsWarning = wellFormed ? unknownFieldsWarning(resource, fields) : undefined;
  for (const warning of [fieldsWarning, ...listWarnings]) if (warning) warn(ctx, warning);
  return false;
}
