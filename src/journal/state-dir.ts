// The state folder (issue 33): where the journal of changes lives. $BO_STATE_DIR; else
// $XDG_STATE_HOME/bo when that is an absolute path; else $HOME/.local/state/bo when HOME
// is set and exists (bo never creates HOME). None of these: undefined, and the caller
// decides (a batch refuses, a single command warns). Folders are made 0700 and must be
// the user's own: another user's folder could be read or swapped under us.

import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../env.js';

/** The state folder the environment names, or undefined when it names none. */
export function stateDirOf(env: Env): string | undefined {
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
 * Makes `dir` (0700) if missing and checks it is a folder of this user's; throws an
 * Error saying why not (the caller names the folder).
 */
export function ensureOwnDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    // A recursive mkdir on a read-only file system says ENOENT; the last step alone says why.
    mkdirSync(dir, { mode: 0o700 });
    throw err;
  }
  const st = statSync(dir);
  if (!st.isDirectory()) throw new Error('not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new Error('owned by another user');
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
