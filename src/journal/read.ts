// Reading the journal back (`bo history`, `bo batch resume`): each run file as
// a summary and, when asked, its changes or what a resume needs of each line. A run is
// finished when it wrote its `end`; running while the process that holds its lock lives
// (run-lock.ts); interrupted otherwise.
//
// A file is read a piece at a time, never whole, and what a resume needs of each line
// is kept in typed arrays (known-lines.ts): a run of millions of changes reads in a few
// tens of MB. Every entry is checked to be of the shape this bo writes: a file that is
// not (a header or entry of another shape, a line that is not JSON but the last one a
// kill cut short) is a MalformedRunError naming the file; `bo history` skips it with a
// warning, `bo batch resume` refuses it, and nothing removes it. A file of a newer
// format (its header's `v` above JOURNAL_VERSION) is listed as such, never read further.

import { closeSync, existsSync, fstatSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BoError } from '../errors.js';
import { JOURNAL_FOLDER, JOURNAL_VERSION, RUN_ID, type StoredInvocation } from './journal.js';
import { KnownLines, type KnownCounts, type KnownOutcome } from './known-lines.js';
import { liveHolder } from './run-lock.js';
import { openStateFile, StateFolderError, stateFolder } from '../files/state.js';
import type { Env } from '../env.js';

export type RunState = 'finished' | 'interrupted' | 'running' | 'newer';
export type ChangeState = KnownOutcome;

/** One change of a run, as `bo history show` prints it (a stable --json shape). */
export interface ChangeRecord {
  line: number | null;
  uid: string | null;
  method: string;
  path: string;
  fields: string[];
  sentAt: string;
  outcome: ChangeState;
  /** Whether it changed anything (D32): true, false with a reason, null when not known (an older run, no answer). */
  changed: boolean | null;
  reason: string | null;
  status: number | null;
  code: string | null;
}

/** One run, as `bo history list` prints it (a stable --json shape). */
export interface RunSummary {
  id: string;
  startedAt: string;
  profile: string;
  origin: string;
  command: string;
  batch: boolean;
  input: { path: string; size: number } | null;
  done: number;
  /** Of the done changes, those whose answer showed a change, and those whose answer said nothing changed (D32); the rest are not known. */
  changed: number;
  unchanged: number;
  failed: number;
  unknown: number;
  /**
   * Records a finished batch read but did not send (after --fail-fast, a refused
   * credential, a rate limit); null while running or interrupted, when it is not known.
   */
  notAttempted: number | null;
  /** Records a finished batch did not send because --diff read their values in place already (D32's already-holds); null when not known. */
  skipped: number | null;
  /** A finished batch stopped before reading its input to the end (more records may have followed); null when not known. */
  unread: boolean | null;
  /** `newer`: written by a newer bo, whose format this one does not read (its counts are 0: not read). */
  state: RunState;
  /** The process of a running run, else null. */
  pid: number | null;
  bytes: number;
}

export interface RunFile {
  summary: RunSummary;
  file: string;
  /** Each change, in input order: only when asked for (`bo history show`), else empty. */
  changes: ChangeRecord[];
  /** What a resume needs of each line the run sent: only when asked for. */
  known?: KnownLines;
  /** The invocation the run is, as its header stored it; null for a run written before invocations were stored. */
  invocation: StoredInvocation | null;
}

/** A run file that is not of the shape this bo writes: named, never removed. */
export class MalformedRunError extends BoError {
  constructor(readonly file: string, readonly why: string) {
    super(`the journal file ${file} is not a run file this bo can read (${why}); it is left as it is`, { code: 'failed' });
  }
}

/** The journal folder of the state folder in effect, or undefined when there is none. */
export function journalFolder(env: Env): string | undefined {
  const state = stateFolder(env);
  return state === undefined ? undefined : join(state, JOURNAL_FOLDER);
}

/** The warning `bo history` gives once for a run file it skips. */
export const skippedWarning = (err: MalformedRunError): string => `warning: skipped ${err.file}: not a run file this bo can read (${err.why}); it is left as it is`;

/** Every run in `folder` (summaries only), newest first; a file of another shape is skipped, told to `skipped`. */
export function readRuns(folder: string, skipped: (err: MalformedRunError) => void): RunFile[] {
  if (!existsSync(folder)) return [];
  const runs: RunFile[] = [];
  for (const f of readdirSync(folder)) {
    if (!f.endsWith('.jsonl') || !RUN_ID.test(f.slice(0, -6))) continue;
    try {
      const run = readRun(folder, f.slice(0, -6), {});
      if (run) runs.push(run);
    } catch (err) {
      if (!(err instanceof MalformedRunError)) throw err;
      skipped(err);
    }
  }
  // Ids order runs by the second they started; two in one second by their start time.
  return runs.sort((a, b) => b.summary.startedAt.localeCompare(a.summary.startedAt) || b.summary.id.localeCompare(a.summary.id));
}

/**
 * One run by id; undefined when its file is missing. `changes`: each change too (`bo
 * history show`); `known`: what a resume needs of each line. Throws MalformedRunError.
 */
export function readRun(folder: string, id: string, want: { changes?: boolean; known?: boolean } = { changes: true }): RunFile | undefined {
  const file = join(folder, `${id}.jsonl`);
  let fd: number | undefined;
  try {
    // A regular file of the user's own, no link followed (D34); another is named as an odd one is.
    fd = openStateFile(file, 'the run file');
  } catch (err) {
    if (err instanceof StateFolderError) throw new MalformedRunError(file, err.message);
    return undefined;
  }
  if (fd === undefined) return undefined;
  try {
    return readOpen(fd, folder, id, file, want);
  } catch (err) {
    // A file that cannot be read (a folder of that name, an I/O error) is named as an odd one is.
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !(err instanceof BoError)) throw new MalformedRunError(file, `it cannot be read: ${code}`);
    throw err;
  } finally {
    closeSync(fd);
  }
}

interface Header {
  at: string;
  profile: string;
  origin: string;
  command: string;
  batch: boolean;
  input: { path: string; size: number } | null;
  invocation: StoredInvocation | null;
}

/** A change sent, before its answer (if any) is read. */
const NO_ANSWER = { outcome: 'unknown', changed: null, reason: null, status: null, code: null } as const;

function readOpen(fd: number, folder: string, id: string, file: string, want: { changes?: boolean; known?: boolean }): RunFile {
  const bytes = fstatSync(fd).size;
  const bad = (why: string) => new MalformedRunError(file, why);
  let header: Header | undefined;
  let newer = false;
  // What each line's last sending came to, compactly; changes without a line (a single change) beside it.
  const lines = new KnownLines();
  const loose = new Map<number, { outcome: ChangeState; changed: boolean | null }>();
  // Only for `bo history show`: a record sent again (after a 429) is one change, its last sending counts.
  const changes = want.changes ? new Map<string, ChangeRecord>() : undefined;
  const byN = new Map<number, ChangeRecord>();
  let end: Record<string, any> | undefined;

  let lineNo = 0;
  const entry = (e: Record<string, any>) => {
    lineNo++;
    if (header === undefined) {
      header = checkHeader(e, bad);
      if (header && e.v > JOURNAL_VERSION) newer = true;
      return !newer;
    }
    const why = checkEntry(e);
    if (why) throw bad(`line ${lineNo}: ${why}`);
    if (e.t === 'send') {
      if (e.line === undefined) loose.set(e.n, { outcome: 'unknown', changed: null });
      else lines.send(e.line, e.n, e.read);
      if (changes) {
        const change: ChangeRecord = { line: e.line ?? null, uid: e.uid ?? null, method: e.method, path: e.path, fields: e.fields, sentAt: e.at, ...NO_ANSWER };
        changes.set(e.line === undefined ? `n${e.n}` : `l${e.line}`, change);
        byN.set(e.n, change);
      }
    } else if (e.t === 'outcome') {
      const outcome: ChangeState = e.ok ? 'done' : 'failed';
      // An outcome written before D32 says nothing of it: not known.
      const changed: boolean | null = typeof e.changed === 'boolean' ? e.changed : null;
      const reason = changed === false && typeof e.reason === 'string' ? e.reason : null;
      if (loose.has(e.n)) loose.set(e.n, { outcome, changed });
      else lines.outcome(e.n, outcome, changed);
      const change = byN.get(e.n);
      if (change) Object.assign(change, { outcome, changed, reason, status: e.status, code: e.code ?? null });
    } else if (e.t === 'end') end = e;
    // Resumed: the run is running (or interrupted) again until its resume writes its own end.
    else if (e.t === 'resume') end = undefined;
    return true;
  };
  eachLine(fd, (text, last) => {
    let e: unknown;
    try {
      e = JSON.parse(text);
    } catch {
      // The last line of a run killed mid-write is cut short: no entry. Any other is not the journal's.
      if (last) return true;
      throw bad(header === undefined ? 'its first line is not JSON' : `line ${lineNo + 1} is not JSON`);
    }
    if (e === null || typeof e !== 'object' || Array.isArray(e)) throw bad(`line ${lineNo + 1} is not an entry`);
    return entry(e as Record<string, any>);
  });
  if (header === undefined) throw bad('it has no header');

  const running = !end && liveHolder(folder, id);
  const counts: KnownCounts = { done: 0, changed: 0, unchanged: 0, failed: 0, unknown: 0 };
  if (!newer) {
    lines.count(counts);
    for (const { outcome, changed } of loose.values()) {
      counts[outcome]++;
      if (outcome === 'done' && changed !== null) counts[changed ? 'changed' : 'unchanged']++;
    }
  }
  const finished = end !== undefined && end.interrupted !== true;
  return {
    file,
    changes: changes ? [...changes.values()].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) : [],
    ...(want.known ? { known: lines } : {}),
    invocation: header.invocation,
    summary: {
      id,
      startedAt: header.at,
      profile: header.profile,
      origin: header.origin,
      command: header.command,
      batch: header.batch,
      input: header.input,
      ...counts,
      ...leftOf(finished && !newer ? end : undefined),
      state: newer ? 'newer' : finished ? 'finished' : running ? 'running' : 'interrupted',
      pid: running && !newer ? running.pid : null,
      bytes,
    },
  };
}

/** What a finished run's `end` says it left (not attempted, skipped, unread); null for each when not known. */
function leftOf(end: Record<string, any> | undefined): Pick<RunSummary, 'notAttempted' | 'skipped' | 'unread'> {
  if (!end) return { notAttempted: null, skipped: null, unread: null };
  return { notAttempted: end.notAttempted ?? 0, skipped: end.skipped ?? 0, unread: end.unread === true };
}

/**
 * Each line of the file, read a piece at a time (a line may be longer than a piece);
 * `last`: the file's end with no newline after it. `visit` returns false to stop.
 */
function eachLine(fd: number, visit: (text: string, last: boolean) => boolean): void {
  const piece = Buffer.alloc(1 << 20);
  let carry: Buffer[] = [];
  let position = 0;
  for (;;) {
    const n = readSync(fd, piece, 0, piece.length, position);
    if (n === 0) break;
    position += n;
    let start = 0;
    for (let nl = piece.indexOf(10, 0); nl !== -1 && nl < n; nl = piece.indexOf(10, start)) {
      const text = carry.length === 0 ? piece.toString('utf8', start, nl) : Buffer.concat([...carry, piece.subarray(start, nl)]).toString('utf8');
      carry = [];
      start = nl + 1;
      if (!visit(text, false)) return;
    }
    if (start < n) carry.push(Buffer.from(piece.subarray(start, n)));
  }
  if (carry.length > 0) visit(Buffer.concat(carry).toString('utf8'), true);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown, min = 0): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
const isTime = (v: unknown): v is string => isString(v) && !Number.isNaN(Date.parse(v));

/** Whether a run file's first line is a header of the shape this bo writes, of its format. */
export function isOwnHeader(line: string): boolean {
  try {
    const e = JSON.parse(line) as Record<string, any>;
    return e !== null && typeof e === 'object' && checkHeader(e, (why) => new MalformedRunError('', why)) !== undefined && e.v === JOURNAL_VERSION;
  } catch {
    return false;
  }
}

/** The header's fields, checked; a newer format's only as far as they are read. */
function checkHeader(e: Record<string, any>, bad: (why: string) => MalformedRunError): Header {
  if (e.t !== 'run') throw bad('its first line is not a run header');
  if (!isCount(e.v, 1)) throw bad('its header has no format version');
  const wrong = (['at', 'profile', 'origin', 'command'] as const).find((k) => (k === 'at' ? !isTime(e.at) : !isString(e[k])));
  if (wrong) throw bad(`its header's ${wrong} is not ${wrong === 'at' ? 'a date-time' : 'text'}`);
  if (e.v > JOURNAL_VERSION) return { at: e.at, profile: e.profile, origin: e.origin, command: e.command, batch: e.batch === true, input: null, invocation: null };
  if (typeof e.batch !== 'boolean') throw bad("its header's batch is not true or false");
  const input = e.input;
  if (input !== undefined && (input === null || typeof input !== 'object' || !isString(input.path) || !isCount(input.size))) {
    throw bad("its header's input is not a file's path and size");
  }
  if (e.invocation !== undefined && !isStoredInvocation(e.invocation)) throw bad("its header's invocation is not a verb's path and values");
  return {
    at: e.at,
    profile: e.profile,
    origin: e.origin,
    command: e.command,
    batch: e.batch,
    input: input === undefined ? null : { path: input.path, size: input.size },
    // A run written before invocations were stored has its command only (command-words.ts reads it).
    invocation: e.invocation ?? null,
  };
}

/** A stored invocation: the verb's words, and values that are text, numbers, true or false, or lists of text. */
function isStoredInvocation(v: any): v is StoredInvocation {
  if (v === null || typeof v !== 'object' || !Array.isArray(v.path) || v.path.length === 0 || !v.path.every(isString)) return false;
  if (v.values === null || typeof v.values !== 'object' || Array.isArray(v.values)) return false;
  return Object.values(v.values).every((x) => ['string', 'number', 'boolean'].includes(typeof x) || (Array.isArray(x) && x.every(isString)));
}

/** Why an entry is not of the shape this bo writes, or undefined when it is. */
function checkEntry(e: Record<string, any>): string | undefined {
  if (!isTime(e.at)) return 'its at is not a date-time';
  switch (e.t) {
    case 'send':
      if (!isCount(e.n, 1)) return 'a send without its number';
      if (e.line !== undefined && !isCount(e.line, 1)) return "a send's line is not a line number";
      if (e.uid !== undefined && !isString(e.uid)) return "a send's uid is not text";
      if (!isString(e.method) || !isString(e.path)) return "a send's method or path is not text";
      if (!Array.isArray(e.fields) || !e.fields.every(isString)) return "a send's fields are not a list of names";
      if (e.digest !== undefined && !isString(e.digest)) return "a send's digest is not text";
      if (e.read !== undefined && !(isString(e.read) && /^[0-9a-f]{64}$/.test(e.read))) return "a send's read is not a digest";
      return undefined;
    case 'outcome':
      if (!isCount(e.n, 1) || !isCount(e.status) || typeof e.ok !== 'boolean') return 'an outcome without its number, status or ok';
      if (e.code !== undefined && !isString(e.code)) return "an outcome's code is not text";
      if (e.changed !== undefined && e.changed !== null && typeof e.changed !== 'boolean') return "an outcome's changed is not true, false or null";
      if (e.reason !== undefined && e.reason !== null && !isString(e.reason)) return "an outcome's reason is not text";
      return undefined;
    case 'end':
      if (e.notAttempted !== undefined && !isCount(e.notAttempted)) return "an end's notAttempted is not a count";
      if (e.skipped !== undefined && !isCount(e.skipped)) return "an end's skipped is not a count";
      if ((e.unread !== undefined && typeof e.unread !== 'boolean') || (e.interrupted !== undefined && typeof e.interrupted !== 'boolean')) {
        return "an end's unread or interrupted is not true or false";
      }
      return undefined;
    case 'resume':
      return isCount(e.pid, 1) ? undefined : "a resume's pid is not a process id";
    default:
      return `an entry of unknown type ${JSON.stringify(e.t)}`.slice(0, 80);
  }
}
