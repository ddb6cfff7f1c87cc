// Retention of the journal: whole files of finished runs are removed, oldest
// first, when older than 90 days or while the journal holds more than 200 MB. A running
// or interrupted run is never removed (it may still be resumed), and a single run over
// the cap is kept with a warning, never cut. `bo history prune` reads every run
// (pruneJournal); each run's start applies the same rule cheaply (retention.ts).

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readRuns, type MalformedRunError, type RunSummary } from './read.js';

export const KEEP_DAYS = 90;
export const KEEP_BYTES = 200 * 1024 * 1024;

export interface PruneResult {
  removed: RunSummary[];
  /** Kept although the cap says otherwise: the running and interrupted runs, and a finished one over the cap on its own. */
  overCap: RunSummary[];
  bytesLeft: number;
}

/** What the rule needs of a run file: its id, when it started, its size. */
export interface RunFacts {
  id: string;
  startedMs: number;
  bytes: number;
}

/**
 * Which runs of `oldestFirst` go: a finished one (asked only of a candidate, so a
 * caller may look cheaply) older than `days`, or while the whole is over `bytes` and
 * it is not over them on its own. Removes each with `remove`; what stays over the cap
 * on its own is `overCap`.
 */
export function applyRetention<R extends RunFacts>(
  oldestFirst: readonly R[],
  now: Date,
  finished: (run: R) => boolean,
  remove: (run: R) => void,
  limits = { days: KEEP_DAYS, bytes: KEEP_BYTES },
): { removed: R[]; overCap: R[]; bytesLeft: number } {
  let total = oldestFirst.reduce((n, r) => n + r.bytes, 0);
  const cutoff = now.getTime() - limits.days * 86_400_000;
  const removed: R[] = [];
  for (const run of oldestFirst) {
    const old = run.startedMs < cutoff;
    if (!old && (total <= limits.bytes || run.bytes > limits.bytes)) continue;
    if (!finished(run)) continue;
    remove(run);
    removed.push(run);
    total -= run.bytes;
  }
  const overCap = total > limits.bytes ? oldestFirst.filter((r) => !removed.includes(r) && r.bytes > limits.bytes) : [];
  return { removed, overCap, bytesLeft: total };
}

/** The warning about a run kept although it alone is over the cap. */
export function overCapWarning(run: { id: string; bytes: number }): string {
  return `warning: journal run ${run.id} alone holds ${(run.bytes / 1048576).toFixed(1)} MB, over the ${KEEP_BYTES / 1048576} MB kept in all; it is kept until it is ${KEEP_DAYS} days old`;
}

/** Applies the rule to the runs of `folder`; a file that is not a run of the expected shape is told to `skipped`, and kept. */
export function pruneJournal(folder: string, now: Date, skipped: (err: MalformedRunError) => void, limits = { days: KEEP_DAYS, bytes: KEEP_BYTES }): PruneResult {
  const oldestFirst = readRuns(folder, skipped).reverse().map((r) => ({ ...r.summary, startedMs: Date.parse(r.summary.startedAt), summary: r.summary }));
  const result = applyRetention(oldestFirst, now, (r) => r.state === 'finished', (r) => rmSync(join(folder, `${r.id}.jsonl`), { force: true }), limits);
  return { removed: result.removed.map((r) => r.summary), overCap: result.overCap.map((r) => r.summary), bytesLeft: result.bytesLeft };
}
