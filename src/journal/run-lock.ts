// The lock of one journal run, `<state>/journal/<run id>.lock`: held by the process that
// writes the run (a batch, a single change, `bo batch resume`) from before it reads the
// run until it ends, so a run is written by one process at a time and resumed once.
//
// What a lock holds: one line, "<pid> <start> <boot id> <nonce>". `start` is the holder's
// start time (field 22 of /proc/<pid>/stat, clock ticks since boot) and the boot id is
// /proc/sys/kernel/random/boot_id; both are `-` where there is no /proc. The nonce makes
// every lock file's text unique. A lock of the older format holds the pid alone.
//
// When a lock is stale (taken over): its process is gone; or, where /proc tells, the
// machine booted since it was written (another boot id) or the process now holding its
// pid is another one (another start time). A lock whose pid is alive is never taken over
// where that cannot be told (no /proc, a lock of the older format): the error names the
// lock file to remove (docs/history.md).
//
// Taking a lock is atomic, and so is taking over a stale one: of any number of processes
// that find the same stale lock, exactly one holds it afterwards.
//
// - A lock is only ever made whole: its line is written to a file of this process's own
//   (`<lock>.<nonce>.new`) and link(2)ed into place, which fails when a lock is there. A
//   reader never sees half a lock of ours.
// - Replacing a stale lock needs the right to: the claim `<lock>.<name of the stale
//   lock>` (its nonce; for a lock of the older format its inode and mtime), made by
//   link(2) too, so one process alone can make it. The claim holds its maker's line.
// - A claim whose maker is alive means a take-over under way: the others wait a moment
//   and look again (they then find the new holder, alive). A claim whose maker died
//   (killed between its two steps) is stale in turn, and the right passes on along a
//   chain: the claim of that claim (`<lock>.<its nonce>`), and so on. One process alone
//   holds the end of the chain.
// - Holding the end, the process checks that the lock and each claim on the way are
//   still what it judged stale, then rename(2)s its own file over the lock (atomic: the
//   path never lacks a lock) and removes the claims. Nobody else can have changed the
//   lock meanwhile: a new lock cannot be linked over it, a stale lock's process does not
//   let go, and replacing it needs the end of its chain, which this process holds. A
//   process that judged an older lock (slow, and the lock has been replaced and its
//   claims removed since) may make that lock's claim again, but its check then fails:
//   it lets go of its claim and looks again.
//
// Deleting a stale lock and making a new one (two steps) would not do: two processes
// that judged the same stale lock could each delete the other's new one.

import { closeSync, fstatSync, linkSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../files/process-alive.js';

/** What a lock file says of its holder. */
export interface LockHolder {
  pid: number;
  /** The holder's start time in clock ticks since boot, and the boot id; undefined where not recorded. */
  start?: string;
  boot?: string;
}

/** A lock file as it was read: its text, its holder (undefined: not a lock's text), its name for claims. */
interface Seen {
  text: string;
  holder: LockHolder | undefined;
  /** Unique to this lock file: its nonce, else its inode and mtime. */
  name: string;
  ageMs: number;
}

/** A lock this process holds. */
export interface RunLock {
  readonly file: string;
  /** The stale lock it replaced, if any (`bo batch resume` says so). */
  readonly tookOver: LockHolder | undefined;
  /** Lets go (removes the lock file if it is still this one); again is harmless. */
  release(): void;
}

/** Another process holds the run. */
export interface HeldBy {
  holder: LockHolder;
  /** The lock's holder was told alive by its pid alone (no /proc, or a lock of the older format). */
  byPidOnly: boolean;
  file: string;
}

/** A lock file with text that is not a lock's (being written by an older bo) is taken as held this long. */
const UNREADABLE_STALE_MS = 2_000;
/** How long to wait for a take-over under way, or a lock being written, before calling it held. */
const WAIT_MS = 3_000;

export const lockFileOf = (folder: string, id: string): string => join(folder, `${id}.lock`);

/**
 * Takes the run's lock: `RunLock` when this process holds it (made, or taken over from a
 * stale one), else who holds it. Throws an errno Error when the folder cannot be written.
 */
export function takeRunLock(folder: string, id: string): RunLock | HeldBy {
  const file = lockFileOf(folder, id);
  const nonce = newNonce();
  const mine = `${process.pid} ${ownFacts()?.start ?? '-'} ${ownFacts()?.boot ?? '-'} ${nonce}\n`;
  const draft = `${file}.${nonce}.new`;
  writeFileSync(draft, mine, { flag: 'wx', mode: 0o600 });
  const deadline = Date.now() + WAIT_MS;
  // The maker of a take-over under way, last seen: the holder to name if it never ends.
  let busy: LockHolder | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        // Someone is between two steps (a take-over, an older bo writing its lock).
        if (Date.now() > deadline) break;
        sleepSync(Math.min(2 ** attempt, 50));
      }
      if (tryLink(draft, file)) return held(file, mine, undefined);
      const seen = readLock(file);
      if (seen === undefined) continue; // let go meanwhile: link again
      const verdict = judge(seen);
      if (verdict === 'wait') continue;
      if (verdict !== 'stale') return { holder: verdict.holder, byPidOnly: verdict.byPidOnly, file };
      const taken = takeOver(file, seen, draft);
      if (taken === 'taken') return held(file, mine, seen.holder ?? { pid: 0 });
      if (taken !== 'again') busy = taken;
    }
    const last = readLock(file);
    return { holder: busy ?? last?.holder ?? { pid: 0 }, byPidOnly: true, file };
  } finally {
    try {
      unlinkSync(draft);
    } catch { /* renamed into place */ }
  }
}

/** The live holder of the run's lock, or undefined when there is none (no lock, or a stale one). */
export function liveHolder(folder: string, id: string): LockHolder | undefined {
  let seen: Seen | undefined;
  try {
    seen = readLock(lockFileOf(folder, id));
  } catch {
    return undefined; // a lock file bo cannot read: `bo batch resume` says why, when it takes it
  }
  if (seen === undefined) return undefined;
  const verdict = judge(seen);
  if (verdict === 'stale') return undefined;
  // A lock being written right now: its run is running.
  if (verdict === 'wait') return seen.holder ?? { pid: 0 };
  return verdict.holder;
}

/**
 * Claims the right to replace `seen` (see the top), and replaces it; 'again' when the lock
 * changed meanwhile, or the maker of a take-over under way.
 */
function takeOver(file: string, seen: Seen, draft: string): 'taken' | 'again' | LockHolder {
  // The chain of what is being replaced: the stale lock, then each claim whose maker died.
  const chain: Array<{ path: string; seen: Seen }> = [{ path: file, seen }];
  let claim = `${file}.${seen.name}`;
  for (let step = 0; ; step++) {
    if (step > 64) return 'again';
    if (tryLink(draft, claim)) break;
    const other = readLock(claim);
    if (other === undefined) continue; // let go meanwhile: claim it again
    const verdict = judge(other);
    // Alive: another process is replacing the lock right now; look again in a moment.
    if (verdict === 'wait') return 'again';
    if (verdict !== 'stale') return verdict.holder;
    chain.push({ path: claim, seen: other });
    claim = `${file}.${other.name}`;
  }
  const unchanged = chain.every((c) => {
    const now = readLock(c.path);
    return now !== undefined && now.text === c.seen.text && now.name === c.seen.name;
  });
  if (unchanged) renameSync(draft, file);
  // Replaced: the claims on the way go, ours last. Not replaced: only ours goes.
  for (const path of unchanged ? [...chain.slice(1).map((c) => c.path), claim] : [claim]) {
    try {
      unlinkSync(path);
    } catch { /* gone already */ }
  }
  return unchanged ? 'taken' : 'again';
}

function held(file: string, mine: string, tookOver: LockHolder | undefined): RunLock {
  let released = false;
  return {
    file,
    tookOver,
    release() {
      if (released) return;
      released = true;
      try {
        // Only our own: a lock taken over from us (judged stale by mistake) is not ours to remove.
        if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
      } catch { /* gone already */ }
    },
  };
}

/** link(2) `from` to `to`: false when `to` exists. */
function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** A lock file's text and facts, read through one descriptor; undefined when there is none. */
function readLock(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(Math.min(st.size, 512));
    const n = buf.length === 0 ? 0 : readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const holder = parseLock(text);
    const nonce = /^\d+ \S+ \S+ ([a-z0-9]{4,32})\n$/.exec(text)?.[1];
    return { text, holder, name: nonce ?? `i${st.ino}-${Math.floor(st.mtimeMs)}`, ageMs: Date.now() - st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** "<pid> <start> <boot> <nonce>" or, the older format, "<pid>". */
export function parseLock(text: string): LockHolder | undefined {
  const words = text.trim().split(' ');
  const pid = Number(words[0]);
  if (!/^\d+$/.test(words[0] ?? '') || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (words.length === 1) return { pid };
  if (words.length !== 4) return undefined;
  const [, start, boot] = words as [string, string, string];
  return { pid, ...(start === '-' ? {} : { start }), ...(boot === '-' ? {} : { boot }) };
}

/** Stale, held (and how it was told), or being written (an older bo between creating and writing it). */
function judge(seen: Seen): 'stale' | 'wait' | { holder: LockHolder; byPidOnly: boolean } {
  const holder = seen.holder;
  if (holder === undefined) return seen.ageMs > UNREADABLE_STALE_MS ? 'stale' : 'wait';
  const here = ownFacts();
  // Written before this boot: its process is gone, whatever holds its pid now.
  if (holder.boot !== undefined && here?.boot !== undefined && holder.boot !== here.boot) return 'stale';
  if (!isAlive(holder.pid)) return 'stale';
  const start = startTimeOf(holder.pid);
  if (holder.start === undefined || holder.boot === undefined || start === undefined) return { holder, byPidOnly: true };
  // Its pid names another process now, started after the lock was written.
  return start === holder.start ? { holder, byPidOnly: false } : 'stale';
}

let facts: { start: string; boot: string } | null | undefined;

/** This process's start time and the boot id, where /proc tells them. */
function ownFacts(): { start: string; boot: string } | undefined {
  if (facts === undefined) {
    const start = startTimeOf(process.pid);
    let boot: string | undefined;
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
    } catch { /* no /proc */ }
    facts = start !== undefined && boot !== undefined && /^[\w-]+$/.test(boot) ? { start, boot } : null;
  }
  return facts ?? undefined;
}

/** Field 22 of /proc/<pid>/stat (the start time, clock ticks since boot), or undefined where there is no /proc. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = after[22 - 3];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function newNonce(): string {
  // Math.random, as run ids do (node:crypto costs 2.6 ms to load on every change): the
  // nonce tells lock files apart, it guards nothing; the pid keeps two processes' apart.
  return `${process.pid.toString(36)}${Math.random().toString(36).slice(2, 10)}`.slice(0, 24);
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** The refusal of a run another process holds; where that process was told by its pid alone, how to let the lock go. */
export function heldMessage(id: string, held: HeldBy): string {
  const base = `run ${id} is still going (process ${held.holder.pid}): stop it first, or wait for it`;
  if (!held.byPidOnly) return base;
  return `${base}; if no bo is running it (its process id may name another program now), remove ${held.file}`;
}
