// `bo history show <run>`: each change of one run with its outcome; --failed
// only the failed ones, so `bo history show <run> --failed --jsonl` feeds a retry.
import { defineCommand } from '../../command.js';
import { BoError, NotFoundError, UsageError } from '../../errors.js';
import { RUN_ID } from '../../journal/journal.js';
import { readRun, readRuns, skippedWarning, type ChangeRecord } from '../../journal/read.js';
import { printList, say } from '../../output/print.js';
import { historyFolder } from './filters.js';
import { listOf } from '../../api/record-source.js';
import { operand, option } from '../../input/declare.js';

export default defineCommand({
  printsRecords: true,
  path: ['history', 'show'],
  summary: 'List the changes of one run with their outcomes',
  description:
    'List each change a run sent, in input order: the record\'s line number and Uid, the method and path, the names of the ' +
    'fields sent (never their values), its outcome: done, failed (with the status and error code) or unknown (sent, no ' +
    'answer recorded: the process ended first), and whether it changed anything. <run> is a run id from bo history list, or last for the newest run. ' +
    '--failed lists only failed changes. --json and --jsonl print each as ' +
    '{"line", "uid", "method", "path", "fields", "sentAt", "outcome", "changed", "reason", "status", "code"} ' +
    '(changed: true, false with a reason such as already-ended or no-such-tag, or null when the answer could not tell). ' +
    'Piped, each row starts with the Uid, so `bo history show <run> --failed | bo <verb> - …` sends the failed records again.',
  examples: ['bo history show last', { example: 'bo history show 20261128T050347-c3x7f3 --failed --jsonl', needs: 'that run in the journal' }],
  operands: [operand.text('<run>', 'a run id, or last')],
  options: [option.switch('--failed', 'only the failed changes')] as const,
  async run(ctx, [id], opts) {
    if (id !== 'last' && !RUN_ID.test(id)) throw new UsageError(`<run> must be a run id such as 20261128T050347-c3x7f3, or last; got ${JSON.stringify(id)}`);
    const folder = await historyFolder(ctx);
    const newest = () => readRuns(folder!, (err) => say(ctx, skippedWarning(err)))[0]?.summary.id;
    const runId = folder && (id === 'last' ? newest() : id);
    const found = folder && runId ? readRun(folder, runId) : undefined;
    if (!found) throw new NotFoundError(id === 'last' ? 'no run in the journal' : `no run ${id} in the journal`, { code: 'not_found' });
    if (found.summary.state === 'newer') throw new BoError(`run ${found.summary.id} was written by a newer bo, whose journal this one cannot read: show it with that bo`, { code: 'failed' });
    const changes = found.changes.filter((c) => !opts.failed || c.outcome === 'failed');
    await printList(ctx, listOf(changes), [
      // The Uid first: piped rows feed a batch as they are (`… --failed | bo <verb> - …`).
      { header: 'Uid', get: (c: ChangeRecord) => c.uid },
      { header: 'Line', get: (c: ChangeRecord) => c.line },
      { header: 'Outcome', get: (c: ChangeRecord) => c.outcome },
      // D32: whether it changed anything (null: not known), and why not.
      { header: 'Changed', get: (c: ChangeRecord) => c.changed },
      { header: 'Reason', get: (c: ChangeRecord) => c.reason },
      { header: 'Status', get: (c: ChangeRecord) => c.status },
      { header: 'Code', get: (c: ChangeRecord) => c.code },
      { header: 'Request', get: (c: ChangeRecord) => `${c.method} ${c.path}` },
      { header: 'Fields', get: (c: ChangeRecord) => c.fields.join(',') },
    ]);
    const s = found.summary;
    say(ctx, `Run ${s.id} (${s.state}${s.pid === null ? '' : `, pid ${s.pid}`}): ${s.done} done${doneParts(s)}, ${s.failed} failed, ${s.unknown} unknown.`);
  },
});

/** ` (1 changed, 1 unchanged)`: what the done changes' answers said (D32), the rest not known. */
function doneParts(s: { done: number; changed: number; unchanged: number }): string {
  if (s.done === 0) return '';
  const notKnown = s.done - s.changed - s.unchanged;
  const parts = [s.changed ? `${s.changed} changed` : '', s.unchanged ? `${s.unchanged} unchanged` : '', notKnown ? `${notKnown} not known` : ''].filter(Boolean);
  return ` (${parts.join(', ')})`;
}
