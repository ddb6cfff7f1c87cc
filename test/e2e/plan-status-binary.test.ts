// plan_status on the built binary, through the MCP SDK's client (D33): an agent that made
// a plan with `bo mcp --writes plan` learns whether a person applied it (with its time,
// the journal's run id and the outcome of its change), discarded it, or let it expire;
// without a planId, the plans made through this profile in the last 24 hours, newest
// first, each with the client that made it (clientInfo.name) and when. The tool is
// offered with --writes plan only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpRun, type CallResult } from '../helpers/mcp-client.js';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';


let sb: TestSandbox;
let env: Record<string, string>;
let state: string;
let run: McpRun;
beforeAll(async () => {
  sb = await startTestSandbox();
  state = mkdtempSync(join(tmpdir(), 'bo-plan-status-'));
  env = testEnv(sb, { BO_STATE_DIR: state });
  run = await startMcp(['mcp', '--writes', 'plan'], env);
});
afterAll(async () => {
  await run?.close();
  await sb?.close();
  rmSync(state, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => (await run.client.callTool({ name, arguments: args })) as CallResult;
async function plan(name: string): Promise<string> {
  const r = await call('lists_create', { name });
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent!.planId as string;
}
async function status(planId?: string): Promise<Record<string, any>> {
  const r = await call('plan_status', planId === undefined ? {} : { planId });
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent);
  return r.structuredContent!;
}
const planFile = (id: string) => join(state, 'plans', `${id}.json`);
const editPlanFile = (id: string, edit: (plan: Record<string, any>) => Record<string, any>) =>
  writeFileSync(planFile(id), JSON.stringify(edit(JSON.parse(readFileSync(planFile(id), 'utf8'))), null, 2));

describe('plan_status (built binary)', () => {
  it('is offered with --writes plan, whatever --tools names, and not without it', async () => {
    const names = (await run.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('plan_status');
    const narrow = await startMcp(['mcp', '--tools', 'lists', '--writes', 'plan'], env);
    expect((await narrow.client.listTools()).tools.map((t) => t.name)).toContain('plan_status');
    await narrow.close();
    const readOnly = await startMcp(['mcp'], env);
    expect((await readOnly.client.listTools()).tools.map((t) => t.name)).not.toContain('plan_status');
    const refused = (await readOnly.client.callTool({ name: 'plan_status', arguments: {} })) as CallResult;
    expect(refused.isError).toBe(true);
    await readOnly.close();
  });

  it('after apply: applied, with its time, the journal run and the outcome of its change', async () => {
    const id = await plan('Status: applied');
    expect(await status(id)).toMatchObject({ planId: id, state: 'pending', tool: 'lists_create', client: 'bo-test', at: null, runId: null, outcome: null });
    expect(JSON.parse(readFileSync(planFile(id), 'utf8'))).toMatchObject({ client: 'bo-test' });
    const applied = await runBin(['plan', 'apply', id, '--yes'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const after = await status(id);
    expect(after).toMatchObject({ planId: id, state: 'applied', at: expect.any(String), runId: expect.stringMatching(/^\d{8}T\d{6}-[a-z2-7]{6}$/) });
    expect(after.outcome).toEqual({ outcome: 'done', changed: true, reason: null, status: 201 });
    const history = await runBin(['--json', 'history', 'show', after.runId], { env });
    expect(JSON.parse(history.stdout)).toEqual([expect.objectContaining({ uid: 'Status: applied', outcome: 'done' })]);
  });

  it('after discard: discarded, with its time', async () => {
    const id = await plan('Status: discarded');
    expect((await runBin(['plan', 'discard', id], { env })).code).toBe(0);
    expect(await status(id)).toMatchObject({ planId: id, state: 'discarded', at: expect.any(String), runId: null, outcome: null });
  });

  it('after 24 hours: expired', async () => {
    const id = await plan('Status: expired');
    const created = new Date(Date.now() - 25 * 3600_000).toISOString();
    editPlanFile(id, (p) => ({ ...p, created }));
    expect(await status(id)).toMatchObject({ planId: id, state: 'expired', created, at: null });
  });

  it('without planId: the plans of this profile made in the last 24 hours, newest first, with the client and time; others left out', async () => {
    const first = await plan('Listed, first');
    const second = await plan('Listed, second');
    const other = await plan('For another profile');
    editPlanFile(other, (p) => ({ ...p, profile: 'acme' }));
    const { items } = await status();
    const ids = items.map((p: { planId: string }) => p.planId);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids.indexOf(second)).toBeGreaterThanOrEqual(0);
    expect(ids).not.toContain(other);
    // The expired plan above was made 25 hours ago: not among the last 24 hours'.
    expect(items.every((p: { state: string }) => p.state !== 'expired')).toBe(true);
    expect(items.find((p: { planId: string }) => p.planId === first)).toMatchObject({ client: 'bo-test', created: expect.any(String), state: 'pending', tool: 'lists_create' });
    expect(items.map((p: { state: string }) => p.state)).toEqual(expect.arrayContaining(['applied', 'discarded', 'pending']));

    // A plan of another profile is no plan of this session's.
    const r = await call('plan_status', { planId: other });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content[0]!.text).error).toMatchObject({ code: 'usage', message: `no plan ${other} for profile "default"; plan_status without planId lists them` });
    const bad = await call('plan_status', { planId: 'nope' });
    expect(bad.isError).toBe(true);
  });
});

describe('bo plan list (built binary)', () => {
  it('shows each pending plan with its target described, its age and the client that made it', async () => {
    const accounts = (await sb.api('GET', '/crm/accounts?limit=100')).body.items as Array<{ Uid: string; Name: string; AccountStage: number }>;
    const account = accounts.find((a) => a.AccountStage === 2)!;
    const r = await call('accounts_extend_trial', { accountUid: account.Uid, to: '2031-01-31' });
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    const id = r.structuredContent!.planId as string;
    const listed = await runBin(['plan', 'list'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    // Piped: tab-separated, no header; Id, Created, Age, State, Profile, Client, Target, Method, URL.
    const rows = listed.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.every((cells) => cells.length === 9)).toBe(true);
    const row = rows.find((cells) => cells[0] === id)!;
    expect(row).toBeDefined();
    expect(row[2]).toMatch(/^\d+s$|^\dm\d\ds$/);
    expect(row.slice(3, 7)).toEqual(['pending', 'default', 'bo-test', `${account.Uid} (${account.Name}, 2 Trialing)`]);
    // A plan with no Uid to act on is described by its verb.
    const created = rows.find((cells) => cells[6] === 'lists create');
    expect(created?.[5]).toBe('bo-test');
    // Only pending plans; --json holds the client as the plan file does.
    expect(rows.every((cells) => cells[3] === 'pending')).toBe(true);
    const json = JSON.parse((await runBin(['plan', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(json.find((p) => p.id === id)).toMatchObject({ client: 'bo-test', target: `${account.Name}, 2 Trialing`, state: 'pending' });
  });
});
