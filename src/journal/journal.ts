// The journal of one run: a JSON Lines file `<state>/journal/<run id>.jsonl`,
// 0600, written so that a run killed at any moment leaves a true record of what it sent.
//
// - `run`: the header (profile, origin, the command without secret values, the input file).
// - `send`: before each request — its write(2) has returned before the request's first
//   byte leaves, so even SIGKILL cannot lose it. The record's line number (never the
//   line's text) and Uid, method, path, the names of the body's fields and an HMAC of the
//   body with a random key kept 0600 beside the journal (a short secret cannot be
//   recovered from it, as it could from a plain hash). Never a value of the body.
// - `outcome`: after the answer: status, ok or not, the error code, and whether it
//   changed anything (`changed`, `reason`: D32) when the verb can tell. A `send` with no
//   `outcome` is unknown: sent, no answer recorded.
// - `end`: the run finished (or stopped on a signal, `interrupted`). A run that sent
//   nothing has no file once it ends.
// - `resume`: `bo batch resume` goes on with the run in the same file; what follows is
//   its sending, and its own `end` is the one that counts.
//
// The file is fsynced at least every 200 ms, at the end and on a signal: a machine crash
// may lose the last 200 ms of entries, which then read as never sent. While the run
// lives it holds `<run id>.lock` (run-lock.ts): `bo history` tells a running run from an
// interrupted one by it, and no other process writes the run meanwhile. Entries are
// appended (O_APPEND), never written at an offset this process computed.

import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BoError } from '../errors.js';
import { ensureStatePart } from '../files/state.js';
import { heldMessage, takeRunLock, type RunLock } from './run-lock.js';

/** What a journal file starts with. */
export interface RunHeader {
  profile: string;
  origin: string;
  /** The command as typed, secret values replaced by `***`: for display (bo history). */
  command: string;
  /**
   * The invocation the run is (invocation.ts), what `bo batch resume` runs again: the
   * verb's path, its target and fields by name, a secret field's value as `***`. A run
   * written before it was stored has only `command` (read by command-words.ts).
   */
  invocation?: StoredInvocation;
  /** A `-` batch (only these can be resumed). */
  batch: boolean;
  /** The batch's input when stdin is a file: its path and size. */
  input?: { path: string; size: number };
}

/** An invocation as a run stores it: plain JSON. */
export interface StoredInvocation {
  path: string[];
  values: Record<string, string | number | boolean | string[]>;
}

/** One change about to be sent. */
export interface Change {
  method: string;
  path: string;
  body?: unknown;
  /** A batch record's line number and target. */
  line?: number;
  uid?: string;
  /** A batch: the running digest of the records read so far, this one included. */
  read?: string;
}

export interface ChangeOutcome {
  status: number;
  ok: boolean;
  code?: string;
  /** Whether it changed anything (D32), when the verb can tell; absent (older runs, `bo api`) reads as null. */
  changed?: boolean | null;
  reason?: string | null;
}

/** How often, at most, written entries wait for fsync. */
export const FSYNC_EVERY_MS = 200;

export const JOURNAL_FOLDER = 'journal';
/** The format of the run files this bo writes (the header's `v`); a newer one is listed, never resumed. */
export const JOURNAL_VERSION = 1;
const KEY_FILE = '.key';
const KEY_BYTES = 32;

/** A run id: `<UTC yyyymmddThhmmss>-<6 base32 characters>`; sorts by start time. */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  // Math.random, not node:crypto (2.6 ms to load, on every change): the id is no secret,
  // and a run that drew one already taken fails to create its file ('wx'), never shares it.
  const random = Array.from({ length: 6 }, () => alphabet[Math.floor(Math.random() * 32)]).join('');
  return `${stamp}-${random}`;
}

export const RUN_ID = /^\d{8}T\d{6}-[a-z2-7]{6}$/;

export class Journal {
  readonly id: string;
  readonly file: string;
  private readonly lock: RunLock;
  private readonly key: Buffer;
  private fd: number | undefined;
  private seq = 0;
  /** Going on with an earlier run's file: it is never removed. */
  private readonly resumed: boolean;
  /** The file's size after the last whole entry: a write cut short is cut back to it (the lock makes the file ours alone). */
  private size = 0;
  private dirty = false;
  private syncing = false;
  private closeAfterSync = false;
  private readonly timer: NodeJS.Timeout;

  /**
   * Creates the run's file and lock and writes the header; or, `{ resume: id, lock }`,
   * goes on with that run's file (`bo batch resume`), whose lock the caller took before it
   * read the run: a line a kill cut short cut off, a `resume` entry, and the changes
   * numbered on from its last. Throws (an errno Error) when it cannot.
   */
  constructor(readonly folder: string, start: RunHeader | { resume: string; lock: RunLock }, now: Date) {
    ensureStatePart(folder);
    this.key = journalKey(folder);
    const resume = 'resume' in start ? start : undefined;
    this.resumed = resume !== undefined;
    this.id = resume?.resume ?? newRunId(now);
    this.file = join(folder, `${this.id}.jsonl`);
    if (resume === undefined) {
      // A new id: no lock can be there but one a run that drew the same id holds.
      const lock = takeRunLock(folder, this.id);
      if (!('release' in lock)) throw new BoError(heldMessage(this.id, lock), { code: 'failed' });
      this.lock = lock;
    } else this.lock = resume.lock;
    try {
      if (resume === undefined) {
        // O_APPEND: each entry goes at the end, wherever that is.
        this.fd = openSync(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, 0o600);
        this.write({ t: 'run', v: JOURNAL_VERSION, run: this.id, pid: process.pid, at: now.toISOString(), ...(start as RunHeader) });
      } else {
        // 'a+': appends, and reads the tail; under the lock, nobody else writes the file.
        this.fd = openSync(this.file, 'a+');
        const { whole, lastChange } = tailOf(this.fd);
        ftruncateSync(this.fd, whole);
        this.size = whole;
        this.seq = lastChange;
        this.write({ t: 'resume', pid: process.pid, at: now.toISOString() });
      }
      // No fsync here: the 200 ms timer, the end and a signal make entries durable (a
      // crash loses at most the last 200 ms, the header included); one fewer on the way
      // to every change's request.
    } catch (err) {
      this.release();
      throw err;
    }
    // In the background: the batch's requests go on while the disk catches up.
    this.timer = setInterval(() => this.syncInBackground(), FSYNC_EVERY_MS);
    this.timer.unref();
  }

  /** Writes the entry for a change about to be sent; returns its number for `after`. Throws when it cannot be written. */
  before(change: Change, now: Date): number {
    const n = ++this.seq;
    const body = change.body;
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    this.write({
      t: 'send',
      n,
      ...(change.line === undefined ? {} : { line: change.line }),
      ...(change.uid === undefined ? {} : { uid: change.uid }),
      method: change.method,
      path: change.path,
      fields,
      ...(body === undefined ? {} : { digest: this.digest(body) }),
      ...(change.read === undefined ? {} : { read: change.read }),
      at: now.toISOString(),
    });
    return n;
  }

  /** Records the answer to change `n`. */
  after(n: number, outcome: ChangeOutcome, now: Date): void {
    const { changed, reason } = outcome;
    this.write({
      t: 'outcome',
      n,
      status: outcome.status,
      ok: outcome.ok,
      ...(outcome.code ? { code: outcome.code } : {}),
      ...(changed === undefined ? {} : { changed }),
      ...(reason ? { reason } : {}),
      at: now.toISOString(),
    });
  }

  /** An HMAC of the body: equal bodies match, and no value can be read back from it. */
  digest(body: unknown): string {
    return createHmac('sha256', this.key).update(JSON.stringify(body)).digest('hex');
  }

  /** fsync now, if anything was written since the last one (the 200 ms timer, a signal). */
  sync(): void {
    if (this.fd === undefined || !this.dirty) return;
    this.dirty = false;
    try {
      fsyncSync(this.fd);
    } catch { /* the next write reports the disk's trouble */ }
  }

  /** fsync on the thread pool, one at a time; the file stays open until it is done. */
  private syncInBackground(): void {
    if (this.fd === undefined || !this.dirty || this.syncing) return;
    this.dirty = false;
    this.syncing = true;
    const fd = this.fd;
    fsync(fd, () => {
      this.syncing = false;
      if (this.closeAfterSync) closeQuietly(fd);
    });
  }

  /**
   * The run is over: `end`, fsync, and the lock let go. A run that sent nothing (a
   * batch refused before its first record, every record invalid) leaves no file:
   * there is nothing in it to show or resume; one whose records --diff found in place
   * (D32's already-holds) is kept, since `bo history` counts them. Never throws.
   */
  close(now: Date, interrupted: boolean, left: { notAttempted: number; unread?: true; skipped?: number } = { notAttempted: 0 }): void {
    if (this.fd === undefined) return;
    if (this.seq === 0 && !this.resumed && !(left.skipped !== undefined && left.skipped > 0)) {
      try {
        unlinkSync(this.file);
      } catch { /* gone already */ }
      this.release();
      return;
    }
    try {
      this.write({ t: 'end', at: now.toISOString(), ...left, ...(interrupted ? { interrupted: true } : {}) });
    } catch { /* no end: it reads as interrupted, which is the truth as far as the file knows */ }
    this.sync();
    this.release();
  }

  /** Appends one line, whole or not at all: a write cut short (a full disk) is cut off again. */
  private write(entry: Record<string, unknown>): void {
    if (this.fd === undefined) throw new Error('the journal is closed');
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    try {
      writeAll(this.fd, bytes);
    } catch (err) {
      try {
        ftruncateSync(this.fd, this.size);
      } catch { /* what is left past the last newline is no entry: readers skip it */ }
      throw err;
    }
    this.size += bytes.length;
    this.dirty = true;
  }

  private release(): void {
    clearInterval(this.timer);
    if (this.fd !== undefined) {
      // A background fsync still holds the descriptor: closed when it ends, never under it.
      if (this.syncing) this.closeAfterSync = true;
      else closeQuietly(this.fd);
      this.fd = undefined;
    }
    this.lock.release();
  }
}

/**
 * The end of a run file: how many bytes are whole lines (a line a kill cut short is past
 * them) and the number of its last `send` entry (0 with none). Read backwards a piece at a
 * time: numbers only grow, so the last `send` in the file has the highest, and only the
 * entries after it (outcomes, an end, a resume) are read past.
 */
function tailOf(fd: number): { whole: number; lastChange: number } {
  const size = fstatSync(fd).size;
  const piece = 1 << 16;
  let whole: number | undefined;
  // The first bytes after the piece being read (a line's start read in the piece after it).
  let next = Buffer.alloc(0);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - piece);
    const length = end - start;
    const buf = Buffer.alloc(length + next.length);
    readSync(fd, buf, 0, length, start);
    next.copy(buf, length);
    for (let i = length - 1; i >= -1; i--) {
      if (i >= 0 && buf[i] !== 10) continue;
      if (i === -1 && start > 0) break;
      // A line starts at i + 1; the one after the file's last newline is no whole line.
      if (whole === undefined) {
        whole = start + i + 1;
        continue;
      }
      if (buf.subarray(i + 1, i + 1 + SEND.length).equals(SEND)) {
        const digits = /^\d+/.exec(buf.toString('latin1', i + 1 + SEND.length, i + 1 + SEND.length + 20))?.[0];
        if (digits !== undefined) return { whole, lastChange: Number(digits) };
      }
    }
    next = Buffer.from(buf.subarray(0, Math.min(40, buf.length)));
    end = start;
  }
  return { whole: whole ?? 0, lastChange: 0 };
}

const SEND = Buffer.from('{"t":"send","n":');

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch { /* closed is closed */ }
}

/** write(2) until every byte is written: a short write would leave half a line. */
function writeAll(fd: number, data: string | Buffer): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
}

/** The HMAC key beside the journal files: 32 random bytes, made once, 0600. */
function journalKey(folder: string): Buffer {
  const path = join(folder, KEY_FILE);
  try {
    const key = readFileSync(path);
    if (key.length === KEY_BYTES) return key;
    // Cut short (a full disk as it was made): made again below.
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(KEY_BYTES);
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeAll(fd, key);
      fsyncSync(fd);
    } catch (err) {
      unlinkSync(path);
      throw err;
    } finally {
      closeSync(fd);
    }
    return key;
  } catch (err) {
    // Another run made it first.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path);
    throw err;
  }
}
