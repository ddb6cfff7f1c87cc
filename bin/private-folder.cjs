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
//   counts a group whose only member is the user (Debian's user private groups, umask
//   002) as the user.
//
// The judgement itself (`foreignWrite`, `changeableAbove`: who other than the user can
// change a file or a folder) is the one the rest of bo uses too: the state folder (D34,
// src/files/state.ts) and the CA file (src/api/ca-file.ts) import it from here, through
// src/files/owner.ts. The user it protects is given (`who`: a uid, and the files naming
// users and groups), so tests can judge for another uid without root.
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
  const loose = (stat.mode & 0o077) !== 0;
  if (mine && loose && !writableByOthers(stat, caller())) fs.chmodSync(folder, 0o700);
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
  const who = caller();
  try {
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory()) return `${folder} is not a folder`;
    if (stat.uid !== who.uid) return `${folder} belongs to another user`;
    if (writableByOthers(stat, who)) return `others can write to ${folder}`;
    const above = exports.changeableAbove(path.dirname(folder), who);
    return above && `another user can change ${above.folder}`;
  } catch (err) {
    return err.message;
  }
}

/**
 * The user the rule protects: a uid, and the files that name users and groups.
 * `exports.caller({ uid })` is another user, for tests.
 */
function caller(given = {}) {
  return {
    uid: given.uid ?? process.getuid(),
    passwd: given.passwd ?? '/etc/passwd',
    group: given.group ?? '/etc/group',
  };
}
exports.caller = caller;

/**
 * How someone other than the user (`who`, see caller) could change what `stat`
 * describes, or undefined: 'owner' (it is neither the user's nor root's), 'others' (the
 * other-write bit) or 'group' (the group-write bit, for a group with a member other than
 * the user).
 */
exports.foreignWrite = (stat, who = caller()) => {
  if (stat.uid !== who.uid && stat.uid !== 0) return 'owner';
  if ((stat.mode & 0o002) !== 0) return 'others';
  if ((stat.mode & 0o020) !== 0 && sharedGroup(stat.gid, who)) return 'group';
  return undefined;
};

/**
 * The first folder from `dir` up to the root (links resolved) that someone other than
 * the user can change, as `{ folder, how }` (how: as foreignWrite says), or undefined. A
 * sticky folder of root's (/tmp) is allowed: there no one else can move or remove what
 * is the user's. Throws when a folder cannot be read.
 */
exports.changeableAbove = (dir, who = caller()) => {
  for (let folder = fs.realpathSync(dir); ; folder = path.dirname(folder)) {
    const stat = fs.statSync(folder);
    const how = exports.foreignWrite(stat, who);
    if (how && !(how !== 'owner' && stat.uid === 0 && stat.mode & 0o1000)) return { folder, how };
    if (folder === path.dirname(folder)) return undefined;
  }
};

/** Whether anyone but the user (and root) may write to a folder of this stat. */
function writableByOthers(stat, who) {
  return (stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && sharedGroup(stat.gid, who));
}

const groups = new Map();

/**
 * Whether group `gid` has a member other than the user: a member /etc/group lists, or a
 * user whose primary group it is in /etc/passwd (names are compared by their uid). A
 * group those files do not show (LDAP …), or files that cannot be read, count as shared.
 */
function sharedGroup(gid, who) {
  const key = `${who.uid}:${gid}:${who.passwd}:${who.group}`;
  if (!groups.has(key)) {
    let shared = true;
    try {
      const text = (file) => fs.readFileSync(file, 'utf8');
      const rows = (file) => text(file).split('\n').filter(Boolean).map((row) => row.split(':'));
      const users = rows(who.passwd);
      const group = rows(who.group).find((row) => Number(row[2]) === gid);
      if (group) {
        const uidOf = new Map(users.map((row) => [row[0], Number(row[2])]));
        const names = (group[3] ?? '').split(',').filter(Boolean);
        const listed = names.map((name) => uidOf.get(name) ?? -1);
        const inGroup = (row) => Number(row[3]) === gid;
        const primary = users.filter(inGroup).map((row) => Number(row[2]));
        shared = [...listed, ...primary].some((uid) => uid !== who.uid);
      }
    } catch {
      shared = true;
    }
    groups.set(key, shared);
  }
  return groups.get(key);
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
