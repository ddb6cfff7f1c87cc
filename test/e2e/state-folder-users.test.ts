// The state folder's rule (D34) on the built binary with two real local users: the victim
// runs `bo`; the planter owns what the victim's `bo` must not trust. A plans folder or a
// plan file of the planter's is refused by `bo plan list|show|apply` (exit 2, naming it,
// nothing sent); a state folder of the planter's, or one in a folder the planter's group
// can write, stops a batch before it sends (exit 1) while a single change warns and goes
// on — what the sandbox received (its activity log) is the proof. Needs root to make the
// users; under CI=1 it runs (and fails) when they cannot be made.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderOf, planterAndVictim, skipWithoutUsers, type LocalUser, type Ran } from '../helpers/local-users.js';
import { binPath } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** The built `bo` as `user`, with `env` and nothing else; awaited, so the in-process sandbox answers meanwhile. */
function runAs(user: LocalUser, args: string[], env: Record<string, string>, cwd: string, stdin = ''): Promise<Ran> {
  const ids = ['--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups', '--'];
  return new Promise((resolve, reject) => {
    const child = spawn('setpriv', [...ids, process.execPath, binPath, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const PLAN_ID = 'c0ffee00c0ffee00c0ffee00c0ffee00';

describe.skipIf(skipWithoutUsers)(`the state folder of another local user${skipWithoutUsers ? ` (skipped: ${skipWithoutUsers})` : ''}`, () => {
  const them = planterAndVictim();
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb?.close());

  /** The victim's environment with `state` as its state folder; config and data in folders of its own. */
  function victimEnv(state: string, name: string): Record<string, string> {
    const own = folderOf(them.victim, join(them.victimHome, name), 0o700);
    return {
      PATH: '/usr/bin:/bin',
      HOME: them.victimHome,
      BO_CONFIG_DIR: join(own, 'config'),
      BO_DATA_DIR: join(own, 'data'),
      BO_STATE_DIR: state,
      BO_BASE_URL: sb.url,
      BO_API_KEY: sb.fixtures.apiKey.key,
      BO_API_SECRET: sb.fixtures.apiKey.secret,
    };
  }

  /** A plan that would create an email list, written as a plan file at `file`, owned by `owner`. */
  function plantPlan(file: string, owner: LocalUser): void {
    const plan = {
      id: PLAN_ID,
      created: new Date().toISOString(),
      profile: 'default',
      origin: sb.url,
      argv: ['lists', 'create', '--name=Planted by another user', '--'],
      request: { method: 'POST', url: `${sb.url}/api/v1/email/lists`, body: { Name: 'Planted by another user' } },
    };
    writeFileSync(file, `${JSON.stringify(plan, null, 2)}\n`);
    chownSync(file, owner.uid, owner.gid);
    chmodSync(file, 0o644);
  }

  const writes = async () => (await sb.activity()).filter((a) => a.method !== 'GET').length;

  it("a plans folder the planter owns: plan list, show and apply are refused with exit 2 naming it; nothing is sent", async () => {
    const state = folderOf(them.victim, join(them.victimHome, 'state-plans'), 0o700);
    const plans = folderOf(them.planter, join(state, 'plans'), 0o755);
    plantPlan(join(plans, `${PLAN_ID}.json`), them.planter);
    const env = victimEnv(state, 'p1');
    const before = await writes();
    const refusal = `error: the plans folder ${plans} is owned by another user\n`;
    for (const args of [['plan', 'list'], ['plan', 'show', PLAN_ID], ['plan', 'apply', PLAN_ID, '--yes']]) {
      const r = await runAs(them.victim, args, env, them.work.root);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toContain(refusal);
      expect(r.stderr).not.toContain('Planted');
    }
    expect(await writes()).toBe(before);
  });

  it("a plan file the planter owns, in the victim's own plans folder: show and apply are refused with exit 2; nothing is sent", async () => {
    const state = folderOf(them.victim, join(them.victimHome, 'state-file'), 0o700);
    const plans = folderOf(them.victim, join(state, 'plans'), 0o700);
    const file = join(plans, `${PLAN_ID}.json`);
    plantPlan(file, them.planter);
    const env = victimEnv(state, 'p2');
    const before = await writes();
    for (const args of [['plan', 'show', PLAN_ID], ['plan', 'apply', PLAN_ID, '--yes'], ['plan', 'list']]) {
      const r = await runAs(them.victim, args, env, them.work.root);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toContain(`error: the plan file ${file} is owned by another user\n`);
    }
    expect(await writes()).toBe(before);
  });

  it('a state folder the planter owns: a batch is refused with exit 1 and nothing sent; a single change warns and goes on', async () => {
    const state = folderOf(them.planter, join(them.work.root, 'planter-state'), 0o755);
    const env = victimEnv(state, 'p3');
    const [first, second] = sb.fixtures.trialAccounts;
    const before = await writes();
    const batch = await runAs(them.victim, ['accounts', 'extend-trial', '-', '--to', '2031-01-31'], env, them.work.root, `${first}\n${second}\n`);
    expect(batch.code).toBe(1);
    expect(batch.stdout).toBe('');
    expect(batch.stderr).toContain(`the state folder ${state} is owned by another user; nothing was sent`);
    expect(await writes()).toBe(before);

    const single = await runAs(them.victim, ['accounts', 'extend-trial', first!, '--to', '2031-01-31'], env, them.work.root);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stderr).toContain(`warning: cannot write the journal in ${join(state, 'journal')}: the state folder ${state} is owned by another user; this change is not journaled`);
    const sent = (await sb.activity()).filter((a) => a.method !== 'GET');
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)).toMatchObject({ method: 'PUT', path: `/api/v1/crm/accounts/${first}/extend-trial` });
  });

  it("a state folder of the victim's in a folder the planter's group can write: a batch is refused with exit 1, nothing sent", async () => {
    const team = join(them.work.root, 'team');
    mkdirSync(team);
    chownSync(team, 0, them.planter.gid);
    chmodSync(team, 0o775);
    const state = folderOf(them.victim, join(team, 'state'), 0o700);
    const env = victimEnv(state, 'p4');
    const before = await writes();
    const batch = await runAs(them.victim, ['accounts', 'extend-trial', '-', '--to', '2031-01-31'], env, them.work.root, `${sb.fixtures.trialAccounts[0]}\n`);
    expect(batch.code).toBe(1);
    expect(batch.stderr).toContain(`the state folder ${state} is in ${team}, which its group can write, and that group has other members; nothing was sent`);
    expect(await writes()).toBe(before);
  });
});
