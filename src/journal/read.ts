// Reading the journal back (`bo history`, issue 33): each run file as a summary and its
// changes. A line that is not whole JSON (the last one of a run killed mid-write) is
// skipped. A run is finished when it wrote its `end`; running while the process that
// holds its lock lives; interrupted otherwise.

import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../files/process-alive.js';
import { JOURNAL_FOLDER, RUN_ID } from './journal.js';
import { stateDirOf } from './state-dir.js';
import type { Env } from '../env.js';

export type RunState = 'finished' | 'interrupted' | 'running';
export type ChangeState = 'done' | 'failed' | 'unknown';

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
  /** A finished batch stopped before reading its input to the end (more records may have followed); null when not known. */
  unread: boolean | null;
  state: RunState;
  /** The process of a running run, else null. */
  pid: number | null;
  bytes: number;
}

export interface RunFile {
  summary: RunSummary;
  changes: ChangeRecord[];
  file: string;
  /** A batch's running digest of its input at each line it sent (`bo batch resume` checks the input against it). */
  reads: Map<number, string>;
}

/** The journal folder of the state folder in effect, or undefined when there is none. */
export function journalFolder(env: Env): string | undefined {
  const state = stateDirOf(env);
  return state === undefined ? undefined : join(state, JOURNAL_FOLDER);
}

/** Every run in `folder`, newest first. */
export function readRuns(folder: string): RunFile[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl') && RUN_ID.test(f.slice(0, -6)))
    .map((f) => readRun(folder, f.slice(0, -6)))
    .filter((r): r is RunFile => r !== undefined)
    // Ids order runs by the second they started; two in one second by their start time.
    .sort((a, b) => b.summary.startedAt.localeCompare(a.summary.startedAt) || b.summary.id.localeCompare(a.summary.id));
}

/** One run by id; undefined when its file is missing or has no header. */
export function readRun(folder: string, id: string): RunFile | undefined {
  const file = join(folder, `${id}.jsonl`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const entries = text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, any>];
    } catch {
      return [];
    }
  });
  const header = entries[0];
  if (header?.t !== 'run') return undefined;
  // A record sent again (after a 429) is one change: its last sending counts.
  const changes = new Map<string, ChangeRecord>();
  const byN = new Map<number, ChangeRecord>();
  let end: Record<string, any> | undefined;
  const reads = new Map<number, string>();
  for (const e of entries) {
    if (e.t === 'send') {
      if (typeof e.line === 'number' && typeof e.read === 'string') reads.set(e.line, e.read);
      const change: ChangeRecord = {
        line: e.line ?? null,
        uid: e.uid ?? null,
        method: e.method,
        path: e.path,
        fields: e.fields ?? [],
        sentAt: e.at,
        outcome: 'unknown',
        changed: null,
        reason: null,
        status: null,
        code: null,
      };
      changes.set(e.line === undefined ? `n${e.n}` : `l${e.line}`, change);
      byN.set(e.n, change);
    } else if (e.t === 'outcome') {
      const change = byN.get(e.n);
      if (change) {
        // An outcome written before D32 says nothing of it: not known.
        const changed = typeof e.changed === 'boolean' ? e.changed : null;
        const reason = changed === false && typeof e.reason === 'string' ? e.reason : null;
        Object.assign(change, { outcome: e.ok ? 'done' : 'failed', changed, reason, status: e.status, code: e.code ?? null });
      }
    } else if (e.t === 'end') end = e;
    // Resumed: the run is running (or interrupted) again until its resume writes its own end.
    else if (e.t === 'resume') end = undefined;
  }
  const list = [...changes.values()].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const count = (s: ChangeState) => list.filter((c) => c.outcome === s).length;
  const lockPid = end ? undefined : lockHolder(join(folder, `${id}.lock`));
  const running = lockPid !== undefined && isAlive(lockPid);
  return {
    file,
    reads,
    changes: list,
    summary: {
      id,
      startedAt: header.at,
      profile: header.profile,
      origin: header.origin,
      command: header.command,
      batch: header.batch === true,
      input: header.input ?? null,
      done: count('done'),
      changed: list.filter((c) => c.outcome === 'done' && c.changed === true).length,
      unchanged: list.filter((c) => c.outcome === 'done' && c.changed === false).length,
      failed: count('failed'),
      unknown: count('unknown'),
      notAttempted: end && !end.interrupted ? (end.notAttempted ?? 0) : null,
      unread: end && !end.interrupted ? end.unread === true : null,
      state: end && !end.interrupted ? 'finished' : running ? 'running' : 'interrupted',
      pid: running ? lockPid : null,
      bytes: statSync(file).size,
    },
  };
}

function lockHolder(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
