// The flags of every mutation verb. Only commander is touched here, so a verb file can
// import it at the top without slowing startup.

import type { Command } from 'commander';

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;

/** How stdin is read in a batch; the limit is records.ts's MAX_LINE_BYTES. */
const BATCH_LINES = `
Batch lines (-): one value a line (the first tab-separated field, so bo's own piped
rows work), or JSON Lines records with the key. Blank lines and # comments are
skipped. A line over 64 KiB, not valid UTF-8, or starting like JSON ({ [ ") without
being a record with the key is an invalid line: reported by its number, nothing sent
for it; the others go on. A record may carry this command's fields by API name or
flag name without dashes, overriding the flags for it; a bad value, or a key that is
neither one of them nor a field of the record the key names, makes it invalid.`;

/** Adds --dry-run and --yes, and with `batch` the batch flags (--concurrency, --fail-fast). */
export function mutationFlags(cmd: Command, options: { batch: boolean }): Command {
  cmd
    .option('--dry-run', 'check everything and print the request(s) that would be sent; send nothing')
    .option('--yes', 'do not ask for confirmation (needed without a terminal, on a protected profile and for destructive batches)');
  if (options.batch) {
    cmd
      .option('--concurrency <n>', `batch: requests in flight (default ${DEFAULT_CONCURRENCY}, at most ${MAX_CONCURRENCY})`)
      .option('--fail-fast', 'batch: stop at the first failure')
      .addHelpText('after', BATCH_LINES);
  }
  return cmd;
}
