// The journal's retention, applied as a run's journal opens: the rule of
// prune.ts, at the cost of the folder's listing and a stat of each file. That cost grows
// with the runs kept (a shell loop of single changes leaves a file each: thousands a
// day), so it is paid at most once an hour: the modification time of `.retained` says
// when it last was, and a run within the hour after it stats that file only. Only a run
// that the rule would remove is opened, and only its last bytes read: it is finished
// when its last entry is an `end` that was not interrupted. A run with a lock file
// (running, or killed) is never touched.

import { closeSync, fstatSync, openSync, readSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_ID } from './journal.js';
import { isOwnHeader } from './read.js';
import { applyRetention, overCapWarning, type RunFacts } from './prune.js';
import { retainPlans } from '../plan/store.js';

/** Enough for the `end` entry, whole. */
const TAIL_BYTES = 512;
/** Enough for a header, whole (its command line, its input's path). */
const HEAD_BYTES = 16_384;
/** Retention is applied at most this often; `bo history prune` applies it now. */
export const RETAIN_EVERY_MS = 3_600_000;
const MARK = '.retained';

/** Removes what retention says of `folder`'s runs, but `current`; warns about a run over the cap on its own. Never throws. */
export function retainJournal(folder: string, now: Date, current: string, warn: (line: string) => void): void {
  try {
    // Date.now(), not the run's clock: the mark's time is the file system's.
    const mark = join(folder, MARK);
    const at = Date.now();
    let last: number | undefined;
    try {
      last = statSync(mark).mtimeMs;
    } catch { /* never applied here */ }
    // A mark from the future (a clock set back) counts as none.
    if (last !== undefined && last <= at && at - last < RETAIN_EVERY_MS) return;
    writeFileSync(mark, `${new Date(at).toISOString()}\n`, { mode: 0o600 });
    const names = new Set(readdirSync(folder));
    const runs: RunFacts[] = [];
    for (const name of [...names].sort()) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!name.endsWith('.jsonl') || !RUN_ID.test(id) || id === current || names.has(`${id}.lock`)) continue;
      // Run ids sort by start: the listing sorted is oldest first.
      runs.push({ id, startedMs: startOf(id), bytes: statSync(join(folder, name)).size });
    }
    const file = (r: RunFacts) => join(folder, `${r.id}.jsonl`);
    const { overCap } = applyRetention(runs, now, (r) => endedWhole(file(r)), (r) => rmSync(file(r), { force: true }));
    for (const r of overCap) warn(overCapWarning(r));
    // The records of plans applied, discarded or expired 7 days ago go with the same retention (D33).
    retainPlans(join(folder, '..', 'plans'), now);
  } catch {
    // Retention is housekeeping: a folder it cannot read or clean never stops a run.
  }
}

/** `20250101T093000-abcdef` → its start, in ms. */
function startOf(id: string): number {
  const s = id.slice(0, 15);
  return Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(9, 11), +s.slice(11, 13), +s.slice(13, 15));
}

/** The run's last entry is an `end` that was not interrupted, and it starts with a header of this bo's: a file of another shape is never removed. */
function endedWhole(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const first = head.toString('utf8', 0, readSync(fd, head, 0, HEAD_BYTES, 0));
    if (!first.includes('\n') || !isOwnHeader(first.slice(0, first.indexOf('\n')))) return false;
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const lines = buf.toString('utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as { t?: unknown; interrupted?: unknown };
    return last.t === 'end' && last.interrupted !== true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
