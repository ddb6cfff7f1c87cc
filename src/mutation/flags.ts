// The flags of every mutation verb, as declarations (data), and the batch lines' help:
// light, so a verb file can import it at the top without slowing startup.

import { option } from '../input/declare.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../api/concurrency.js';

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY };

/** --input-format's values (sheet.ts INPUT_FORMATS). */
export const INPUT_FORMAT_CHOICES = ['csv', 'tsv', 'lines', 'jsonl'] as const;
/** --only's values: the bo_outcome words, `not attempted` written with a dash. */
export const ONLY_CHOICES = ['failed', 'invalid', 'unknown', 'not-attempted', 'skipped', 'done'] as const;

/** How stdin is read in a batch; the limit is records.ts's MAX_LINE_BYTES. */
export const BATCH_LINES = `
Batch lines (-): one value a line (the first tab-separated field, so bo's own piped
rows work), or JSON Lines records with the key. Blank lines and # comments are
skipped, and so is a first line that is a column header (Uid, id or a field name;
or any heading that is not a valid value, such as "Add-on ID", when line 2 is one).
Or a sheet: a CSV or TSV whose header row names the columns (;
or , with quotes, a BOM and CRLF as Excel writes them; taken as one when a column is
named as the key, or with --input-format csv|tsv): each column the key, a field of
this command (API or flag name; an empty cell leaves it unchanged), a field of the
record (ignored) or bo's own bo_ columns (ignored); any other column is exit 2.
A line over 64 KiB, not valid UTF-8, holding ; or , or quotes (a spreadsheet's CSV:
pass its first column only, e.g. cut -d';' -f1), or starting like JSON ({ [) without
being a record with the key is an invalid line: reported by its number, nothing sent
for it; the others go on. UTF-16 or UTF-32 text (Excel's "Unicode text") is refused:
convert it first with iconv -f UTF-16 -t UTF-8. A record may carry this command's fields by API name or
flag name without dashes, overriding the flags for it; a bad value, or a key that is
neither one of them nor a field of the record the key names, makes it invalid.`;

/**
 * --dry-run and --yes, and with `batch` the batch flags (--concurrency, --fail-fast).
 * `destructive`: what cannot be undone, asked about on every profile (as the command's
 * mutation facts say); --yes says so. Other mutations ask only on a protected profile.
 */
export function mutationOptions(options: { batch: boolean; destructive?: boolean }) {
  const yes = options.destructive
    ? `do not ask before a change that cannot be undone (needed without a terminal${options.batch ? ' and for a batch from stdin' : ''})`
    : `do not ask for confirmation on a protected profile (needed there without a terminal${options.batch ? ' and for a batch from stdin' : ''})`;
  const always = [
    option.switch('--dry-run', 'check everything and print the request(s) that would be sent; send nothing'),
    option.switch('--yes', yes),
    option.switch('--diff', 'read each target first and show Field: old → new; send nothing where the values already hold'),
  ] as const;
  const batch = [
    option.integer('--concurrency <n>', `batch: requests in flight (default ${DEFAULT_CONCURRENCY}, at most ${MAX_CONCURRENCY})`, 1, MAX_CONCURRENCY),
    option.switch('--fail-fast', 'batch: stop at the first failure'),
    option.choice('--input-format <format>', 'batch: how stdin is read (default: a CSV with a header row naming the key column is a sheet, else one value a line or JSON Lines)', INPUT_FORMAT_CHOICES),
    option.text('--outcomes <file>', 'batch: write one row per input row of a sheet to <file>, its columns then bo_row, bo_outcome, bo_code, bo_message'),
    option.choice('--only <outcome>', 'batch: read only the rows of an outcomes file whose bo_outcome is this (failed: retry the failures)', ONLY_CHOICES),
  ] as const;
  return options.batch ? ([...always, ...batch] as const) : always;
}
