// `bo history prune`: the journal's retention on demand (src/journal/prune.ts).
import { defineCommand } from '../../command.js';
import { overCapWarning, pruneJournal } from '../../journal/prune.js';
import { skippedWarning } from '../../journal/read.js';
import { say } from '../../output/print.js';
import { historyFolder } from './filters.js';

export default defineCommand({
  path: ['history', 'prune'],
  summary: 'Remove finished runs past 90 days or 200 MB from the journal',
  description:
    'Remove the journal files of finished runs, oldest first, that are older than 90 days or while the journal holds ' +
    'more than 200 MB in all. A running or interrupted run is never removed; a single run larger than 200 MB is kept, ' +
    'with a warning. A run that changes something applies the same rule as it starts, at most once an hour; this ' +
    'applies it now. Prints one line: how many runs were removed and what the journal holds now.',
  examples: ['bo history prune'],
  async run(ctx) {
    const folder = await historyFolder(ctx);
    if (!folder) return;
    const { removed, overCap, bytesLeft } = pruneJournal(folder, ctx.clock.now(), (err) => say(ctx, skippedWarning(err)));
    for (const s of overCap) say(ctx, overCapWarning(s));
    say(ctx, `Removed ${removed.length} run(s); the journal holds ${(bytesLeft / 1048576).toFixed(1)} MB.`);
  },
});
