// One lock for every file bo rewrites (config.json, credentials.json, the sandbox
// state file), so two processes never interleave a read-modify-write and lose one of
// the writes. The lock is `<file>.lock`, created with O_EXCL and holding
// "<pid> <time> <random>". A lock whose process is gone (killed by SIGKILL, say), or
// older than `staleMs` (a reused pid, a hung holder), is taken over. Waiting sleeps
// with a growing, jittered delay: it never spins the CPU.
//
// Two forms: an async one for the sandbox server (its event loop keeps serving while
// it waits) and a sync one for the CLI's config and credentials files, whose callers
// are synchronous; it sleeps with Atomics.wait. In both, `fn` is synchronous, so the
// lock is held only for the read-modify-write itself.

import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isAlive } from './process-alive.js';

export interface LockOptions {
  /** What is locked, for the message when waiting gives up ("the config file"). */
  what: string;
  /** A lock older than this is taken over even when its pid names a live process. */
  staleMs: number;
  /** How long to wait for a live holder before giving up. */
  waitMs: number;
}

/** The lock of a file that is only ever held for a few milliseconds. */
export const SHORT_LOCK = { staleMs: 10_000, waitMs: 15_000 } as const;

/** A lock file not yet holding its token is being written right now, unless older. */
const EMPTY_STALE_MS = 2_000;

/** Locks this process holds: taking one again from inside `fn` would wait forever. */
const held = new Set<string>();

export async function withFileLock<T>(path: string, fn: () => T, options: LockOptions): Promise<T> {
  const lock = begin(path);
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; !tryAcquire(lock, options.staleMs); attempt++) {
    giveUpAfter(deadline, lock, options);
    await new Promise((resolve) => setTimeout(resolve, backoff(attempt)));
  }
  return runHolding(lock, fn);
}

export function withFileLockSync<T>(path: string, fn: () => T, options: LockOptions): T {
  const lock = begin(path);
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; !tryAcquire(lock, options.staleMs); attempt++) {
    giveUpAfter(deadline, lock, options);
    sleepSync(backoff(attempt));
  }
  return runHolding(lock, fn);
}

function begin(path: string): string {
  const lock = `${path}.lock`;
  if (held.has(lock)) throw new Error(`${lock} is already held by this process`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return lock;
}

/** The token written into each lock this process holds, to release only its own. */
const tokenOf = new Map<string, string>();

/** Creates the lock file, or breaks a stale one; false while a live holder has it. */
function tryAcquire(lock: string, staleMs: number): boolean {
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  try {
    const fd = openSync(lock, 'wx', 0o600);
    try { writeSync(fd, token); } finally { closeSync(fd); }
    tokenOf.set(lock, token);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A broken stale lock is retried at once; the next attempt may still lose the race.
    return breakStaleLock(lock, staleMs) ? tryAcquire(lock, staleMs) : false;
  }
}

function runHolding<T>(lock: string, fn: () => T): T {
  held.add(lock);
  try {
    return fn();
  } finally {
    held.delete(lock);
    const token = tokenOf.get(lock);
    tokenOf.delete(lock);
    try {
      if (readFileSync(lock, 'utf8') === token) unlinkSync(lock);
    } catch { /* taken over as stale: not ours to remove */ }
  }
}

function giveUpAfter(deadline: number, lock: string, options: LockOptions): void {
  if (Date.now() <= deadline) return;
  throw new Error(`${options.what} is locked by another process (${lock}); if no other bo is running, delete that lock file`);
}

/** 2, 4, 8 … 50 ms, each between half and one and a half times that, so waiters spread out. */
function backoff(attempt: number): number {
  const base = Math.min(2 ** (attempt + 1), 50);
  return Math.max(1, Math.round(base * (0.5 + Math.random())));
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

function breakStaleLock(lock: string, staleMs: number): boolean {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return false; // released meanwhile: the next attempt may take it
  }
  const [pidText, timeText] = text.split(' ');
  const stale =
    text === '' ? lockAge(lock) > EMPTY_STALE_MS : !isAlive(Number(pidText)) || Date.now() - Number(timeText) > staleMs;
  if (!stale) return false;
  try {
    // Only the lock we judged: another waiter may have broken it and taken a fresh one.
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
