// CSV (RFC 4180) for --csv: a header row, then one row per record, CRLF line ends, a
// field quoted when it holds a comma, a quote, CR or LF. Text is neutralised as for a
// table, except that tab, CR and LF are data here (quoted, so they cannot break a row).
//
// The values come from customers (account and person names). A spreadsheet runs a
// cell that begins with =, +, -, @, tab or CR as a formula, so such a string value gets
// a leading ' (as OWASP advises for CSV exports); numbers stay numbers. The separator
// is a comma unless --csv-separator or the profile's csv-separator says `;` or tab (as
// the spreadsheet's locale reads it); --bom or csv-bom starts the output with a UTF-8
// byte order mark, which Excel needs to read non-ASCII text as UTF-8.

import { jsonText, neutraliseKeeping } from '../api/neutralise.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES: Record<string, RegExp> = { ',': /[",\r\n]/, ';': /[";\r\n]/, '\t': /["\t\r\n]/ };

/** How --csv writes: the separator and whether a byte order mark starts the output. */
export interface CsvFormat {
  separator: string;
  bom: boolean;
}

export const CSV_DEFAULT: CsvFormat = { separator: ',', bom: false };
export const UTF8_BOM = '\ufeff';

/**
 * One field, escaped and, for a formula-like string, defused. Dates stay ISO 8601 as
 * the API sent them. A list or a record left in a cell is written whole as compact
 * JSON (a table shortens it; an export must not), its hostile characters escaped.
 */
export function csvField(value: unknown, separator = ','): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') {
    text = neutraliseKeeping(value);
    if (FORMULA_START.test(text)) text = `'${text}`;
  } else if (typeof value === 'object') text = jsonText(value);
  else text = String(value);
  return (NEEDS_QUOTES[separator] ?? NEEDS_QUOTES[',']!).test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: unknown[], format: CsvFormat = CSV_DEFAULT): string {
  return `${values.map((v) => csvField(v, format.separator)).join(format.separator)}\r\n`;
}

/**
 * A record's properties by path: nested records flattened (`Plan.Name`), a list kept
 * whole in its cell. Used for the one-record view, whose columns are its properties.
 */
export function flattenRecord(record: unknown, prefix = ''): Array<[string, unknown]> {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return [[prefix || 'Value', record]];
  const pairs: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(record as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) pairs.push(...flattenRecord(value, path));
    else pairs.push([path, value]);
  }
  return pairs;
}
