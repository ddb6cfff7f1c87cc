// `--fields` on a command that prints records of one resource: alone, it lists the
// resource's fields with their types (stdout, exit 0, nothing sent); with paths, it says
// once on stderr which of them the API reference does not list, and the nearest known
// names. The paths are sent as given either way: a tenant may know more fields.

import type { Context } from '../context.js';
import { fieldListRows, unknownFieldsWarning } from '../input/fields.js';
import { FIELD_PATH } from '../input/list-options.js';
import { printList, warn } from './print.js';

/** True when the command's work is done (the list was printed). */
export async function handleFieldsFlag(ctx: Context, resource: string, fields: string | true): Promise<boolean> {
  if (fields === true) {
    await printList(ctx, fieldListRows(resource), [
      { header: 'Field', get: (r) => r.field, fixed: true, verbatim: true },
      { header: 'Type', get: (r) => r.type, verbatim: true },
    ]);
    return true;
  }
  // Malformed paths are the command's to refuse (exit 2); only well-formed ones are checked.
  if (fields.split(',').every((path) => FIELD_PATH.test(path.trim()))) {
    const warning = unknownFieldsWarning(resource, fields);
    if (warning) warn(ctx, warning);
  }
  return false;
}
