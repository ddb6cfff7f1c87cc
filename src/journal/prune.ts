// Retention of the journal (issue 33): whole files of finished runs are removed, oldest
// first, when older than 90 days or while the journal holds more than 200 MB. A running
// or interrupted run is never removed (it may still be resumed), and a single run over
// the cap is kept with a warning, never cut.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readRuns, type RunSummary } from './read.js';

export const KEEP_DAYS = 90;
export const KEEP_BYTES = 200 * 1024 * 1024;

export interface PruneResult {
  removed: RunSummary[];
  /** Kept although the cap says otherwise: the running and interrupted runs, and a finished one over the cap on its own. */
  overCap: RunSummary[];
  bytesLeft: number;
}

export function pruneJournal(folder: string, now: Date, limits = { days: KEEP_DAYS, bytes: KEEP_BYTES }): PruneResult {
  const oldestFirst = readRuns(folder).reverse();
  let total = oldestFirst.reduce((n, r) => n + r.summary.bytes, 0);
  const cutoff = now.getTime() - limits.days * 86_400_000;
  const removed: RunSummary[] = [];
  for (const { summary: s } of oldestFirst) {
    if (s.state !== 'finished') continue;
    if (Date.parse(s.startedAt) >= cutoff && total <= limits.bytes) continue;
    rmSync(join(folder, `${s.id}.jsonl`), { force: true });
    removed.push(s);
    total -= s.bytes;
  }
  const overCap = total > limits.bytes ? oldestFirst.map((r) => r.summary).filter((s) => !removed.includes(s) && s.bytes > limits.bytes) : [];
  return { removed, overCap, bytesLeft: total };
}
