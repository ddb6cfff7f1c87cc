// Plans in this process (a sandbox over loopback HTTP, no built binary): a plan made by
// `bo mcp --writes plan`'s tool and applied by `bo plan apply`. The plan file is read
// field by field (checkPlan); its command is made into a plan again under the plan
// tool's rules, so an edited file is refused with nothing sent; the request sent is the
// request shown, even if the verb were to build another one between the two.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/main.js';
import { checkPlan } from '../../src/plan/store.js';
import { seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { runBo } from '../helpers/run-bo.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

// The verb building another request when it sends than when it dry-ran (`swap` on): what
// `bo plan apply` must never send.
const verb = vi.hoisted(() => ({ swap: false, calls: 0 }));
vi.mock('../../src/api/email.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/email.js')>();
  return {
    ...original,
    createListRequest: (body: Parameters<typeof original.createListRequest>[0]) => {
      const request = original.createListRequest(body);
      verb.calls++;
      return verb.swap && verb.calls > 1 ? { ...request, body: { ...(request.body as object), Name: 'Swapped in' } } : request;
    },
  };
});

let sb: TestSandbox;
let store: Store;
let state: string;
let env: Record<string, string>;
beforeAll(async () => {
  store = Store.memory({ seed: 3, accounts: 30 }, seedState);
  sb = await startTestSandbox({ store });
  state = mkdtempSync(join(tmpdir(), 'bo-plan-in-process-'));
  env = testEnv(sb, { BO_STATE_DIR: state });
});
afterAll(async () => {
  await sb?.close();
  rmSync(state, { recursive: true, force: true });
});

/**
 * One tools/call of `bo <argv> mcp --writes plan`, run in this process: the server is
 * handed the initialize handshake and the call, and stdin ends once the call is answered.
 */
async function planTool(name: string, args: Record<string, unknown>, runEnv = env, globals: string[] = []): Promise<Record<string, any>> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough().resume();
  let text = '';
  const answer = new Promise<Record<string, any>>((resolve) => {
    stdout.on('data', (chunk: Buffer) => {
      text += chunk;
      for (const line of text.split('\n').slice(0, -1)) {
        const message = JSON.parse(line) as { id?: number; result?: Record<string, any> };
        if (message.id === 2) resolve(message.result!);
      }
    });
  });
  const exited = run([...globals, 'mcp', '--writes', 'plan'], {
    io: { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: { HOME: process.env.HOME, PATH: process.env.PATH, ...runEnv } },
  });
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name, arguments: args } });
  const result = await answer;
  stdin.end();
  expect(await exited).toBe(0);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

const planFile = (id: string, dir = state) => join(dir, 'plans', `${id}.json`);
const edit = (id: string, change: (plan: Record<string, any>) => Record<string, any>) =>
  writeFileSync(planFile(id), JSON.stringify(change(JSON.parse(readFileSync(planFile(id), 'utf8')))));
const writesSince = async (before: number) => (await sb.activity()).slice(before).filter((e) => e.method !== 'GET');

describe('bo plan apply, in process', () => {
  it('applies a plan as made: the request shown is the one sent, once', async () => {
    const { planId, plan } = await planTool('lists_create', { name: 'In process', description: 'planned' });
    expect(plan).toEqual({ method: 'POST', url: `${sb.url}/api/v1/email/lists`, body: { Name: 'In process', Description: 'planned' } });
    const before = (await sb.activity()).length;
    const r = await runBo(['plan', 'apply', planId, '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`  POST ${sb.url}/api/v1/email/lists\n  {"Name":"In process","Description":"planned"}\n`);
    // The dry run made again is not announced: the person sees the plan, not "nothing was sent".
    expect(r.stderr).not.toContain('Dry run');
    expect(await writesSince(before)).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/email/lists', status: 201 })]);
  });

  it('answered no on a terminal: nothing sent, and the plan stays pending (D33)', async () => {
    const { planId } = await planTool('lists_create', { name: 'Answered no' });
    const before = (await sb.activity()).length;
    const r = await runBo(['plan', 'apply', planId], { env, stdinIsTTY: true, prompter: scriptedPrompter([{ confirm: /Apply this plan/, answer: false }]) });
    expect(r.code).not.toBe(0);
    expect(await writesSince(before)).toEqual([]);
    expect(JSON.parse(readFileSync(planFile(planId), 'utf8'))).toMatchObject({ state: 'pending', request: { body: { Name: 'Answered no' } } });
    const listed = await runBo(['plan', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ id: planId, state: 'pending' }));
  });

  it('refuses a request the verb builds differently when it sends: nothing sent', async () => {
    const { planId } = await planTool('lists_create', { name: 'Shown, not swapped' });
    const before = (await sb.activity()).length;
    Object.assign(verb, { swap: true, calls: 0 });
    try {
      const r = await runBo(['plan', 'apply', planId, '--yes'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: plan ${planId}: bo was about to send POST ${sb.url}/api/v1/email/lists {"Name":"Swapped in"}, which is not the request shown; it was not sent`);
    } finally {
      verb.swap = false;
    }
    expect(await writesSince(before)).toEqual([]);
  });

  it('refuses an edited command or request, naming why; nothing sent', async () => {
    const { planId } = await planTool('lists_create', { name: 'Edited later' });
    const before = (await sb.activity()).length;
    const cases: Array<[(p: Record<string, any>) => Record<string, any>, string]> = [
      [(p) => ({ ...p, request: { ...p.request, url: `${sb.url}/api/v1/email/lists/x` } }), "the plan file's request is not what its command sends"],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 'Other' } } }), "the plan file's request is not what its command sends"],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 'Edited later', description: '@/etc/hostname' } } }), 'argument description cannot start with @ here'],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: '-' } } }), 'argument name cannot be - here'],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: {} } }), "required option '--name <name>' not specified"],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 7 } } }), 'argument name must be a string'],
      [(p) => ({ ...p, invocation: { path: ['lists', 'create'], values: { name: 'Edited later', yes: true } } }), 'argument yes is not one this tool takes'],
      [(p) => ({ ...p, invocation: { path: ['payment-info', 'update'], values: { account: 'acc_1' } } }), 'is no change a plan can make'],
      [(p) => ({ ...p, invocation: { path: ['accounts', 'list'], values: {} } }), 'is no change a plan can make'],
      [(p) => ({ ...p, invocation: undefined, argv: ['lists', 'create', '--name=Edited later', '--'] }), 'was made by an older bo: ask the agent to make it again'],
    ];
    const original = readFileSync(planFile(planId), 'utf8');
    for (const [change, message] of cases) {
      writeFileSync(planFile(planId), original);
      edit(planId, change);
      const r = await runBo(['plan', 'apply', planId, '--yes'], { env, stdin: '{"Name":"From stdin"}\n' });
      expect(r.code, message).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
    }
    expect(await writesSince(before)).toEqual([]);
  });

  it('refuses a plan whose account is not what it was when the plan was made', async () => {
    const account = (await sb.api('GET', '/crm/accounts?limit=100')).body.items.find((a: { AccountStage: number }) => a.AccountStage === 3) as { Uid: string; Name: string };
    const { planId, target } = await planTool('accounts_cancel', { accountUid: account.Uid, reason: 'Checked' });
    expect(target).toBe(`${account.Name}, 3 Subscribing`);
    await store.transact((tx) => tx.put('Account', { ...tx.get('Account', account.Uid)!, Name: 'Renamed Inc' }));
    const before = (await sb.activity()).length;
    const r = await runBo(['plan', 'apply', planId, '--yes'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: plan ${planId} is refused: the account is now "Renamed Inc, 3 Subscribing"; the plan was made when it was "${account.Name}, 3 Subscribing"\nhint: ask the agent to make the plan again\n`,
    );
    expect(await writesSince(before)).toEqual([]);
  });

  it('plans on the embedded sandbox: the path it would send, applied with --sandbox only', async () => {
    const data = mkdtempSync(join(tmpdir(), 'bo-plan-data-'));
    try {
      const local = { ...env, BO_DATA_DIR: data };
      const { planId, plan } = await planTool('lists_create', { name: 'Rehearsed' }, local, ['--sandbox']);
      expect(plan).toEqual({ method: 'POST', url: '/api/v1/email/lists', body: { Name: 'Rehearsed' } });
      expect(JSON.parse(readFileSync(planFile(planId), 'utf8'))).toMatchObject({ origin: 'the embedded sandbox', profile: 'sandbox' });
      const tenant = await runBo(['plan', 'apply', planId, '--yes'], { env: local });
      expect(tenant.code).toBe(2);
      expect(tenant.stderr).toContain('was made on the embedded sandbox: apply it with bo --sandbox plan apply');
      const applied = await runBo(['--sandbox', 'plan', 'apply', planId, '--yes'], { env: local });
      expect(applied.code, applied.stderr).toBe(0);
      const lists = await runBo(['--sandbox', '--json', 'lists', 'list', '--all'], { env: local });
      expect(JSON.parse(lists.stdout).filter((l: { Name: string }) => l.Name === 'Rehearsed')).toHaveLength(1);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('checkPlan: a plan file read field by field', () => {
  const id = 'a'.repeat(32);
  const good = { id, created: '2026-01-01T00:00:00.000Z', profile: 'default', origin: 'https://t.example', invocation: { path: ['lists', 'create'], values: { name: 'x' } }, request: { method: 'POST', url: 'https://t.example/api/v1/email/lists', body: { Name: 'x' } } };

  it('takes a plan whose fields are of their types, target or not', () => {
    expect(checkPlan(id, JSON.stringify(good))).toEqual(good);
    expect(checkPlan(id, JSON.stringify({ ...good, target: 'Acme Inc, 2 Trialing' }))).toMatchObject({ target: 'Acme Inc, 2 Trialing' });
    const applied = { ...good, state: 'applied', at: '2026-01-01T01:00:00.000Z', runId: '20260101T010000-abcdef' };
    expect(checkPlan(id, JSON.stringify(applied))).toEqual(applied);
  });

  it.each([
    ['id', 7, '"id" is not a string'],
    ['id', 'b'.repeat(32), '"id" is not its file\'s name'],
    ['created', null, '"created" is not a string'],
    ['created', 'yesterday', '"created" is not a time'],
    ['profile', {}, '"profile" is not a string'],
    ['origin', undefined, '"origin" is not a string'],
    ['invocation', 'lists create', '"invocation" is not a verb\'s path and values'],
    ['invocation', { path: ['lists', null], values: {} }, '"invocation" is not a verb\'s path and values'],
    ['invocation', { path: ['lists', 'create'], values: { name: { Uid: 'x' } } }, '"invocation" is not a verb\'s path and values'],
    ['request', [], '"request" is not an object'],
    ['request', { method: 'POST', url: 1 }, '"request" has no method and url strings'],
    ['target', false, '"target" is not a string'],
    ['state', 'expired', '"state" is not pending, applied or discarded'],
    ['state', 1, '"state" is not pending, applied or discarded'],
    ['state', 'applied', '"at" is missing for a plan applied'],
    ['at', 'later', '"at" is not a time'],
    ['runId', '../../etc', '"runId" is not a run id'],
  ])('refuses %s = %j: %s', (field, value, message) => {
    expect(() => checkPlan(id, JSON.stringify({ ...good, [field]: value }))).toThrow(`plan ${id} is not a plan bo can read: ${message}`);
  });

  it('refuses what is not a JSON object', () => {
    expect(() => checkPlan(id, '{')).toThrow('its file is not JSON');
    expect(() => checkPlan(id, '[]')).toThrow('its file holds no JSON object');
    expect(() => checkPlan(id, 'null')).toThrow('its file holds no JSON object');
  });
});
