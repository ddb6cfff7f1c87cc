// The folders bo keeps files in (its config, the embedded sandbox's state) come from a
// variable (BO_CONFIG_DIR, XDG_CONFIG_HOME, …) or lie under the home folder. bo creates
// its own folder and those leading to it, but never a home folder that does not exist:
// `HOME=/nonexistent` (a service account, a container) would otherwise leave
// /nonexistent/.local/share/bo behind. The folder needed is then named with the
// variable that sets it.

import { mkdirSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';

export interface BoFolder {
  path: string;
  /** The variable that sets the folder itself: BO_CONFIG_DIR, BO_DATA_DIR. */
  variable: string;
  /** What the folder holds, as a message names it: `bo's settings`. */
  holds: string;
  /** The home folder `path` lies under, when it came from HOME. */
  home?: string;
}

/** Creates `folder` (mode 0700) unless it exists; refuses when its home folder is missing. */
export function makeFolder(folder: BoFolder): void {
  if (folder.home !== undefined && !isFolder(folder.home)) {
    throw new UsageError(
      `the home folder ${folder.home} does not exist, and bo does not create it: set ${folder.variable} to a folder for ${folder.holds}`,
    );
  }
  mkdirSync(folder.path, { recursive: true, mode: 0o700 });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
