// The folders `bo` runs code from besides its own install: Node's compile cache (bin/bo.js)
// and the single executable's extracted bundles (bin/sea.cjs). A file there is code of the
// process, so another local user who can write such a folder, or any folder above it, can
// make the user's `bo` run what they choose (Node trusts a compile cache that matches the
// source's length and a CRC32 that can be forged). The rule for both, in one place:
//
//   the folder is a folder (not a link), owned by the user and 0700; every folder above it
//   (links resolved) is owned by the user or root and writable by no one else, except a
//   sticky folder of root's such as /tmp, where no one else can move or remove what is
//   the user's. With no such folder, `bo` runs without the compile cache. "No one else"
//   counts a group of the user's alone (Debian's user private groups, umask 002) as the user.
//
// Node's fallback for a cache without a folder (`$TMPDIR/node-compile-cache`, which every
// user can write) is never asked for. NODE_COMPILE_CACHE makes Node read a cache before
// `bo`'s code runs (bin/bo.js itself included; nothing can undo that) and it cannot be
// switched off afterwards: when that folder fails the check, `bo` runs again with
// NODE_DISABLE_COMPILE_CACHE=1 before loading any bundle. Windows: no owners or modes here
// (%LOCALAPPDATA% is the user's). Plain CommonJS, bundled into the executable with sea.cjs.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const posix = process.platform !== 'win32';

/**
 * A folder of bo's in the user's cache folder; undefined without an absolute base, or
 * under a home folder that does not exist (bo never creates one).
 */
exports.cacheFolder = (name, env = process.env) => {
  const home = existing(absolute(env.HOME));
  const base = !posix
    ? absolute(env.LOCALAPPDATA)
    : process.platform === 'darwin'
      ? home && `${home}/Library/Caches`
      : (absolute(env.XDG_CACHE_HOME) ?? (home && `${home}/.cache`));
  return base && path.join(base, 'bo', name);
};

/**
 * `folder`, made if missing (0700) and checked by the rule above; throws saying why
 * not. A folder of the user's that no one else could write is made 0700: nothing in it
 * can be anyone else's.
 */
exports.privateFolder = (folder) => {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (!posix) return folder;
  const stat = fs.lstatSync(folder);
  const mine = stat.isDirectory() && stat.uid === process.getuid();
  if (mine && (stat.mode & 0o077) !== 0 && !writableByOthers(stat)) fs.chmodSync(folder, 0o700);
  const fault = faultOf(folder);
  if (fault) throw new Error(fault);
  return folder;
};

/** A folder's stat: a folder, not a link, of this user's that no one else can use. */
exports.owned = (stat) => {
  if (!posix) return stat.isDirectory();
  return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o077) === 0;
};

/**
 * Node's compile cache: NODE_COMPILE_CACHE's folder (Node >= 22.8 shows it) when it
 * passes the check, else this process is run again without it; with none and `enable`,
 * bo's own folder when it passes. Node < 22.8 has no API to show or enable one (22.1 to
 * 22.7 honour NODE_COMPILE_CACHE unchecked; Node 20 has no compile cache).
 */
exports.compileCache = (sea, enable) => {
  const mod = require('node:module');
  const current = mod.getCompileCacheDir?.();
  if (current) {
    // Node makes that folder (0755, named by its version and the uid): others may read it.
    if (faultOf(path.resolve(current))) runWithoutCache(sea);
    return;
  }
  const folder = enable && mod.enableCompileCache && exports.cacheFolder('compile-cache');
  if (!folder) return;
  try {
    mod.enableCompileCache(exports.privateFolder(folder));
  } catch {
    // no folder of the user's: no cache
  }
};

/**
 * Why `folder` fails the rule, or undefined: it, and every folder above it. A folder
 * that cannot be read counts as failing.
 */
function faultOf(folder) {
  if (!posix) return undefined;
  const uid = process.getuid();
  try {
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory()) return `${folder} is not a folder`;
    if (stat.uid !== uid) return `${folder} belongs to another user`;
    if (writableByOthers(stat)) return `others can write to ${folder}`;
    for (let dir = fs.realpathSync(path.dirname(folder)); ; dir = path.dirname(dir)) {
      const above = fs.statSync(dir);
      const shared = writableByOthers(above) && !(above.uid === 0 && above.mode & 0o1000);
      if ((above.uid !== uid && above.uid !== 0) || shared) return `another user can change ${dir}`;
      if (dir === path.dirname(dir)) return undefined;
    }
  } catch (err) {
    return err.message;
  }
}

/** Whether anyone but the user (and root) may write to a folder of this stat. */
function writableByOthers(stat) {
  return (stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && !privateGroup(stat.gid));
}

let privateGid;

/**
 * Whether `gid` is a group of the user's alone: the user's own, named as the user, with
 * no other member in /etc/group and no other user's primary group in /etc/passwd. A group
 * those files do not show (LDAP …) counts as shared.
 */
function privateGroup(gid) {
  if (gid !== process.getgid()) return false;
  if (privateGid === undefined) {
    try {
      const user = require('node:os').userInfo().username;
      const rows = (file) => fs.readFileSync(file, 'utf8').split('\n').map((row) => row.split(':'));
      const group = rows('/etc/group').find((row) => Number(row[2]) === gid && row[0] === user);
      const others = (group?.[3] ?? '').split(',').filter((name) => name && name !== user);
      const sharing = rows('/etc/passwd').some((row) => Number(row[3]) === gid && row[0] !== user);
      privateGid = group && others.length === 0 && !sharing ? gid : -1;
    } catch {
      privateGid = -1;
    }
  }
  return privateGid === gid;
}

/**
 * This `bo` once more, with NODE_DISABLE_COMPILE_CACHE=1, in this process where Node can
 * replace it (process.execve, Node >= 23.11: the executable's Node 24), else as a child
 * whose exit it passes on.
 */
function runWithoutCache(sea) {
  const env = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const script = sea ? [] : [...process.execArgv, process.argv[1]];
  const args = [...script, ...process.argv.slice(2)];
  process.execve?.(process.execPath, [process.execPath, ...args], env);
  const { spawnSync } = require('node:child_process');
  const run = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (run.signal) process.kill(process.pid, run.signal);
  process.exit(run.status ?? 1);
}

function absolute(folder) {
  return folder && path.isAbsolute(folder) ? folder : undefined;
}

function existing(folder) {
  const stat = folder && fs.statSync(folder, { throwIfNoEntry: false });
  return stat?.isDirectory() ? folder : undefined;
}
