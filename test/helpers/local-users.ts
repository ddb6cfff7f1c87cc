// Two throwaway local users, for what only another user can do to `bo`: plant files in a
// folder it might run code from (bin/private-folder.cjs). Creating users needs root
// (useradd; setpriv runs a command as one, with exactly the environment given); elsewhere
// `whyNoUsers` says why the tests that need them are skipped. The users have no home and
// no login shell, and are removed by `remove()`.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** Why two local users cannot be made here, or undefined. */
export const whyNoUsers: string | undefined =
  process.getuid?.() !== 0
    ? 'creating two local users needs root (useradd)'
    : !['useradd', 'userdel', 'setpriv'].every(has)
      ? 'useradd, userdel or setpriv is missing'
      : undefined;

/**
 * Why a test needing two users is skipped here; never under CI=1, where such a test
 * runs and fails when the users cannot be made.
 */
export const skipWithoutUsers: string | undefined = process.env.CI ? undefined : whyNoUsers;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface LocalUser {
  name: string;
  uid: number;
  gid: number;
  /** `command` as this user, in `cwd`, with `env` and nothing else. */
  run(command: string[], env: Record<string, string>, cwd: string): Ran;
}

let made = 0;

/**
 * A new user per role (names unique to this process), and `remove()` for all of them. A
 * role in `ownGroup` gets a group of its own (a user private group), the others share
 * the default group (users).
 */
function makeUsers<R extends string>(roles: R[], ownGroup: R[]): { users: Record<R, LocalUser>; remove(): void } {
  const names: string[] = [];
  const users = {} as Record<R, LocalUser>;
  for (const role of roles) {
    const name = `bo${process.pid}${role.slice(0, 6)}${made++}`;
    const group = ownGroup.includes(role) ? '--user-group' : '--no-user-group';
    must(spawnSync('useradd', ['--no-create-home', group, '--shell', '/usr/sbin/nologin', name], { encoding: 'utf8' }));
    names.push(name);
    const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
    const ids = ['--reuid', String(uid), '--regid', String(gid), '--clear-groups', '--'];
    users[role] = {
      name,
      uid,
      gid,
      run(command, env, cwd) {
        const r = spawnSync('setpriv', [...ids, ...command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
        return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
      },
    };
  }
  return {
    users,
    remove() {
      for (const name of names) spawnSync('userdel', [name]); // and its own group, if any
    },
  };
}

/**
 * A folder every user can enter (0755, root's), with `tmp` in it: a shared temporary
 * folder as /tmp is (1777, root's). `remove()` deletes it with all in it.
 */
export function sharedWork(): { root: string; tmp: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'bo-users-'));
  chmodSync(root, 0o755);
  const tmp = join(root, 'tmp');
  must(spawnSync('mkdir', ['-m', '1777', tmp], { encoding: 'utf8' }));
  return { root, tmp, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface TwoUsers {
  work: ReturnType<typeof sharedWork>;
  planter: LocalUser;
  /** With a group of its own (a user private group); the planter's is the shared default. */
  victim: LocalUser;
  /** The victim's own folder (0755) in the shared work folder. */
  victimHome: string;
}

/**
 * For a describe block: a shared work folder, a planter and a victim, made before its
 * tests (the object is filled in then) and removed after them.
 */
export function planterAndVictim(): TwoUsers {
  const them = {} as TwoUsers;
  let people: ReturnType<typeof makeUsers<'planter' | 'victim'>> | undefined;
  beforeAll(() => {
    them.work = sharedWork();
    people = makeUsers(['planter', 'victim'], ['victim']);
    Object.assign(them, people.users);
    them.victimHome = folderOf(them.victim, join(them.work.root, 'victim'));
  });
  afterAll(() => {
    people?.remove();
    them.work?.remove();
  });
  return them;
}

/** A folder made for `user` (owned by them), as their home or what they made. */
export function folderOf(user: LocalUser, folder: string, mode = 0o755, gid = user.gid): string {
  mkdirSync(folder, { mode });
  chownSync(folder, user.uid, gid);
  chmodSync(folder, mode);
  return folder;
}

/** Throws with the command's stderr when it failed: a set-up step, not what is tested. */
export function must(r: { status: number | null; stderr: string | Buffer } | Ran): void {
  const code = 'status' in r ? r.status : r.code;
  if (code !== 0) throw new Error(`set-up step failed (exit ${code}): ${String(r.stderr)}`);
}
