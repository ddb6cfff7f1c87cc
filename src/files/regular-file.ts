// Reading the files bo keeps (config.json, the --insecure-storage credentials file, the
// sandbox state file): only ever a regular file. A FIFO at that path would block a
// plain open until some writer comes, and the synchronous read after it would hold the
// event loop, so not even Ctrl-C could end bo; a device may never end; a folder or a
// socket cannot be read at all. Each of them is a clear error naming the path, exit 1.

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { BoError } from '../errors.js';

/** Something other than a regular file where bo keeps one. */
export class NotRegularFileError extends BoError {}

function kind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

function notRegular(what: string, path: string, st: Stats): NotRegularFileError {
  return new NotRegularFileError(`${what} ${path} is not a regular file (${kind(st)})`, {
    hint: 'move it away: bo keeps a plain file at that path',
  });
}

/**
 * A descriptor open for reading on `path` if it is a regular file (symbolic links
 * followed, unless `noFollow`: then a link is refused, as in the state folder, D34),
 * undefined if nothing is there. O_NONBLOCK lets the open of a FIFO return
 * at once instead of waiting for a writer, O_NOCTTY keeps a terminal from becoming
 * ours; fstat then judges the very file that was opened, so nothing can be swapped in
 * between. `what` names the file in the error ("the config file").
 */
export function openRegularFile(path: string, what: string, options: { noFollow?: boolean } = {}): number | undefined {
  const noFollow = options.noFollow ? constants.O_NOFOLLOW : 0;
  const link = () => new NotRegularFileError(`${what} ${path} is a symbolic link`, { hint: 'move it away: bo keeps a plain file at that path' });
  // Where open(2) cannot refuse a link (Windows), lstat first.
  if (options.noFollow && noFollow === undefined) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw link();
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (noFollow ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (options.noFollow && (err as NodeJS.ErrnoException).code === 'ELOOP') throw link();
    // A socket cannot be opened (ENXIO), nor a folder everywhere: say what is there.
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch {
      throw err;
    }
    if (st !== undefined && !st.isFile()) throw notRegular(what, path, st);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(what, path, st);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The text of a regular file, or undefined when it does not exist; anything else throws. */
export function readTextIfExists(path: string, what: string): string | undefined {
  const fd = openRegularFile(path, what);
  if (fd === undefined) return undefined;
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
