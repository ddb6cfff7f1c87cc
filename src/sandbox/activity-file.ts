// The activity log of a file store, kept beside the state file in its own
// append-only file so that logging a read never rewrites the (possibly huge) state.
// Written under the state file's lock (store.ts).

import { appendFileSync, closeSync, fstatSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NotRegularFileError, openRegularFile, readTextIfExists } from '../files/regular-file.js';
import { MAX_ACTIVITY, type ActivityEntry } from './state.js';

const LOG = 'the sandbox activity log';

/**
 * The activity log beside the state file (`<file>.activity.jsonl`), appended under the
 * same lock: logging a read then costs one small append instead of rewriting a state
 * that may hold 100,000 accounts. A torn last line (a crash mid-append) is skipped.
 */
export function activityPath(path: string): string {
  return `${path}.activity.jsonl`;
}

export function appendActivity(path: string, entries: readonly ActivityEntry[]): void {
  if (entries.length === 0) return;
  const log = activityPath(path);
  // After a torn line, start on a fresh line so the new entries stay readable.
  const lead = endsMidLine(log) ? '\n' : '';
  appendFileSync(log, lead + entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
  // Keep it bounded: past twice the cap, rewrite the newest MAX_ACTIVITY atomically.
  if (statSync(log).size > MAX_ACTIVITY * 400) writeActivity(path, readActivity(path).slice(-MAX_ACTIVITY));
}

function endsMidLine(file: string): boolean {
  // Not a regular file is an error (a FIFO would block the append after this); any
  // other failure to open is left to the append to report.
  let fd: number | undefined;
  try {
    fd = openRegularFile(file, LOG);
  } catch (err) {
    if (err instanceof NotRegularFileError) throw err;
  }
  if (fd === undefined) return false;
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

export function readActivity(path: string): ActivityEntry[] {
  const text = readTextIfExists(activityPath(path), LOG);
  if (text === undefined) return [];
  const out: ActivityEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as ActivityEntry);
    } catch { /* a torn line from a crash */ }
  }
  return out;
}

/** Replaces the whole log (reset, compaction): temp file and rename. */
export function writeActivity(path: string, entries: readonly ActivityEntry[]): void {
  const log = activityPath(path);
  const temp = join(dirname(log), `.${basename(log)}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temp, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
  renameSync(temp, log);
}
