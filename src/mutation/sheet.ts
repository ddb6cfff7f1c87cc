// A spreadsheet as batch input (D35): a CSV or TSV whose first row names the columns,
// one row per record. It is taken as a sheet when --input-format says csv or tsv, or
// when the first line holds a `;`, `,` or tab and a column named as the record's key
// (`Uid`, or the verb's key). Cells are read as Excel writes them:
// quoted when they hold the separator, a quote (doubled) or a line break; a byte order
// mark and CRLF line ends. Each column is, by its heading (any case): the key; a field
// the verb changes (by API name or flag name, checked as a JSON Lines record's); a field
// of the resource the verb does not change, or a column the verb declares as context
// (`Account` for a deal), ignored and named once in a note; or one of `bo`'s own result
// columns (`bo_row`, `bo_outcome`, `bo_code`, `bo_message`, outcomes-file.ts), ignored.
// Any other heading is exit 2, naming it, before anything is sent. An empty cell leaves
// its field unchanged. A secret field's cell written as `***` (an outcomes file never
// holds a secret) makes its row invalid: it cannot be sent again from the file.

import { UsageError } from '../errors.js';
import { didYouMean } from '../help/suggest.js';
import { recordFieldNames } from '../input/fields.js';
import type { MutationField } from './field.js';
import { recordNameOf } from './fields.js';
import type { INPUT_FORMAT_CHOICES } from './flags.js';

export type InputFormat = (typeof INPUT_FORMAT_CHOICES)[number];

/** `bo`'s own columns in an outcomes file, after the input's. */
export const RESULT_COLUMNS = ['bo_row', 'bo_outcome', 'bo_code', 'bo_message'] as const;

/** The words of `bo_outcome`. */
export const OUTCOME_WORDS = ['done', 'skipped', 'failed', 'invalid', 'not attempted', 'unknown'] as const;
export type OutcomeWord = (typeof OUTCOME_WORDS)[number];

/** What the reader needs to know of the verb to read a sheet. */
export interface SheetRules {
  format?: InputFormat;
  key: string;
  alias?: string;
  fields: readonly MutationField[];
  resource?: string;
  /** Further columns the verb's rows may carry (a deal's `Account`): ignored. */
  context?: readonly string[];
  /** Only the rows whose `bo_outcome` is this (an outcomes file fed back): the others are passed over. */
  only?: OutcomeWord;
}

/** A sheet as its header row made it: its separator, its columns, and whether it began with a byte order mark. */
export interface Sheet {
  separator: string;
  columns: string[];
  bom: boolean;
}

/** How each column is read. */
type Column = { kind: 'key' } | { kind: 'field'; field: MutationField } | { kind: 'ignored' } | { kind: 'result' };

/**
 * The cells of one row, or undefined when a quoted cell is still open at the end of
 * `text` (its line break is data: the row goes on on the next line).
 */
export function splitRow(text: string, separator: string): string[] | undefined {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  let start = true;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += c;
      i++;
      continue;
    }
    if (c === '"' && start) {
      quoted = true;
      start = false;
      i++;
      continue;
    }
    if (c === separator) {
      cells.push(cell);
      cell = '';
      start = true;
      i++;
      continue;
    }
    cell += c;
    start = false;
    i++;
  }
  if (quoted) return undefined;
  cells.push(cell);
  return cells;
}

/**
 * The separator of a sheet whose first line is `text`, or undefined when it is no sheet
 * (the lines are read one value a line or as JSON Lines, as before).
 */
export function sheetSeparator(text: string, rules: SheetRules): string | undefined {
  if (rules.format === 'lines' || rules.format === 'jsonl') return undefined;
  if (rules.format === 'tsv') return '\t';
  const counts = ([';', ',', '\t'] as const).map((sep) => [sep, (splitRow(text, sep) ?? []).length] as const);
  const [best, cells] = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  const separator = cells > 1 ? best : undefined;
  if (rules.format === 'csv') return separator === '\t' || separator === undefined ? ',' : separator;
  if (separator === undefined) return undefined;
  const names = (splitRow(text, separator) ?? []).map((c) => c.trim().toLowerCase());
  return names.some((n) => n === rules.key.toLowerCase() || n === rules.alias?.toLowerCase()) ? separator : undefined;
}

/**
 * The header row's columns, each classified; throws UsageError (exit 2, nothing sent)
 * naming a column that is none of them, or a sheet with no key column. `ignored`: the
 * headings read and not used, for the note.
 */
export function sheetColumns(columns: readonly string[], rules: SheetRules): { read: Column[]; ignored: string[] } {
  const resource = new Set([...recordFieldNames(rules.resource)].map((n) => n.toLowerCase()));
  const context = new Set((rules.context ?? []).map((n) => n.toLowerCase()));
  const keys = [rules.key, rules.alias].filter((k): k is string => k !== undefined).map((k) => k.toLowerCase());
  const ignored: string[] = [];
  const seen = new Map<string, string>();
  const read = columns.map((heading): Column => {
    const name = heading.trim();
    const lower = name.toLowerCase();
    const known = seen.get(lower);
    if (known !== undefined) throw new UsageError(`the input's header names the column ${JSON.stringify(name)} twice`);
    seen.set(lower, name);
    if (keys.includes(lower)) return { kind: 'key' };
    if ((RESULT_COLUMNS as readonly string[]).includes(lower)) return { kind: 'result' };
    const field = rules.fields.find((f) => f.api.toLowerCase() === lower || recordNameOf(f.flag).toLowerCase() === lower);
    if (field) return { kind: 'field', field };
    if (resource.has(lower) || context.has(lower) || name === '') {
      if (name !== '') ignored.push(name);
      return { kind: 'ignored' };
    }
    const names = [rules.key, ...rules.fields.flatMap((f) => [f.api, recordNameOf(f.flag)])];
    const takes = rules.fields.length === 0 ? `this command's rows carry only ${rules.key}` : `a row may carry ${rules.key} and ${rules.fields.map((f) => `${f.api} (or ${recordNameOf(f.flag)})`).join(', ')}`;
    throw new UsageError(`the input's column ${JSON.stringify(name)} is not a field of this command${didYouMean(name, names)}; ${takes}`);
  });
  if (!read.some((c) => c.kind === 'key')) throw new UsageError(`the input's header has no ${rules.key} column: a sheet names each row's ${rules.key} in one`);
  return { read, ignored };
}

/** What a sheet's row is for the runner: its target and fields, why it is invalid, or nothing (passed over by --only). */
export type SheetRow = { target: string; record: Record<string, unknown> } | { error: string } | undefined;

/** One row's record: its key's cell, and each field's cell that is not empty (a boolean field's `true`/`false` as a boolean). */
export function sheetRow(cells: readonly string[], read: readonly Column[], sheet: Sheet, rules: SheetRules): SheetRow {
  if (rules.only !== undefined) {
    const at = sheet.columns.findIndex((c) => c.trim().toLowerCase() === 'bo_outcome');
    if ((cells[at] ?? '').trim() !== rules.only) return undefined;
  }
  if (cells.length > read.length && cells.slice(read.length).some((c) => c.trim() !== '')) {
    return { error: `${cells.length} cells, more than the header's ${read.length} columns` };
  }
  let target: string | undefined;
  const record: Record<string, unknown> = {};
  for (const [i, column] of read.entries()) {
    const cell = cells[i] ?? '';
    if (column.kind === 'key') target = cell.trim();
    if (column.kind !== 'field' || cell === '') continue;
    const { field } = column;
    if (field.secret && cell === '***') return { error: `${field.api} is a secret written as *** (an outcomes file never holds one): give its value again` };
    record[field.api] = field.form === 'boolean' || field.form === 'toggle' ? booleanOf(cell) : cell;
  }
  if (target === undefined || target === '') return { error: `no ${rules.key} in its ${rules.key} column` };
  return { target, record };
}

/** A boolean cell as Excel or a person writes it; anything else is left as text, which the field's check refuses. */
function booleanOf(cell: string): unknown {
  const lower = cell.trim().toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : cell;
}

/** --only's value as a bo_outcome word. */
export const onlyWord = (only: string): OutcomeWord => (only === 'not-attempted' ? 'not attempted' : (only as OutcomeWord));

/** The first line of a sheet: the --only filter needs a bo_outcome column. */
export function checkOnly(sheet: Sheet, rules: SheetRules): void {
  if (rules.only === undefined) return;
  if (!sheet.columns.some((c) => c.trim().toLowerCase() === 'bo_outcome')) {
    throw new UsageError(`--only ${rules.only}: the input has no bo_outcome column (give an outcomes file written by --outcomes)`);
  }
}
