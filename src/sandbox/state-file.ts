// The state file on disk: written atomically (temp file, fsync, rename, so a crash
// mid-write leaves the previous file whole) under a lock file (O_EXCL create), so two
// processes never interleave a read-modify-write. A lock left by a dead process, or
// older than STALE_MS, is taken over.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    // `format` and `version` first, whatever order the object was built in (readVersion).
    const { format, version, ...rest } = state;
    writeSync(fd, JSON.stringify({ format, version, ...rest }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    try { unlinkSync(temp); } catch { /* already gone */ }
    throw err;
  }
  try {
    // Makes the rename itself durable; not every platform can open a directory.
    const dir = openSync(dirname(path), 'r');
    try { fsyncSync(dir); } finally { closeSync(dir); }
  } catch { /* best effort */ }
}

/** Removes temp files left by a crashed writer (never the live file). */
export function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    // Temp names end in .<pid>.<time>.tmp (state and activity log alike).
    const pid = Number(name.split('.').at(-3));
    if (pid === process.pid || isAlive(pid)) continue;
    try { unlinkSync(join(dirname(path), name)); } catch { /* raced with another cleaner */ }
  }
}

export async function withLock<T>(path: string, fn: () => T): Promise<T> {
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + WAIT_MS;
  let delay = 2;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try { writeSync(fd, token); } finally { closeSync(fd); }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (breakStaleLock(lock)) continue;
      if (Date.now() > deadline) throw new Error(`sandbox state is locked by another process (${lock})`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 50);
    }
  }
  try {
    return fn();
  } finally {
    try {
      if (readFileSync(lock, 'utf8') === token) unlinkSync(lock);
    } catch { /* taken over as stale: not ours to remove */ }
  }
}

function breakStaleLock(lock: string): boolean {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return true; // released meanwhile: try again at once
  }
  const [pidText, timeText] = text.split(' ');
  const pid = Number(pidText);
  const age = Date.now() - Number(timeText);
  // An empty lock is one being written right now, unless it is old.
  const stale = text === '' ? lockAge(lock) > STALE_MS : !isAlive(pid) || age > STALE_MS;
  if (!stale) return false;
  try {
    if (readFileSync(lock, 'utf8') === text) unlinkSync(lock);
  } catch { /* someone else broke it */ }
  return true;
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
