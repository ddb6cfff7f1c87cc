// `bo plan apply` does not trust the plan file (built binary): its command line is made
// into a plan again under the plan tool's rules, and the request that makes is what is
// shown and what is sent. An edited plan file — its command changed to another verb or
// Uid, to read stdin (`-`) or a local file (`@file`), its request changed, a field of
// the wrong type — is refused with exit 2 and nothing sent; so is a plan whose account
// was renamed or moved stage since. And plans on the embedded sandbox: made with `bo
// --sandbox mcp --writes plan`, applied with `bo --sandbox plan apply` only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type CallResult } from '../helpers/mcp-client.js';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';


let sb: TestSandbox;
let store: Store;
let env: Record<string, string>;
let state: string;
beforeAll(async () => {
  store = Store.memory({ seed: 7, accounts: 40 }, seedState);
  sb = await startTestSandbox({ store });
  state = mkdtempSync(join(tmpdir(), 'bo-plan-apply-'));
  env = testEnv(sb, { BO_STATE_DIR: state });
});
afterAll(async () => {
  await sb?.close();
  rmSync(state, { recursive: true, force: true });
});

/** One plan tool call through `bo mcp --writes plan` (the server closed after it): the plan's id. */
async function plan(name: string, args: Record<string, unknown>): Promise<{ planId: string; plan: Record<string, any>; target?: string }> {
  const run = await startMcp(['mcp', '--writes', 'plan'], env);
  const r = (await run.client.callTool({ name, arguments: args })) as CallResult;
  expect(await run.close()).toEqual({ code: 0, signal: null });
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent as { planId: string; plan: Record<string, any>; target?: string };
}

const planFile = (id: string) => join(state, 'plans', `${id}.json`);
const readPlanFile = (id: string) => JSON.parse(readFileSync(planFile(id), 'utf8')) as Record<string, any>;
const editPlanFile = (id: string, edit: (plan: Record<string, any>) => Record<string, any>) => writeFileSync(planFile(id), JSON.stringify(edit(readPlanFile(id)), null, 2));

/** Accounts of a stage, as the sandbox holds them. */
async function accountsIn(stage: number): Promise<Array<{ Uid: string; Name: string; AccountStage: number; AccountStageLabel: string }>> {
  const items = (await sb.api('GET', '/crm/accounts?limit=100')).body.items as Array<{ Uid: string; Name: string; AccountStage: number; AccountStageLabel: string }>;
  return items.filter((a) => a.AccountStage === stage);
}

/** The changes the sandbox received since `before` (its activity log; the dry run's reads are GETs). */
async function changesSince(before: number): Promise<Array<{ method: string; path: string }>> {
  return (await sb.activity()).slice(before).filter((e) => e.method !== 'GET');
}

/** `bo plan apply <id> --yes`, with `stdin` offered (a batch of Uids it must never read). */
const apply = (id: string, stdin = '') => runBin(['plan', 'apply', id, '--yes'], { env, stdin });

describe('bo plan apply checks the plan file against its command (built binary)', () => {
  it('a plan applied as made shows the request its command makes now, and sends exactly it', async () => {
    const [account] = await accountsIn(2);
    const made = await plan('accounts_extend_trial', { accountUid: account!.Uid, to: '2031-01-31' });
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code, r.stderr).toBe(0);
    expect(made.plan.body).toMatchObject({ ToDate: '2031-01-31T23:59:59.000Z' });
    expect(r.stderr).toContain(`  on ${account!.Name}, 2 Trialing\n  PUT ${sb.url}/api/v1/crm/accounts/${account!.Uid}/extend-trial\n  ${JSON.stringify(made.plan.body)}\n`);
    expect(await changesSince(before)).toEqual([expect.objectContaining({ method: 'PUT', path: `/api/v1/crm/accounts/${account!.Uid}/extend-trial` })]);
  });

  it('its command changed to another verb on another account: refused, both requests shown, nothing sent', async () => {
    const [account, other] = await accountsIn(3);
    const made = await plan('accounts_extend_trial', { accountUid: account!.Uid, to: '2031-02-28' });
    editPlanFile(made.planId, (p) => ({ ...p, invocation: { path: ['accounts', 'cancel'], values: { accountUid: other!.Uid, reason: 'Not what was approved' } } }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the plan file's request is not what its command sends");
    expect(r.stderr).toContain(`PUT ${sb.url}/api/v1/crm/accounts/${account!.Uid}/extend-trial`);
    expect(r.stderr).toContain(`PUT ${sb.url}/api/v1/crm/accounts/${other!.Uid}/cancel`);
    expect(r.stderr).not.toContain('internal error');
    expect(await changesSince(before)).toEqual([]);
    expect((await sb.record('Account', other!.Uid)).AccountStage).toBe(3);
  });

  it('its command changed to another Uid, the request left: refused, nothing sent', async () => {
    const [account, other] = await accountsIn(2);
    const made = await plan('accounts_extend_trial', { accountUid: account!.Uid, to: '2031-03-31' });
    editPlanFile(made.planId, (p) => ({ ...p, invocation: { ...p.invocation, values: { ...p.invocation.values, accountUid: other!.Uid } } }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the plan file's request is not what its command sends");
    expect(await changesSince(before)).toEqual([]);
  });

  it('its request changed, the command left: refused, nothing sent', async () => {
    const made = await plan('lists_create', { name: 'Checked at apply' });
    editPlanFile(made.planId, (p) => ({ ...p, request: { ...p.request, body: { Name: 'Something else' } } }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the plan file's request is not what its command sends");
    expect(r.stderr).toContain('{"Name":"Something else"}');
    expect(r.stderr).toContain('{"Name":"Checked at apply"}');
    expect(await changesSince(before)).toEqual([]);
  });

  it('its command ending in - (a batch from stdin): refused, stdin never read, nothing sent', async () => {
    const [account] = await accountsIn(3);
    const made = await plan('accounts_cancel', { accountUid: account!.Uid, reason: 'x' });
    editPlanFile(made.planId, (p) => ({ ...p, invocation: { ...p.invocation, values: { ...p.invocation.values, accountUid: '-' } } }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId, `${account!.Uid}\n`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: plan \w+ is refused: argument accountUid must be a Uid/m);
    expect(await changesSince(before)).toEqual([]);
    expect((await sb.record('Account', account!.Uid)).AccountStage).toBe(3);
  });

  it('a list created from stdin (lists create -, or --name=-): refused, nothing sent', async () => {
    const made = await plan('lists_create', { name: 'Never from stdin' });
    const before = (await sb.activity()).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      // `-` is no parameter of the tool (a tool never reads stdin); as --name's value it is refused by name.
      [{ '-': true }, 'argument - is not one this tool takes'],
      [{ name: '-' }, 'cannot be - here (bo would read stdin)'],
    ];
    for (const [values, message] of cases) {
      editPlanFile(made.planId, (p) => ({ ...p, invocation: { path: ['lists', 'create'], values } }));
      const r = await apply(made.planId, '{"Name":"Read from stdin"}\n');
      expect(r.code, message).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await changesSince(before)).toEqual([]);
  });

  it('an option reading a local file (--description=@/etc/hostname): refused, nothing sent', async () => {
    const made = await plan('lists_create', { name: 'No file read' });
    editPlanFile(made.planId, (p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 'No file read', description: '@/etc/hostname' } } }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('argument description cannot start with @ here (bo would read a file)');
    expect(await changesSince(before)).toEqual([]);
  });

  it('an option the plan tool does not offer (--dry-run, --concurrency, a flag of another verb): refused by name', async () => {
    const made = await plan('lists_create', { name: 'Only its options' });
    for (const [option, value] of [['concurrency', 4], ['reason', 'x'], ['yes', true], ['dryRun', true]] as const) {
      editPlanFile(made.planId, (p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 'Only its options', [option]: value } } }));
      const r = await apply(made.planId);
      expect(r.code, option).toBe(2);
      expect(r.stderr).toContain(`argument ${option} is not one this tool takes`);
    }
  });

  it('a field of the wrong type is refused by name, never an internal error; nothing sent', async () => {
    const made = await plan('lists_create', { name: 'Typed fields' });
    const cases: Array<[string, unknown]> = [
      ['invocation', 'lists create --name=x'],
      ['invocation', { path: ['lists', 'create', 7], values: {} }],
      ['request', null],
      ['request', 'POST /api/v1/email/lists'],
      ['request', { method: 'POST' }],
      ['target', 42],
      ['created', 5],
      ['profile', ['default']],
      ['origin', null],
      ['id', 1],
    ];
    const before = (await sb.activity()).length;
    const original = readPlanFile(made.planId);
    for (const [field, value] of cases) {
      writeFileSync(planFile(made.planId), JSON.stringify({ ...original, [field]: value }));
      const r = await apply(made.planId);
      expect(r.code, `${field}: ${JSON.stringify(value)}`).toBe(2);
      expect(r.stderr).toContain(`error: plan ${made.planId} is not a plan bo can read: "${field}"`);
      expect(r.stderr).not.toContain('internal');
    }
    // bo plan show refuses it as apply does; bo plan list skips it with a warning naming it, and lists the others.
    const shown = await runBin(['plan', 'show', made.planId], { env });
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain(`error: plan ${made.planId} is not a plan bo can read: "id"`);
    const listed = await runBin(['plan', 'list', '--json'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`warning: plan ${made.planId} is not a plan bo can read: "id" is not a string; skipped`);
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(listed.stdout).map((p: { id: string }) => p.id)).not.toContain(made.planId);
    writeFileSync(planFile(made.planId), '{"id": ');
    expect((await apply(made.planId)).stderr).toContain('its file is not JSON');
    expect(await changesSince(before)).toEqual([]);
  });

  it('an account renamed since the plan was made: refused, saying what it was and is, nothing sent', async () => {
    const [account] = await accountsIn(3);
    const made = await plan('accounts_cancel', { accountUid: account!.Uid, reason: 'Renamed since' });
    expect(made.target).toBe(`${account!.Name}, 3 Subscribing`);
    await store.transact((tx) => tx.put('Account', { ...tx.get('Account', account!.Uid)!, Name: 'Acme Renamed Ltd' }));
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the account is now "Acme Renamed Ltd, 3 Subscribing"; the plan was made when it was "${account!.Name}, 3 Subscribing"`);
    expect(r.stderr).toContain('ask the agent to make the plan again');
    expect(await changesSince(before)).toEqual([]);
  });

  it('an account moved stage since the plan was made: refused, nothing sent', async () => {
    const [account] = await accountsIn(3);
    const made = await plan('accounts_cancel', { accountUid: account!.Uid, reason: 'Moved since' });
    expect((await sb.api('PUT', `/crm/accounts/${account!.Uid}/cancel`, { body: {} })).status).toBe(200);
    const before = (await sb.activity()).length;
    const r = await apply(made.planId);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the account is now "${account!.Name}, 4 Cancelling"; the plan was made when it was "${account!.Name}, 3 Subscribing"`);
    expect(await changesSince(before)).toEqual([]);
  });

  it('a tenant\'s plan applied with --sandbox is refused, naming why', async () => {
    const made = await plan('lists_create', { name: 'Tenant only' });
    const r = await runBin(['--sandbox', 'plan', 'apply', made.planId, '--yes'], { env: { ...env, BO_DATA_DIR: join(state, 'data') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`was made for ${new URL(sb.url).origin}, not the embedded sandbox: apply it without --sandbox`);
  });
});

describe('plans on the embedded sandbox (built binary)', () => {
  it('bo --sandbox mcp --writes plan makes a plan that shows the path it would send; bo --sandbox plan apply applies it, nothing else does', async () => {
    const t = tempConfig();
    const local = { ...t.env, BO_DATA_DIR: join(t.root, 'data') };
    const accounts = JSON.parse((await runBin(['--sandbox', '--json', 'accounts', 'list', '--all'], { env: local })).stdout) as Array<{ Uid: string; Name: string; AccountStage: number }>;
    const account = accounts.find((a) => a.AccountStage === 2)!;

    const run = await startMcp(['--sandbox', 'mcp', '--writes', 'plan'], local);
    const r = (await run.client.callTool({ name: 'accounts_extend_trial', arguments: { accountUid: account.Uid, to: '2032-05-31' } })) as CallResult;
    expect(await run.close()).toEqual({ code: 0, signal: null });
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    const { planId, plan: request, target } = r.structuredContent as { planId: string; plan: Record<string, unknown>; target: string };
    expect(request).toEqual({ method: 'PUT', url: `/api/v1/crm/accounts/${account.Uid}/extend-trial`, body: expect.objectContaining({ ToDate: '2032-05-31T23:59:59.000Z' }) });
    expect(target).toBe(`${account.Name}, 2 Trialing`);
    const kept = JSON.parse(readFileSync(join(t.stateDir, 'plans', `${planId}.json`), 'utf8'));
    expect(kept).toMatchObject({ origin: 'the embedded sandbox', profile: 'sandbox' });

    // Without --sandbox it is refused, naming how to apply it.
    const elsewhere = await runBin(['plan', 'apply', planId, '--yes'], { env: { ...local, BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret } });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`plan ${planId} was made on the embedded sandbox: apply it with bo --sandbox plan apply ${planId}`);

    const applied = await runBin(['--sandbox', 'plan', 'apply', planId, '--yes'], { env: local });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`  on ${account.Name}, 2 Trialing\n  PUT /api/v1/crm/accounts/${account.Uid}/extend-trial\n`);
    // The embedded sandbox's state (its file in the data folder) holds the change.
    const after = await runBin(['--sandbox', '--json', 'accounts', 'list', '--q', account.Uid, '--fields', 'Uid,CurrentSubscription.EndDate'], { env: local });
    expect(JSON.parse(after.stdout)).toEqual([{ Uid: account.Uid, CurrentSubscription: expect.objectContaining({ EndDate: '2032-05-31T23:59:59.000Z' }) }]);
    // Applied once: the plan is gone.
    expect((await runBin(['--sandbox', 'plan', 'apply', planId, '--yes'], { env: local })).code).toBe(2);
  });
});
