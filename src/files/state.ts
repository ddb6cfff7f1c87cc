// The state folder (D34): what bo keeps between runs that is neither a setting nor data
// the user made: the journal of changes (`journal/`) and the plans an agent prepared
// (`plans/`), and any later part by its name. One rule for all of them, here:
//
// - where: $BO_STATE_DIR (a relative path resolved against the current folder), else
//   $XDG_STATE_HOME/bo when that is an absolute path, else ~/.local/state/bo when HOME
//   exists. A missing HOME is never created: then there is no state folder.
// - the state folder and each part are folders of the user's own, 0700 (made so, or
//   chmod'ed when the user's), not symbolic links, and no folder above the state folder
//   can be changed by anyone else (owner.ts: another owner, the other-write bit, the
//   group-write bit of a group with another member), except a sticky folder of root's.
// - every file bo reads from it is a regular file of the user's own, opened without
//   following a link.
//
// On Windows only "not a link" is checked. Folders are made one level at a time, never
// with a recursive mkdir (which loops for ever under /proc). A failure is a
// StateFolderError (exit 2) naming the folder and why; the journal turns it into its
// own refusal (a batch stops, a single change warns: src/journal/open.ts).

import { chmodSync, closeSync, fstatSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { BoError, UsageError } from '../errors.js';
import { callerOf, changeableAbove, foreignWords, judgesOwners, type Caller } from './owner.js';
import { openRegularFile } from './regular-file.js';

/** The state folder or a file in it that fails the rule (D34), named with why. */
export class StateFolderError extends UsageError {}

export interface StateOptions {
  /** The user the folder must belong to: this process's unless given (tests). */
  who?: Partial<Caller>;
  /** Judge owners and modes (everywhere but Windows unless given). */
  owners?: boolean;
}

/** The state folder the environment names, or undefined when it names none. */
export function stateFolder(env: Record<string, string | undefined>): string | undefined {
  if (env.BO_STATE_DIR) return resolve(env.BO_STATE_DIR);
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'bo');
  const home = env.HOME;
  if (!home || !isAbsolute(home)) return undefined;
  try {
    if (!statSync(home).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return join(home, '.local', 'state', 'bo');
}

/**
 * The part `name` of the state folder (`journal`, `plans`), made if missing and checked
 * by the rule; undefined when the environment names no state folder. Throws a
 * StateFolderError when the rule fails, an errno Error when a folder cannot be made.
 */
export function statePart(env: Record<string, string | undefined>, name: string, options: StateOptions = {}): string | undefined {
  const state = stateFolder(env);
  if (state === undefined) return undefined;
  try {
    return checkedPart(state, name, options);
  } catch (err) {
    if (err instanceof StateFolderError) throw err;
    throw new StateFolderError(`cannot use the ${name} folder ${join(state, name)}: ${errnoWords(err)}`, { hint: SAFE_PLACE });
  }
}

/** What an errno Error says, without its code and call: `no such file or directory`. */
function errnoWords(err: unknown): string {
  const message = (err as Error | undefined)?.message ?? String(err);
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/** `folder` (`<state folder>/<part>`), made if missing and checked as statePart does. */
export function ensureStatePart(folder: string, options: StateOptions = {}): string {
  return checkedPart(dirname(folder), basename(folder), options);
}

function checkedPart(state: string, name: string, options: StateOptions): string {
  const owners = options.owners ?? judgesOwners;
  const who = callerOf(options.who);
  const part = join(state, name);
  makeFolders(state);
  if (owners) {
    // First what is above: while no one else can change it, nothing below can be swapped.
    const above = changeableAbove(dirname(state), who);
    if (above) throw new StateFolderError(`the state folder ${state} is in ${above.folder}, which ${foreignWords(above.how)}`, { hint: SAFE_PLACE });
  }
  ownFolder(state, 'the state folder', who, owners);
  makeFolders(part);
  ownFolder(part, `the ${name} folder`, who, owners);
  return part;
}

const SAFE_PLACE = 'set BO_STATE_DIR to a folder of your own that no one else can change';

function ownFolder(folder: string, label: string, who: Caller, owners: boolean): void {
  const st = lstatSync(folder);
  if (st.isSymbolicLink()) throw new StateFolderError(`${label} ${folder} is a symbolic link`, { hint: SAFE_PLACE });
  if (!st.isDirectory()) throw new StateFolderError(`${label} ${folder} is not a folder`, { hint: SAFE_PLACE });
  if (!owners) return;
  if (st.uid !== who.uid) throw new StateFolderError(`${label} ${folder} is owned by another user`, { hint: SAFE_PLACE });
  if ((st.mode & 0o777) !== 0o700) chmodSync(folder, 0o700);
}

/** Makes `folder` and the missing folders leading to it (0700), one level at a time. */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  for (let dir = folder; lstatSync(dir, { throwIfNoEntry: false }) === undefined; dir = dirname(dir)) {
    missing.push(dir);
    if (dir === dirname(dir)) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * A descriptor open for reading on `path`, a regular file of the user's own in the state
 * folder, opened without following a link (regular-file.ts); undefined when nothing is
 * there. `what` names it in the error ("the plan file").
 */
export function openStateFile(path: string, what: string, options: StateOptions = {}): number | undefined {
  const owners = options.owners ?? judgesOwners;
  let fd: number | undefined;
  try {
    fd = openRegularFile(path, what, { noFollow: true });
  } catch (err) {
    if (err instanceof BoError) throw new StateFolderError(err.message);
    throw new StateFolderError(`${what} ${path} cannot be read: ${errnoWords(err)}`);
  }
  if (fd !== undefined && owners && fstatSync(fd).uid !== callerOf(options.who).uid) {
    closeSync(fd);
    throw new StateFolderError(`${what} ${path} is owned by another user`);
  }
  return fd;
}

/** The text of a file in the state folder (openStateFile), or undefined when it does not exist. */
export function readStateFile(path: string, what: string, options: StateOptions = {}): string | undefined {
  const fd = openStateFile(path, what, options);
  if (fd === undefined) return undefined;
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
