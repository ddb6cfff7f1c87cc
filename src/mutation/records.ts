// Batch input: stdin read chunk by chunk, one value a line or JSON Lines records carrying
// the value under a key (Uid, Email) and maybe the verb's fields (prepare.ts). A plain
// line's first tab-separated field is the value, so `bo`'s own piped rows need no
// `cut`. Blank lines and `#` comments are skipped, and so is a first line that is a
// column header (`Uid`, `id`, a field name of the resource); a malformed line is an
// error record, so the runner reports it and sends nothing for it. A spreadsheet's CSV
// (`sa_1;Globex`, `"sa_1"`) is such a line, named as CSV: its `;` would otherwise go
// out URL-encoded inside one Uid. Lines are cut by the one line reader
// (src/input/read-text.ts): linear, and a line over MAX_LINE_BYTES is only counted,
// never held. Each line is decoded on its own, as UTF-8 that must be valid; stdin that
// starts with a UTF-16 or UTF-32 byte order mark (Excel's "Unicode text"), or whose
// first line is UTF-16 without one, is refused whole (exit 2), as no line of it could be
// read. A UTF-8 byte order mark starts the input or nowhere: one on a later line (files
// joined with cat) makes that line invalid, as any other malformed line. A first line
// that is not a valid value (a heading such as "Add-on ID": a space, a `/`, a `;`) is
// a column header too when the next record's line is valid (D35): a column cut from an
// export with any heading goes through, and a first line that is valid is never skipped.

import { neutralise } from '../api/neutralise.js';
import { parseJson } from '../api/json-parse.js';
import { decodeUtf8, foreignFirstLine, linesOf, MAX_LINE_BYTES, type Overlong } from '../input/read-text.js';
import { UsageError } from '../errors.js';
import { checkOnly, sheetColumns, sheetRow, sheetSeparator, splitRow, type Sheet, type SheetRules } from './sheet.js';

/**
 * A target (with the JSON Lines record it came in, if any); a first line that is a
 * column header, skipped; or why the line is invalid, with the line as text to show.
 */
export type BatchRecord =
  | { line: number; target: string; record?: Record<string, unknown>; cells?: string[]; context?: Record<string, string> }
  | { line: number; header: string; sheet?: Sheet; ignored?: string[] }
  | { line: number; error: string; input: string; heading?: string; cells?: string[] };

const BOM = '\ufeff';

/** How much of an invalid line its outcome shows, in characters. */
export const INPUT_SHOWN = 200;

/** The most a batch line may hold, in bytes, its line ending aside (64 KiB). */
export { MAX_LINE_BYTES };

type Check = (label: string, value: string) => string;

/**
 * The records of `input`, in order. Ending early (`return()`, a `for await` left with
 * break) stops reading: the stream is destroyed, even while a read is waiting on it.
 */
export function readRecords(input: NodeJS.ReadableStream, key: string, check: Check, headers?: ReadonlySet<string>, alias?: string, rules?: SheetRules): AsyncIterableIterator<BatchRecord> {
  const records = rules ? sheetOrLines(input, key, check, rules, headers, alias) : recordsOf(input, key, check, headers, alias);
  return {
    next: () => records.next(),
    async return() {
      // A pending read would hold return() until the next chunk: end the stream first.
      (input as { destroy?: () => void }).destroy?.();
      return records.return(undefined);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * The records of a sheet (sheet.ts, D35) when the first line is its header row, else
 * of the lines as recordsOf reads them. --only needs a sheet.
 */
async function* sheetOrLines(input: NodeJS.ReadableStream, key: string, check: Check, rules: SheetRules, headers?: ReadonlySet<string>, alias?: string): AsyncGenerator<BatchRecord> {
  const lines = linesOf(input)[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) return;
  const bytes = first.value;
  const foreign = foreignFirstLine('stdin', bytes instanceof Uint8Array ? bytes : bytes.head);
  if (foreign) throw foreign;
  const head = bytes instanceof Uint8Array ? sheetHead(bytes, rules) : undefined;
  if (head === undefined) {
    if (rules.only !== undefined) throw new UsageError(`--only ${rules.only} reads a sheet (an outcomes file written by --outcomes); the input has no header row with a ${key} column`);
    yield* recordsOf(input, key, check, headers, alias, { first: bytes, rest: lines });
    return;
  }
  yield { line: 1, header: head.sheet.columns.join(head.sheet.separator), sheet: head.sheet, ignored: head.ignored };
  yield* sheetRecords(lines, head, rules, check);
}

/** The sheet whose header row is `bytes` (line 1), or undefined when it is no sheet; throws UsageError for a header no record could be read by. */
function sheetHead(bytes: Uint8Array, rules: SheetRules): { sheet: Sheet; read: ReturnType<typeof sheetColumns>['read']; ignored: string[] } | undefined {
  let text = decodeUtf8(bytes);
  if (text === undefined) return undefined;
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const separator = sheetSeparator(text, rules);
  if (separator === undefined) return undefined;
  const columns = splitRow(text, separator);
  if (columns === undefined) throw new UsageError(`the input's header row (line 1) has a quote that is not closed`);
  const { read, ignored } = sheetColumns(columns, rules);
  const sheet: Sheet = { separator, columns: columns.map((c) => c.trim()), bom };
  checkOnly(sheet, rules);
  return { sheet, read, ignored };
}

/** A sheet's rows after its header: a quoted cell may hold line breaks, so a row may span lines (numbered by its first). */
async function* sheetRecords(
  lines: AsyncIterator<Uint8Array | Overlong>,
  head: NonNullable<ReturnType<typeof sheetHead>>,
  rules: SheetRules,
  check: Check,
): AsyncGenerator<BatchRecord> {
  let line = 1;
  let open: { line: number; text: string } | undefined;
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    line++;
    const raw = next.value;
    // (The line reader took the "\r" of "\r\n" off.)
    const bytes = raw instanceof Uint8Array ? raw : undefined;
    const decoded = bytes && bytes.length <= MAX_LINE_BYTES ? decodeUtf8(bytes) : undefined;
    if (decoded === undefined || decoded.includes(BOM)) {
      const error = parseLine(raw, line, rules.key, check);
      if (error) yield error;
      continue;
    }
    const start = open?.line ?? line;
    const text = open ? `${open.text}\n${decoded}` : decoded;
    open = undefined;
    const cells = splitRow(text, head.sheet.separator);
    if (cells === undefined) {
      if (text.length > MAX_LINE_BYTES) yield { line: start, error: `line ${start}: a quoted cell over ${MAX_LINE_BYTES / 1024} KiB, or not closed`, input: inputOf(text) };
      else open = { line: start, text };
      continue;
    }
    if (text.trim() === '') continue;
    const row = sheetRow(cells, head.read, head.sheet, rules);
    if (row === undefined) continue;
    const where = `line ${start}`;
    if ('error' in row) {
      yield { line: start, error: `${where}: ${row.error}`, input: inputOf(text), cells };
      continue;
    }
    try {
      // Every cell by its column, for what the verb reads with --diff (a deal row's Account).
      const context = Object.fromEntries(head.sheet.columns.map((c, i) => [c, cells[i] ?? '']));
      yield { line: start, target: check(where, row.target), record: row.record, cells, context };
    } catch (err) {
      yield { line: start, error: (err as Error).message, input: inputOf(text), cells };
    }
  }
  if (open) yield { line: open.line, error: `line ${open.line}: a quoted cell is not closed by the end of the input`, input: inputOf(open.text) };
}

async function* recordsOf(
  input: NodeJS.ReadableStream,
  key: string,
  check: Check,
  headers?: ReadonlySet<string>,
  alias?: string,
  started?: { first: Uint8Array | Overlong; rest: AsyncIterator<Uint8Array | Overlong> },
): AsyncGenerator<BatchRecord> {
  let line = 0;
  // Line 1 when it was invalid as a value: a header if the next record is valid (D35).
  let held: (BatchRecord & { heading?: string }) | undefined;
  const source: AsyncIterable<Uint8Array | Overlong> = started ? restartedLines(started.first, started.rest) : linesOf(input);
  for await (const bytes of source) {
    line++;
    if (line === 1 && !started) {
      const foreign = foreignFirstLine('stdin', bytes instanceof Uint8Array ? bytes : bytes.head);
      if (foreign) throw foreign;
    }
    const record = parseLine(bytes, line, key, check, headers, alias);
    if (!record) continue;
    if (line === 1 && 'heading' in record && record.heading !== undefined) {
      held = record;
      continue;
    }
    if (held) {
      yield 'target' in record ? { line: held.line, header: held.heading! } : withoutHeading(held);
      held = undefined;
    }
    yield record;
  }
  if (held) yield withoutHeading(held);
}

/** The lines again from the first, already read. */
async function* restartedLines(first: Uint8Array | Overlong, rest: AsyncIterator<Uint8Array | Overlong>): AsyncGenerator<Uint8Array | Overlong> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

function withoutHeading(record: BatchRecord): BatchRecord {
  if (!('heading' in record)) return record;
  const { heading: _, ...rest } = record;
  return rest;
}

/**
 * One line (its bytes, without the "\n"; or the length and start of one too long to
 * keep): a record, an error record, the header (line 1 only, when it is one of
 * `headers`, lower case), or undefined for a blank line or a `#` comment. Never throws.
 * A record may name its key by `alias` too (the target option's flag name: `name`).
 */
export function parseLine(raw: Uint8Array | Overlong, line: number, key: string, check: Check, headers?: ReadonlySet<string>, alias?: string): BatchRecord | undefined {
  const where = `line ${line}`;
  let bytes = raw instanceof Uint8Array ? raw : undefined;
  if (bytes && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1);
  const length = bytes ? bytes.length : (raw as Overlong).bytes;
  if (!bytes || length > MAX_LINE_BYTES) {
    const shown = inputOf(bytes ?? (raw as Overlong).head);
    return { line, error: `${where}: ${length.toLocaleString('en-US')} bytes, over the ${MAX_LINE_BYTES / 1024} KiB a line may hold`, input: shown };
  }
  let decoded = decodeUtf8(bytes);
  if (decoded === undefined) return { line, error: `${where}: not valid UTF-8`, input: inputOf(bytes) };
  // The input's own byte order mark; any other is where a second file begins.
  if (line === 1 && decoded.startsWith(BOM)) decoded = decoded.slice(1);
  if (decoded.includes(BOM)) return { line, error: `${where}: a byte-order mark in the middle: files joined with cat?`, input: inputOf(decoded) };
  const text = decoded.trim();
  if (text === '' || text.startsWith('#')) return undefined;
  const invalid = (why: string) => ({ line, error: `${where}: ${why}`, input: inputOf(text) });
  // bo's own piped rows: the Uid first, then a tab and the other columns.
  let value = text.split('\t', 1)[0]!.trim();
  if (line === 1 && headers?.has(value.toLowerCase())) return { line, header: value };
  let record: Record<string, unknown> | undefined;
  if (/^[{[]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = parseJson(text);
    } catch {
      return invalid('not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return invalid(`starts like JSON but is not a record; give the value alone or {"${key}": "…"}`);
    }
    record = parsed as Record<string, unknown>;
    if (alias !== undefined && key in record && alias in record) return invalid(`"${key}" and "${alias}" name the same value; give one`);
    const found = alias !== undefined && !(key in record) ? record[alias] : record[key];
    if (typeof found !== 'string') return invalid(`the record has no "${key}" string`);
    value = found;
  } else {
    const csv = csvAdvice(value);
    if (csv !== undefined) return withHeading(invalid(csv), line, value);
  }
  try {
    return record === undefined ? { line, target: check(where, value) } : { line, target: check(where, value), record };
  } catch (err) {
    const failed = { line, error: (err as Error).message, input: inputOf(text) };
    return record === undefined ? withHeading(failed, line, value) : failed;
  }
}

/**
 * An invalid plain first line whose value is printable text with a letter in it, as a
 * heading is ("Add-on ID"; never "." or ".."): a column header when the next record is
 * valid (recordsOf, D35).
 */
function withHeading(failed: { line: number; error: string; input: string }, line: number, value: string): BatchRecord {
  // eslint-disable-next-line no-control-regex
  const printable = /\p{L}/u.test(value) && !/[\u0000-\u001f\u007f-\u009f]/.test(value) && inputOf(value) === value;
  return line === 1 && printable ? { ...failed, heading: value } : failed;
}

/**
 * A plain line's value that is a row of a spreadsheet's CSV export: a `;` or `,` (no Uid
 * or address holds one) or quotes. What to do instead, with the `cut` for its separator.
 */
function csvAdvice(value: string): string | undefined {
  const quoted = value.includes('"');
  const separator = value.includes(';') ? ';' : value.includes(',') ? ',' : undefined;
  if (!quoted && separator === undefined) return undefined;
  const unquote = quoted ? ` | tr -d '"'` : '';
  return `looks like CSV: pass the first column only (cut -d'${separator ?? ';'}' -f1${unquote})`;
}

/** An invalid line as its outcome shows it: cut to INPUT_SHOWN characters, made safe to print. */
function inputOf(line: string | Uint8Array): string {
  // Bytes that are not UTF-8 show as U+FFFD here, and only here: such a line is never sent.
  const text = (typeof line === 'string' ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8')).trim();
  return neutralise([...text.slice(0, INPUT_SHOWN * 2)].slice(0, INPUT_SHOWN).join(''));
}
