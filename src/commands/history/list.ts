// `bo history list`: the runs that changed something, newest first, from the journal in
// the state folder. --json/--jsonl: one RunSummary each (src/journal/read.ts).
import { defineCommand } from '../../command.js';
import { readRuns, skippedWarning, type RunSummary } from '../../journal/read.js';
import { printList, say } from '../../output/print.js';
import { historyFolder, historyOptions, sinceOf } from './filters.js';
import { listOf } from '../../api/record-source.js';
import { UsageError } from '../../errors.js';
import { option } from '../../input/declare.js';

export default defineCommand({
  printsRecords: true,
  path: ['history', 'list'],
  groupDefault: true,
  summary: 'List the runs that changed something, newest first (also bo history)',
  description:
    'List the runs recorded in the journal (every change bo sends is journaled in the state folder: ' +
    '$BO_STATE_DIR, else $XDG_STATE_HOME/bo, else ~/.local/state/bo), newest first: the run id, when it started, ' +
    'the profile and origin, the command (secret values as ***), the input file, how many changes were done (and of those, how many changed something or nothing), ' +
    'failed or unknown (sent, no answer recorded), how many records a finished batch did not attempt (after --fail-fast or ' +
    'a refused credential; a + when its input was not read to the end), and whether the run finished, was interrupted or is still running ' +
    '(or was written by a newer bo: state newer). A journal file of another shape is skipped with a warning naming it, and left as it is. ' +
    'With -p (or BO_PROFILE), only that profile\'s runs. --limit <n> prints the newest n of them; without it (or with --all), every one. --json and --jsonl print each run as ' +
    '{"id", "startedAt", "profile", "origin", "command", "batch", "input", "done", "changed", "unchanged", "failed", "unknown", "notAttempted", "skipped", "unread", "state", "pid", "bytes"} ' +
    '(changed and unchanged: of the done changes, those whose answer showed a change and those whose answer said nothing changed; the rest could not tell) ' +
    '(skipped: records --diff found already holding, not sent; notAttempted, skipped and unread are null for a run that did not finish). ' +
    'BO_JOURNAL=off or `bo config set journal off` turns the journal off.',
  examples: ['bo history', 'bo history list --limit 5', 'bo history list --since 7d --failed', 'bo history list --jsonl'],
  options: [
    ...historyOptions('only runs with a failed or unknown change'),
    option.integer('--limit <n>', 'only the newest n runs', 1, Number.MAX_SAFE_INTEGER, { must: 'a positive integer' }),
    option.switch('--all', 'every run (the default)'),
  ] as const,
  async run(ctx, _args, opts) {
    const limit = opts.limit ?? Infinity;
    if (opts.all && opts.limit !== undefined) throw new UsageError('--limit cannot be combined with --all');
    const since = opts.since === undefined ? undefined : sinceOf(opts.since, ctx.clock.now());
    const folder = await historyFolder(ctx);
    const profile = ctx.globals.profile;
    const runs = (folder ? readRuns(folder, (err) => say(ctx, skippedWarning(err))) : [])
      .map((r) => r.summary)
      .filter((r) => (since === undefined || Date.parse(r.startedAt) >= since.getTime()) && (!profile || r.profile === profile))
      .filter((r) => !opts.failed || r.failed + r.unknown > 0)
      .slice(0, limit);
    await printList(ctx, listOf(runs), [
      { header: 'Run', get: (r: RunSummary) => r.id },
      { header: 'Started', get: (r: RunSummary) => r.startedAt },
      { header: 'Profile', get: (r: RunSummary) => r.profile },
      { header: 'Origin', get: (r: RunSummary) => r.origin },
      { header: 'Done', get: (r: RunSummary) => r.done },
      // Of those done, what the answers said (D32); the rest could not tell.
      { header: 'Changed', get: (r: RunSummary) => r.changed },
      { header: 'Unchanged', get: (r: RunSummary) => r.unchanged },
      { header: 'Failed', get: (r: RunSummary) => r.failed },
      { header: 'Unknown', get: (r: RunSummary) => r.unknown },
      // Not known for a run that did not finish; `+`: its input was not read to the end.
      { header: 'Not attempted', get: (r: RunSummary) => (r.notAttempted === null ? '-' : `${r.notAttempted}${r.unread ? '+' : ''}`) },
      { header: 'State', get: (r: RunSummary) => (r.state === 'newer' ? 'written by a newer bo' : r.pid === null ? r.state : `${r.state} (pid ${r.pid})`) },
      { header: 'Command', get: (r: RunSummary) => `bo ${r.command}${r.input ? ` < ${r.input.path} (${r.input.size} bytes)` : ''}` },
    ]);
  },
});

