// The state file on disk: written atomically (temp file, fsync, rename, so a crash
// mid-write leaves the previous file whole) under a lock file, so two processes never
// interleave a read-modify-write. A lock left by a dead process, or older than
// STALE_MS, is taken over. The atomic write and the lock are the ones the CLI's config
// and credentials files use (src/files/).

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { removeStaleTemps, writeFileAtomic } from '../files/atomic-file.js';
import { withFileLock } from '../files/locked-file.js';
import type { State } from './state.js';

const STALE_MS = 30_000;
const WAIT_MS = 60_000;

/**
 * The version counter of the state on disk, read from the head of the file (the
 * writer puts `format` and `version` first). Every commit bumps it under the lock, so
 * an equal number means nothing changed: unlike mtime and size, it cannot miss a
 * write that landed within one timestamp tick. Undefined when there is no file.
 */
export function readVersion(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const head = Buffer.alloc(128);
    const n = readSync(fd, head, 0, head.length, 0);
    const m = /"version":(\d+)/.exec(head.subarray(0, n).toString('utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } finally {
    closeSync(fd);
  }
}

export function readState(path: string): State | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let state: State;
  try {
    state = JSON.parse(text) as State;
  } catch (err) {
    // Our writes are atomic, so this is an edit from outside: say how to start over.
    throw new Error(`the sandbox state file ${path} is not valid JSON (${(err as Error).message}); delete it to start over`);
  }
  if (state?.format !== 'bo-sandbox/1') throw new Error(`${path} is not a sandbox state file; delete it to start over`);
  return state;
}

export function writeStateAtomically(path: string, state: State): void {
  // `format` and `version` first, whatever order the object was built in (readVersion).
  const { format, version, ...rest } = state;
  writeFileAtomic(path, JSON.stringify({ format, version, ...rest }));
}

/** Removes temp files left by a crashed writer (never the live file). */
export { removeStaleTemps };

/** The whole read-modify-write of a transaction holds the state file's lock. */
export function withLock<T>(path: string, fn: () => T): Promise<T> {
  return withFileLock(path, fn, { what: 'the sandbox state file', staleMs: STALE_MS, waitMs: WAIT_MS });
}
