// `bo batch resume <run|last>`: finishes a `-` batch that was interrupted (a
// killed process, a closed terminal, Ctrl-C), from its journal. The run's lock is taken
// before the run is read, and the run read again under it (src/journal/run-lock.ts): of
// two resumes started together, one alone goes on. The same input is read
// again (the file the run read, else stdin) and checked against the journal's running
// digest; the profile and origin must be the run's. Records whose outcome is known are
// not sent again; never-sent ones are sent; an unknown outcome follows the verb's
// `resend` (src/mutation/resume.ts). It runs as the batch did, through the same runner,
// and its changes go into the same run's journal.

import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from '../../command.js';
import { BoError, NotFoundError, UsageError } from '../../errors.js';
import { RUN_ID } from '../../journal/journal.js';
import { journalFolder, readRun, readRuns, skippedWarning, type RunFile } from '../../journal/read.js';
import { heldMessage, takeRunLock, type RunLock } from '../../journal/run-lock.js';
import type { Context } from '../../context.js';
import { say } from '../../output/print.js';
import { splitCommand } from '../../journal/command-words.js';
import type { ResumeOrder } from '../../mutation/types.js';
import { invocationOfArgv, replay } from '../../invocation.js';
import { operand, option, type OptionValues } from '../../input/declare.js';

const RESUME_OPTIONS = [
  option.switch('--dry-run', 'print what would be sent; send nothing'),
  option.switch('--resend-unknown', 'send again the records whose outcome is unknown, whatever the change'),
  option.switch('--yes', 'confirm, where the run needed it (a destructive verb, a protected profile)'),
] as const;

type ResumeOpts = OptionValues<typeof RESUME_OPTIONS>;

const batchResumeCommand =
  defineCommand({
    path: ['batch', 'resume'],
    summary: 'Finish an interrupted - batch from its journal, sending nothing known to be done',
    description:
      'Finish a - batch that was interrupted (a killed process, a closed terminal, Ctrl-C), as bo history shows it. ' +
      '<run> is a run id from bo history list, or last for the newest interrupted batch (never a single change). The same input is read again: ' +
      'the file the run read, else stdin (pipe the same records), and it must match what the run read (else exit 2, ' +
      'nothing sent); the profile and tenant must be the run\'s. Records done or failed are not sent again; records ' +
      'never sent are sent. A record sent with no answer recorded is sent again where a repeat is harmless, read back ' +
      'first where bo can tell whether the change is in place (extend-trial, memberships update, lists create), and ' +
      'otherwise left for you to check, unless --resend-unknown is given. The run\'s lock is taken first: a run still going, or being resumed, is refused (exit 1); ' +
      'a lock its process left behind is taken over, with a note. A run file of another shape is refused by name (exit 1). ' +
      'The outcomes, summary and exit code are those of a batch, and go into the same run\'s journal.',
    examples: [
      { example: 'bo batch resume last --dry-run', needs: 'an interrupted batch in the journal' },
      { example: 'bo batch resume last', needs: 'an interrupted batch in the journal' },
      { example: 'bo batch resume 20261128T050347-c3x7f3 --yes < records.jsonl', needs: 'that run, which read a pipe' },
    ],
    operands: [operand.text('<run>', 'a run id, or last (the newest interrupted batch)')],
    options: RESUME_OPTIONS,
    async run(ctx, [id], opts) {
      if (id !== 'last' && !RUN_ID.test(id)) throw new UsageError(`<run> must be a run id such as 20261128T050347-c3x7f3, or last; got ${JSON.stringify(id)}`);
      const folder = journalFolder(ctx.io.env);
      // `last`: the newest interrupted batch (a single change is never resumed, so never picked).
      const runId = id !== 'last' ? id : folder && readRuns(folder, (err) => say(ctx, skippedWarning(err))).find((r) => r.summary.batch && r.summary.state === 'interrupted')?.summary.id;
      if (!folder || !runId || !existsSync(join(folder, `${runId}.jsonl`))) {
        throw new NotFoundError(id === 'last' ? 'no interrupted batch in the journal (bo history list)' : `no run ${id} in the journal`, { code: 'not_found' });
      }
      // The run's lock first, then the run read under it: of two resumes, one alone goes on (run-lock.ts).
      const lock = takeRunLock(folder, runId);
      if (!('release' in lock)) throw new BoError(heldMessage(runId, lock), { code: 'failed' });
      try {
        if (lock.tookOver) say(ctx, `note: run ${runId} was left locked by process ${lock.tookOver.pid}, which has ended: its lock is taken over`);
        await resumeHeld(ctx, folder, runId, opts, lock);
      } finally {
        // Handed to the run's journal when one opened (it lets go as it closes); else let go here.
        lock.release();
      }
    },
  });
export default batchResumeCommand;

/** The resume, holding the run's lock: the run read under it, checked, and run again with what its journal knows. */
async function resumeHeld(ctx: Context, folder: string, id: string, opts: ResumeOpts, lock: RunLock) {
  const found = readRun(folder, id, { known: true });
  if (!found) throw new NotFoundError(`no run ${id} in the journal`, { code: 'not_found' });
  const { summary } = found;
  if (summary.state === 'newer') throw new BoError(`run ${summary.id} was written by a newer bo, whose journal this one cannot go on with: resume it with that bo`, { code: 'failed' });
  if (!summary.batch) throw new UsageError(`run ${summary.id} changed one record, not a - batch: only a batch can be resumed`);
  // Under its lock, a run is never running: its end is there, or it was interrupted.
  if (summary.state === 'finished') throw new UsageError(`run ${summary.id} finished: there is nothing to resume (bo history show ${summary.id})`);

  const { name } = await ctx.profile();
  if (name !== summary.profile) throw new UsageError(`run ${summary.id} ran on profile "${summary.profile}", not "${name}": pass -p ${summary.profile}`);
  const origin = ctx.globals.sandbox ? 'the embedded sandbox' : (await ctx.api({ credential: null })).baseUrl;
  if (origin !== summary.origin) throw new UsageError(`run ${summary.id} sent to ${summary.origin}; profile "${name}" now goes to ${origin}`);

  // A run stores its invocation; one written before, its command line (read by the verb's own declarations).
  const defs = await ctx.definitions();
  const stored = found.invocation ? { invocation: found.invocation } : await invocationOfArgv(defs, splitCommand(summary.command)).catch(() => undefined);
  const verb = stored?.invocation.path.join(' ');
  const def = defs.find((d) => d.mutation !== undefined && d.path.join(' ') === verb);
  if (!stored || !def) throw new UsageError(`run ${summary.id} ran "${summary.command}", which bo batch resume cannot run again`);
  if (def.mutation!.secrets.length > 0) throw new UsageError(`run ${summary.id} sent a secret bo never kept: run its command again yourself`);

  const resumed: Context = { ...ctx, io: { ...ctx.io, stdin: inputOf(ctx, found) }, resume: orderOf(found, opts, lock) };
  await replay(resumed, stored.invocation, { ...(opts.dryRun ? { dryRun: true } : {}), ...(opts.yes ? { yes: true } : {}) });
}

/** The run's input again: the file it read, else stdin (which must not be a terminal). */
function inputOf(ctx: { io: { stdin: NodeJS.ReadableStream; stdinIsTTY: boolean } }, found: RunFile): NodeJS.ReadableStream {
  const input = found.summary.input;
  if (input) {
    if (!existsSync(input.path)) throw new UsageError(`run ${found.summary.id} read ${input.path}, which is gone: nothing was sent`);
    return createReadStream(input.path);
  }
  if (ctx.io.stdinIsTTY) throw new UsageError(`run ${found.summary.id} read a pipe: pipe the same records into bo batch resume`);
  return ctx.io.stdin;
}

function orderOf(found: RunFile, opts: ResumeOpts, lock: RunLock): ResumeOrder {
  const known = found.known!;
  return { run: found.summary.id, lock, known, lastLine: known.lastLine, resendUnknown: opts.resendUnknown === true };
}
