// Private files written so that a crash or a full disk never leaves half a file:
// a temp file in the same folder (same filesystem, so rename is atomic), fsync, then
// rename over the old one. Used for config.json and the --insecure-storage
// credentials file; both are created 0600 in a 0700 folder.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/** The text of a file, or undefined when it does not exist. Other errors propagate. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  try {
    // 'wx': never follow or reuse an existing file; mode applies at creation.
    fd = openSync(temp, 'wx', 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  syncDir(dir);
}

/** Makes the rename itself durable; not possible on every platform, so best effort. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a folder for fsync; the rename is still atomic there.
  }
}
