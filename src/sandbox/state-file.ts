// The state file on disk: written atomically (temp file, fsync, rename, so a crash
// mid-write leaves the previous file whole) under a lock file, so two processes never
// interleave a read-modify-write. A lock left by a dead process, or older than
// STALE_MS, is taken over. The atomic write and the lock are the ones the CLI's config
// and credentials files use (src/files/).

import { closeSync, readSync } from 'node:fs';
import { removeStaleTemps, writeFileAtomic } from '../files/atomic-file.js';
import { openRegularFile, readTextIfExists } from '../files/regular-file.js';
import { withFileLock } from '../files/locked-file.js';
import { BoError } from '../errors.js';
import { Records } from './records.js';
import type { Kind } from './schema.js';
import type { State } from './state.js';

const STALE_MS = 30_000;
const STATE_FILE = 'the sandbox state file';
const WAIT_MS = 60_000;

/**
 * The version counter of the state on disk, read from the head of the file (the
 * writer puts `format` and `version` first). Every commit bumps it under the lock, so
 * an equal number means nothing changed: unlike mtime and size, it cannot miss a
 * write that landed within one timestamp tick. Undefined when there is no file.
 */
export function readVersion(path: string): number | undefined {
  const fd = openRegularFile(path, STATE_FILE);
  if (fd === undefined) return undefined;
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
  const text = readTextIfExists(path, STATE_FILE);
  if (text === undefined) return undefined;
  let state: State;
  try {
    state = parseState(text);
  } catch (err) {
    // Our writes are atomic, so this is an edit from outside: say how to start over.
    throw new BoError(`the sandbox state file ${path} is not valid JSON (${(err as Error).message}); delete it to start over`);
  }
  if (state?.format !== 'bo-sandbox/1') throw new BoError(`${path} is not a sandbox state file; delete it to start over`);
  return state;
}

/**
 * The file is one JSON value, laid out by writeStateAtomically so that each kind of
 * record sits on a line of its own after a first line with everything else:
 *
 *   {"format":"bo-sandbox/1","version":7,…,"records":{
 *   "Account":{…}
 *   ,"Person":{…}
 *   }}
 *
 * JSON.stringify never writes a raw line break, so the lines are found without
 * parsing; each kind's line is parsed on its first Records.kind() call (records.ts).
 * Any other layout (an older file of one line, an edit) is parsed whole.
 */
const RECORDS_HEAD = ',"records":{';

/** A state as JSON.parse reads it whole: records as plain objects. */
type ParsedState = Omit<State, 'records'> & { records: Parameters<typeof Records.of>[0] };

function parseState(text: string): State {
  const whole = (): State => {
    const state = JSON.parse(text) as ParsedState | null;
    // Not an object: readState says it is not a state file.
    if (typeof state !== 'object' || state === null) return state as unknown as State;
    return { ...state, records: Records.of(state.records ?? {}) };
  };
  const lines = text.split('\n');
  const head = lines[0]!;
  if (lines.length < 2 || !head.endsWith(RECORDS_HEAD) || lines.at(-1) !== '}}') return whole();
  const texts: Array<[Kind, string]> = [];
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i]!.startsWith(',') ? lines[i]!.slice(1) : lines[i]!;
    const colon = line.indexOf('":');
    if (!line.startsWith('"') || colon < 0) return whole();
    texts.push([JSON.parse(line.slice(0, colon + 1)) as Kind, line.slice(colon + 2)]);
  }
  const state = JSON.parse(`${head.slice(0, -RECORDS_HEAD.length)}}`) as Omit<State, 'records'>;
  return { ...state, records: Records.fromTexts(texts) };
}

export function writeStateAtomically(path: string, state: State): void {
  // `format` and `version` first, whatever order the object was built in (readVersion);
  // then each kind of record on its own line (parseState), as read when never parsed.
  const { format, version, records, ...rest } = state;
  const head = JSON.stringify({ format, version, ...rest });
  const kinds = records.kinds().map((kind) => `${JSON.stringify(kind)}:${records.text(kind)}`);
  writeFileAtomic(path, `${head.slice(0, -1)}${RECORDS_HEAD}\n${kinds.join('\n,')}\n}}`);
}

/** Removes temp files left by a crashed writer (never the live file). */
export { removeStaleTemps };

/** The whole read-modify-write of a transaction holds the state file's lock. */
export function withLock<T>(path: string, fn: () => T): Promise<T> {
  return withFileLock(path, fn, { what: 'the sandbox state file', staleMs: STALE_MS, waitMs: WAIT_MS });
}
