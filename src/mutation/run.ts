// The one runner every mutation goes through: check the options and the target, then
// --dry-run (print what would be sent, send nothing), or confirm where needed and send
// one request, or a `-` batch from stdin (batch.ts).

import { setMaxListeners } from 'node:events';
import type { Context } from '../context.js';
import { ApiError, BoError, NotFoundError, OutputClosedError, UsageError } from '../errors.js';
import { symbols } from '../output/symbols.js';
import { confirmMutation, profileInEffect, targetName, whereOf, type Where } from './confirm.js';
import { DEFAULT_CONCURRENCY } from './flags.js';
import { prepareMutation } from './prepare.js';
import { runBatch } from './batch.js';
import { dryRunMutation } from './dry-run.js';
import { readingNotice, type InputRules } from './feed.js';
import { onlyWord } from './sheet.js';
import { diffOf, diffText } from './diff.js';
import { startJournal, commandLine, journaledInvocation } from './journal-run.js';
import { doneLine, doneOf, type Done } from './outcomes.js';
import { stdinNotAccepted } from '../input/validate.js';
import { outputMode, printValue, say, sayNote } from '../output/print.js';
import { writeOut } from '../output/sink.js';
import { redactJson } from '../api/redact.js';
import type { BoundMutation, MutationFlags, ReadAfter, Verdict } from './types.js';
import { recordKey, targetCheck, targetLabel } from './target.js';
import type { ApiResponse, HttpClient } from '../api/http-types.js';
import { failureVerdict } from './verdict.js';
import { journaled, type RunJournal } from '../journal/open.js';

export async function runMutation<Prep>(ctx: Context, m: BoundMutation<Prep>, targetArg: string | undefined, flags: MutationFlags): Promise<void> {
  const { def } = m;
  const label = targetLabel(def.target);
  const check = targetCheck(def.target);
  if (def.target.single && targetArg === '-') throw stdinNotAccepted(label);
  const batch = targetArg === '-';
  const { resume } = ctx;
  if (resume && !batch) throw new UsageError('only a batch (- in place of the target) can be resumed');
  const batchOnly = flags.failFast ? '--fail-fast' : flags.concurrency !== undefined ? '--concurrency' : batchInputFlag(flags);
  if (!batch && batchOnly) {
    throw new UsageError(`${batchOnly} applies to a batch: pass - as ${label} and the values on stdin`);
  }
  if (flags.dryRun && flags.outcomes !== undefined) throw new UsageError('--outcomes writes what a batch sent: --dry-run sends nothing');
  const input: InputRules = { ...(flags.inputFormat ? { format: flags.inputFormat } : {}), ...(flags.only ? { only: onlyWord(flags.only) } : {}) };
  const concurrency = flags.concurrency ?? DEFAULT_CONCURRENCY;
  const target = batch ? '-' : check(label, targetArg ?? '');
  const preparation = await prepareMutation(ctx, m, flags, batch);
  const profile = await profileInEffect(ctx);

  if (flags.dryRun) {
    // A plan (bo mcp) names its target as the confirmation it stands for would: the same read.
    const { describe } = def;
    const sink = ctx.sink;
    if (sink?.target && !batch) sink.target(await targetName(describe && (async () => describe(await ctx.api(), target))), def.target.noun);
    return dryRunMutation(ctx, m, preparation, batch ? undefined : target, profile.profile, { ...input, diff: flags.diff === true }, resume);
  }

  // After Ctrl-C a batch sends nothing more, but what is already in flight gets up to a
  // second to answer, so fewer records end with an unknown outcome.
  const requests = batch ? graceSignal(ctx.signal, IN_FLIGHT_GRACE_MS) : ctx.signal;
  const client = await ctx.api({ ...(def.anonymous ? { anonymous: true } : {}), signal: requests });
  const where: Where = whereOf(ctx, profile, client.baseUrl);
  // --diff on one target: its read and what changes, before the question; nothing to send when its values hold.
  if (flags.diff && !batch && (await singleDiffHolds(ctx, m, client, target, preparation.once as Prep))) return;
  const what = batch
    ? `${def.action(symbols(ctx.io.env).dots, m.args, preparation.once)} for every record on stdin`
    : def.action(target, m.args, preparation.once);
  await confirmMutation(ctx, what, where, {
    destructive: def.destructive === true,
    yes: flags.yes === true,
    batch,
    // One read, only when the question is really asked (not for a batch, --yes or a dry run).
    ...(def.describe && !batch ? { describe: () => def.describe!(client, target) } : {}),
  });

  // Every change is journaled; a batch that cannot be refuses here, before sending.
  const journal = await startJournal(ctx, where, { command: commandLine(def.path, label, target, def.fields ?? [], flags), ...journaledInvocation(ctx, def.fields ?? []), batch }, resume);
  // A resume refused for its input (exit 2, nothing sent) leaves the run interrupted, as it was.
  let refused = false;
  try {
    if (batch) {
      readingNotice(ctx, recordKey(def.target));
      return await runBatch(ctx, m, preparation, client, where, {
        concurrency,
        failFast: flags.failFast === true,
        requests,
        journal,
        input,
        ...(flags.outcomes === undefined ? {} : { outcomes: flags.outcomes }),
        ...(flags.diff ? { diff: true } : {}),
        ...(resume ? { resume } : {}),
      });
    }
    return await sendOne(ctx, m, preparation.once as Prep, target, client, journal);
  } catch (err) {
    refused = resume !== undefined && err instanceof UsageError;
    throw err;
  } finally {
    journal?.close(ctx.signal.aborted || refused);
  }
}

/** One change: sent (journaled), its success line printed, a 404 or 409 in the verb's words. */
async function sendOne<Prep>(ctx: Context, m: BoundMutation<Prep>, prep: Prep, target: string, client: HttpClient, journal: RunJournal | undefined): Promise<void> {
  const { def, args } = m;
  const request = def.request(target, prep, args);
  let res;
  // Judged once, for the journal's outcome entry and what is printed alike (D32).
  let verdict: Verdict | undefined;
  const judge = (answer: ApiResponse | undefined, status: number) => (verdict = answer ? def.changed(answer, target, prep, args) : failureVerdict(status));
  try {
    res = await journaled(journal, { ...request, uid: target }, () => client.request({ ...request, signal: ctx.signal }), judge);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      // The server's own words when it gave some (`pipeline stage "x" not found`): it
      // knows which Uid it did not find; else the likeliest reading.
      const message = err.serverMessage ?? (def.notFound ? def.notFound(target, prep, args) : `no ${def.target.noun} with Uid ${target}`);
      throw new NotFoundError(message, { status: 404, code: err.code ?? 'not_found' });
    }
    if (err instanceof ApiError && err.status === 409 && def.conflict) {
      throw new BoError(def.conflict(target, prep), { status: 409, code: err.code ?? 'conflict' });
    }
    throw err;
  }
  verdict ??= def.changed(res, target, prep, args);
  // One rule for every mutation (outcomes.ts): --json and --jsonl print the outcome, as a
  // batch's (without its line), with whether it changed anything (D32) and the API's answer
  // (secret-named fields redacted, should a server echo one); otherwise one success line.
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') await printValue(ctx, { uid: target, ok: true, status: res.status, ...verdict, error: null, answer: redactJson(res.body) });
  else await writeOut(ctx.io.stdout, doneLine(ctx, await readAfter(ctx, def.after, client, target, doneOf(m, target, prep, request, res.body, verdict))), ctx.signal);
  const note = def.note?.(target, prep, res, args);
  if (note) sayNote(ctx, note);
}

/** The success line with what the verb reads after a single change (`AccountStage=4 Cancelling`); as it was when the read fails. */
async function readAfter(ctx: Context, after: ReadAfter | undefined, client: HttpClient, target: string, done: Done): Promise<Done> {
  if (!after) return done;
  try {
    const value = await after.read(client, target);
    return value === undefined ? done : { ...done, fields: [...done.fields, [after.field, value]] };
  } catch (err) {
    // The change was made: a read that fails says nothing more (Ctrl-C still stops the run).
    if (ctx.signal.aborted) throw err;
    return done;
  }
}

/**
 * --diff on one target (not a dry run): its changes on stderr, before any question; true
 * when its values already hold, which is then its outcome (nothing sent, nothing journaled).
 */
async function singleDiffHolds<Prep>(ctx: Context, m: BoundMutation<Prep>, client: HttpClient, target: string, prep: Prep): Promise<boolean> {
  if (!m.def.current) {
    say(ctx, `--diff: a ${m.def.target.noun} cannot be read before a change, so it is sent without one`);
    return false;
  }
  const diff = await diffOf(m, client, target, prep, {}, ctx.signal);
  const arrow = symbols(ctx.io.env).arrow;
  if ('unreadable' in diff) say(ctx, `${diffText(target, undefined, diff, arrow).trimEnd()}; sent without a diff`);
  else ctx.io.stderr.write(diffText(target, undefined, diff, arrow));
  if (!('holds' in diff)) return false;
  const verdict = { changed: false, reason: 'already-holds' } as const;
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') await printValue(ctx, { uid: target, ok: true, status: null, ...verdict, error: null, answer: null });
  else await writeOut(ctx.io.stdout, doneLine(ctx, { ...doneOf(m, target, prep, m.def.request(target, prep, m.args), null, verdict), fields: [] }), ctx.signal);
  return true;
}

/** The first batch input flag given (--input-format, --only, --outcomes), for a single run's refusal. */
function batchInputFlag(flags: MutationFlags): string | undefined {
  if (flags.inputFormat !== undefined) return '--input-format';
  if (flags.only !== undefined) return '--only';
  return flags.outcomes !== undefined ? '--outcomes' : undefined;
}

/** What a batch gives requests in flight after Ctrl-C before they count as unknown. */
const IN_FLIGHT_GRACE_MS = 1000;

/**
 * Aborts `ms` after `signal` does (at once if it already has); never when it was the
 * reader of stdout that left: requests in flight then finish.
 */
function graceSignal(signal: AbortSignal, ms: number): AbortSignal {
  const later = new AbortController();
  // A listener for each request in flight (at most 16) and a few of the batch's.
  setMaxListeners(64, later.signal);
  const closedOutput = () => signal.reason instanceof OutputClosedError;
  if (signal.aborted) {
    if (!closedOutput()) later.abort();
  } else {
    signal.addEventListener('abort', () => closedOutput() || setTimeout(() => later.abort(), ms).unref(), { once: true });
  }
  return later.signal;
}
