// Where the embedded sandbox keeps its state. Light (Node built-ins only): the main
// bundle names it (`bo sandbox users` says which sandbox it used) without the sandbox.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeFolder, type BoFolder } from '../files/bo-folder.js';

export function defaultStatePath(env: Record<string, string | undefined>): string {
  return join(dataFolder(env).path, 'sandbox-state.json');
}

/**
 * Creates the data folder before the embedded sandbox opens its state there. Called in
 * the main bundle: the sandbox's own (dist/lazy/sandbox.cjs) may hand back no error
 * class of the project, so it leaves the folder to its callers.
 */
export function makeDataFolder(env: Record<string, string | undefined>): void {
  makeFolder(dataFolder(env));
}

/** bo's data folder, with what creating it needs (src/files/bo-folder.ts). */
export function dataFolder(env: Record<string, string | undefined>): BoFolder {
  const folder = { variable: 'BO_DATA_DIR', holds: "the sandbox's state" };
  if (env.BO_DATA_DIR) return { ...folder, path: env.BO_DATA_DIR };
  if (env.XDG_DATA_HOME) return { ...folder, path: join(env.XDG_DATA_HOME, 'bo') };
  const home = env.HOME || homedir();
  return { ...folder, path: join(home, '.local', 'share', 'bo'), home };
}
