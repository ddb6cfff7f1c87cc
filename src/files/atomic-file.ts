// Private files written so that a crash or a full disk never leaves half a file:
// a temp file in the same folder (same filesystem, so rename is atomic), fsync, then
// rename over the old one. Used for config.json, the --insecure-storage credentials
// file and the sandbox state file; all are created 0600 in a 0700 folder. They are
// read with regular-file.ts.

import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { isAlive } from './process-alive.js';

export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Temp names are .<name>.<pid>.<random>.tmp: removeStaleTemps reads the pid back.
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

/**
 * Removes temp files of `path` left by a writer that died before its rename (never
 * the live file, never a temp of a running process). A killed writer of the
 * credentials file would otherwise leave a copy of the secrets behind.
 */
export function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    // .<name>.<pid>.<random or time>.tmp; a longer <name> may hold dots of its own.
    const pid = Number(name.split('.').at(-3));
    if (pid === process.pid || isAlive(pid)) continue;
    try { unlinkSync(join(dirname(path), name)); } catch { /* raced with another cleaner */ }
  }
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
