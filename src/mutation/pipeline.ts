// The one pipeline of a `-` batch, whether it sends (batch.ts) or only shows what it would
// send (--dry-run, run.ts): its stages, in order, for each record of stdin —
//   read     the next record or invalid line (feed.ts),
//   digest   the input's running digest, which a resume checks the input against,
//   prepare  the record's own fields over the flags' (prepare.ts),
//   resume   what the interrupted run's journal knows of its line (resume.ts),
//   take     the sink: a batch sends it, a dry run prints it.
// On a resume, records up to the run's last sent line wait until the input is known to be
// the same up to there, so a changed input sends nothing.

import { inputDigest } from '../journal/input-digest.js';
import type { RecordFeed } from './feed.js';
import type { Preparation } from './prepare.js';
import { changedInput, resumeStepChecked, type ResumeStep } from './resume.js';
import type { KnownOutcome, Resend, ResumeOrder } from './types.js';

/** A record past every stage: its target, the input's digest up to it, what it is sent with, and what a resume does with it. */
export interface Ready<Prep> {
  line: number;
  target: string;
  read: string;
  prep: Prep;
  step: Exclude<ResumeStep, 'skip'>;
  /** The record's other values (a sheet's cells by column, a JSON Lines record's keys), for --diff's read. */
  context: Readonly<Record<string, unknown>>;
}

/** An invalid line or record: reported, never sent. */
export interface Invalid {
  line: number;
  /** The record's target, when it had one. */
  uid: string | null;
  /** The line as read, when it held no record. */
  input?: string;
  message: string;
}

export interface PipelineSink<Prep> {
  invalid(rec: Invalid): Promise<void>;
  /** A record whose outcome the interrupted run knows: not sent again. */
  known(line: number, outcome: KnownOutcome): void;
  /** Takes a record; false once the sink takes no more (the batch stopped). */
  take(rec: Ready<Prep>): Promise<boolean>;
}

export interface PipelineEnd {
  /** Records read but not taken: the sink had stopped taking them. */
  notTaken: number;
}

/** Runs every record of `feed` through the stages into `sink`, until the feed ends or the sink takes no more. */
export async function runPipeline<Prep>(
  feed: RecordFeed,
  preparation: Preparation<Prep>,
  resume: { order: ResumeOrder; resend: Resend } | undefined,
  sink: PipelineSink<Prep>,
): Promise<PipelineEnd> {
  const held: Array<Ready<Prep>> = [];
  let notTaken = 0;
  /** The held records, in order; false (each left counted) once the sink takes no more. */
  const release = async (): Promise<boolean> => {
    while (held.length > 0) {
      if (await sink.take(held.shift()!)) continue;
      notTaken += held.length + 1;
      held.length = 0;
      return false;
    }
    return true;
  };
  let read = '';
  let lastLine = 0;
  for (let rec = await feed.next(); rec !== undefined; rec = await feed.next()) {
    lastLine = rec.line;
    read = inputDigest(read, rec);
    if ('error' in rec) {
      await sink.invalid({ line: rec.line, uid: null, input: rec.input, message: rec.error });
      continue;
    }
    const prepared = await preparation.forRecord(rec);
    if ('error' in prepared) {
      await sink.invalid({ line: rec.line, uid: rec.target, message: prepared.error });
      continue;
    }
    const step = resume ? resumeStepChecked(resume.order, rec.line, read, resume.resend) : 'send';
    if (step === 'skip') {
      sink.known(rec.line, resume!.order.known.get(rec.line)!.outcome);
      continue;
    }
    const ready: Ready<Prep> = { line: rec.line, target: rec.target, read, prep: prepared.prep, step, context: rec.context ?? rec.record ?? {} };
    if (resume && rec.line <= resume.order.lastLine) {
      held.push(ready);
      continue;
    }
    if (!(await release())) {
      notTaken++;
      break;
    }
    if (!(await sink.take(ready))) {
      notTaken++;
      break;
    }
  }
  if (resume && feed.complete && lastLine < resume.order.lastLine) throw changedInput(resume.order.run, lastLine + 1);
  await release();
  return { notTaken };
}
