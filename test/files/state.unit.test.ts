// The state folder's one rule (D34, src/files/state.ts), in process: where it is, that it
// and its parts are made 0700, and what is refused — a folder of another user (the owner
// check given another uid, so no root is needed), a folder above it that a group with
// another member can write, a symbolic link as a part or as a plan file. A sticky folder
// of root's above it (/tmp) is allowed. The journal's policy on a refused folder (a batch
// stops, a single change warns and goes on) is seen through openJournal.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { listPlans, readPlan } from '../../src/plan/store.js';
import { readStateFile, StateFolderError, stateFolder, statePart } from '../../src/files/state.js';
import { BoError } from '../../src/errors.js';

const made: string[] = [];
/** A fresh folder of this user's in the temporary folder (0700, as mkdtemp makes it). */
function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-state-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const me = process.getuid!();
const myGid = process.getgid!();
const ANOTHER_UID = me === 4242 ? 4243 : 4242;
const PLAN_ID = '0123456789abcdef0123456789abcdef';
/** A refused folder, with the hint every such refusal carries. */
const refusedFolder = (message: string) => new StateFolderError(message, { hint: 'set BO_STATE_DIR to a folder of your own that no one else can change' });

/** /etc/passwd and /etc/group as a test writes them: `me`, and `others` as members of group `gid`. */
function accounts(dir: string, others: string[]): { passwd: string; group: string } {
  const passwd = join(dir, 'passwd');
  const group = join(dir, 'group');
  const users = [`me:x:${me}:${myGid + 1000}::/:/bin/sh`, ...others.map((name, i) => `${name}:x:${ANOTHER_UID + i}:${myGid + 1000}::/:/bin/sh`)];
  writeFileSync(passwd, `${users.join('\n')}\n`);
  writeFileSync(group, `shared:x:${myGid}:${['me', ...others].join(',')}\n`);
  return { passwd, group };
}

describe('where the state folder is', () => {
  it('BO_STATE_DIR, a relative one resolved against the current folder; else $XDG_STATE_HOME/bo when absolute; else ~/.local/state/bo', () => {
    const home = fresh();
    expect(stateFolder({ BO_STATE_DIR: 'rel/state', HOME: home })).toBe(join(process.cwd(), 'rel/state'));
    expect(stateFolder({ BO_STATE_DIR: '/abs/state', XDG_STATE_HOME: '/x' })).toBe('/abs/state');
    expect(stateFolder({ XDG_STATE_HOME: '/x', HOME: home })).toBe('/x/bo');
    expect(stateFolder({ XDG_STATE_HOME: 'relative', HOME: home })).toBe(join(home, '.local/state/bo'));
  });

  it('has none with HOME unset or missing, and never creates HOME', () => {
    const missing = join(fresh(), 'no-such-home');
    expect(stateFolder({})).toBeUndefined();
    expect(stateFolder({ HOME: missing })).toBeUndefined();
    expect(statePart({ HOME: missing }, 'plans')).toBeUndefined();
    expect(lstatSync(missing, { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe('the state folder and its parts', () => {
  it('are made 0700, the folders leading to them too; a part of the user\'s with a looser mode is made 0700', () => {
    const root = fresh();
    const state = join(root, 'a', 'b', 'state');
    expect(statePart({ BO_STATE_DIR: state }, 'plans')).toBe(join(state, 'plans'));
    for (const dir of [join(root, 'a'), join(root, 'a', 'b'), state, join(state, 'plans')]) expect(statSync(dir).mode & 0o777).toBe(0o700);
    mkdirSync(join(state, 'journal'), { mode: 0o755 });
    chmodSync(join(state, 'journal'), 0o755);
    statePart({ BO_STATE_DIR: state }, 'journal');
    expect(statSync(join(state, 'journal')).mode & 0o777).toBe(0o700);
  });

  it('a state folder of another user is refused by name (the owner check given another uid)', () => {
    const state = fresh();
    expect(() => statePart({ BO_STATE_DIR: state }, 'plans', { who: { uid: ANOTHER_UID } })).toThrow(
      refusedFolder(`the state folder ${state} is owned by another user`),
    );
  });

  it('under a folder its group can write, when that group has a member other than the user: refused; when the user is its only member: used', () => {
    const root = fresh();
    const parent = join(root, 'team');
    mkdirSync(parent);
    chmodSync(parent, 0o775);
    const state = join(parent, 'state');
    const shared = accounts(join(root), ['alice']);
    expect(() => statePart({ BO_STATE_DIR: state }, 'plans', { who: { uid: me, ...shared } })).toThrow(
      refusedFolder(`the state folder ${state} is in ${parent}, which its group can write, and that group has other members`),
    );
    const alone = join(root, 'alone');
    mkdirSync(alone);
    const own = accounts(alone, []);
    expect(statePart({ BO_STATE_DIR: state }, 'plans', { who: { uid: me, ...own } })).toBe(join(state, 'plans'));
  });

  it('under a folder every user can write: refused; under a sticky folder of root\'s (/tmp): used', () => {
    const open = join(fresh(), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => statePart({ BO_STATE_DIR: join(open, 'state') }, 'plans')).toThrow(`which every user can write`);
    const tmp = statSync(tmpdir());
    // The temporary folder is root's and sticky (1777): what this test leans on.
    expect({ uid: tmp.uid, sticky: (tmp.mode & 0o1000) !== 0, others: (tmp.mode & 0o002) !== 0 }).toEqual({ uid: 0, sticky: true, others: true });
    const state = fresh();
    expect(statePart({ BO_STATE_DIR: state }, 'plans')).toBe(join(state, 'plans'));
  });

  it('a part that is a symbolic link is refused, even to a folder of the user\'s; so is a state folder that is one', () => {
    const root = fresh();
    const state = join(root, 'state');
    mkdirSync(state, { mode: 0o700 });
    mkdirSync(join(root, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(root, 'elsewhere'), join(state, 'plans'));
    expect(() => statePart({ BO_STATE_DIR: state }, 'plans')).toThrow(refusedFolder(`the plans folder ${join(state, 'plans')} is a symbolic link`));
    symlinkSync(state, join(root, 'linked'));
    expect(() => statePart({ BO_STATE_DIR: join(root, 'linked') }, 'journal')).toThrow(`the state folder ${join(root, 'linked')} is a symbolic link`);
    // Where only links are judged (Windows), another owner is not, a link still is.
    expect(statePart({ BO_STATE_DIR: state }, 'journal', { owners: false, who: { uid: ANOTHER_UID } })).toBe(join(state, 'journal'));
    expect(() => statePart({ BO_STATE_DIR: state }, 'plans', { owners: false })).toThrow('is a symbolic link');
  });

  it('under /proc (where a recursive mkdir never returns): an error, at once', () => {
    expect(() => statePart({ BO_STATE_DIR: '/proc/self/bo/state' }, 'plans')).toThrow(
      refusedFolder('cannot use the plans folder /proc/self/bo/state/plans: no such file or directory'),
    );
  });
});

describe('files read from the state folder', () => {
  it('a plan file that is a symbolic link is refused (exit 2) naming it, also when listing; a file of another user too', () => {
    const state = fresh();
    const env = { BO_STATE_DIR: state };
    const plans = statePart(env, 'plans')!;
    const real = join(state, 'real.json');
    writeFileSync(real, JSON.stringify({ id: PLAN_ID, created: new Date().toISOString(), profile: 'default', origin: 'https://x', argv: [], request: {} }));
    symlinkSync(real, join(plans, `${PLAN_ID}.json`));
    const refused = new StateFolderError(`the plan file ${join(plans, `${PLAN_ID}.json`)} is a symbolic link`);
    expect(() => readPlan(env, PLAN_ID)).toThrow(refused);
    expect(() => listPlans(env)).toThrow(refused);
    expect(refused).toBeInstanceOf(BoError);
    expect(refused.exitCode).toBe(2);
    expect(() => readStateFile(real, 'the plan file', { who: { uid: ANOTHER_UID } })).toThrow(`the plan file ${real} is owned by another user`);
    expect(readStateFile(real, 'the plan file')).toContain(PLAN_ID);
  });

  it('a plans folder of another user is refused for listing and showing (exit 2)', () => {
    const state = fresh();
    vi.spyOn(process, 'getuid').mockReturnValue(ANOTHER_UID);
    expect(() => listPlans({ BO_STATE_DIR: state })).toThrow(`the state folder ${state} is owned by another user`);
    expect(() => readPlan({ BO_STATE_DIR: state }, PLAN_ID)).toThrow(StateFolderError);
  });
});

describe('the journal in a state folder of another user', () => {
  const header = (batch: boolean) => ({ profile: 'default', origin: 'https://x', command: 'accounts extend-trial', batch });
  const run = (state: string, batch: boolean, warn: (line: string) => void) =>
    openJournal({ env: { BO_STATE_DIR: state }, setting: undefined, header: header(batch), now: () => new Date(), warn, signal: new AbortController().signal });

  it('stops a batch before it sends (exit 1, naming the folder); a single change warns and goes on unjournaled', () => {
    const state = fresh();
    vi.spyOn(process, 'getuid').mockReturnValue(ANOTHER_UID);
    const warnings: string[] = [];
    let thrown: unknown;
    try {
      run(state, true, (line) => warnings.push(line));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BoError);
    expect((thrown as BoError).exitCode).toBe(1);
    expect((thrown as Error).message).toBe(
      `cannot write the journal in ${join(state, 'journal')}: the state folder ${state} is owned by another user; nothing was sent (set BO_STATE_DIR to a writable folder, or BO_JOURNAL=off to run without a journal)`,
    );
    expect(run(state, false, (line) => warnings.push(line))).toBeUndefined();
    expect(warnings).toEqual([`warning: cannot write the journal in ${join(state, 'journal')}: the state folder ${state} is owned by another user; this change is not journaled`]);
  });
});
