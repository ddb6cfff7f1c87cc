// A plan's states on the built binary (D33): pending until a person applies it (recorded
// as applied, with the time and the journal's run id) or discards it (`bo plan discard
// <id>`, or `all`); expired 24 hours after it was made. A plan that is not pending is
// refused, saying its state (exit 2, nothing sent). `bo plan list` shows the pending
// plans, `--all` also the others; the record of an applied or discarded plan (its
// request's body dropped) goes 7 days later with the journal's retention. A plan made
// for another profile is refused with the hint to pass `-p`.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/mcp-client.js';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
let env: Record<string, string>;
let state: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  state = mkdtempSync(join(tmpdir(), 'bo-plan-states-'));
  env = testEnv(sb, { BO_STATE_DIR: state });
});
afterAll(async () => {
  await sb?.close();
  rmSync(state, { recursive: true, force: true });
});

/** A plan to create a list, made through `bo mcp --writes plan`: its id. */
async function plan(name: string): Promise<string> {
  const run = await startMcp(['mcp', '--writes', 'plan'], env);
  const r = (await run.client.callTool({ name: 'lists_create', arguments: { name } })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: { planId: string } };
  expect(await run.close()).toEqual({ code: 0, signal: null });
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent!.planId;
}

const planFile = (id: string) => join(state, 'plans', `${id}.json`);
const readPlanFile = (id: string) => JSON.parse(readFileSync(planFile(id), 'utf8')) as Record<string, any>;
const editPlanFile = (id: string, edit: (plan: Record<string, any>) => Record<string, any>) => writeFileSync(planFile(id), JSON.stringify(edit(readPlanFile(id)), null, 2));
const changesSince = async (before: number) => (await sb.activity()).slice(before).filter((e) => e.method !== 'GET');
const listed = async (...args: string[]) => {
  const r = await runBin(['plan', 'list', '--json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{ id: string; state: string }>;
};

describe('a plan\'s states (built binary)', () => {
  it('applied: recorded with its time and the journal\'s run id, its body dropped; applying or discarding it again says so, nothing sent', async () => {
    const id = await plan('Applied once');
    expect(readPlanFile(id)).toMatchObject({ state: 'pending' });
    const applied = await runBin(['plan', 'apply', id, '--yes'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const record = readPlanFile(id);
    expect(record).toMatchObject({ state: 'applied', at: expect.any(String), runId: expect.stringMatching(/^\d{8}T\d{6}-[a-z2-7]{6}$/) });
    expect(record.request).toEqual({ method: 'POST', url: `${sb.url}/api/v1/email/lists` });
    // The run id is the journal's run of the apply.
    const run = await runBin(['--json', 'history', 'show', record.runId], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([expect.objectContaining({ uid: 'Applied once', method: 'POST', path: '/email/lists', outcome: 'done' })]);

    const shown = await runBin(['plan', 'show', id], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ state: 'applied', runId: record.runId });

    const before = (await sb.activity()).length;
    const again = await runBin(['plan', 'apply', id, '--yes'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`error: plan ${id} was applied at ${record.at} (run ${record.runId}): it cannot be applied\n`);
    expect(again.stderr).toContain(`hint: bo history show ${record.runId} shows what it did`);
    const discard = await runBin(['plan', 'discard', id], { env });
    expect(discard.code).toBe(2);
    expect(discard.stderr).toContain(`error: plan ${id} was applied at ${record.at} (run ${record.runId}): it cannot be discarded`);
    expect(await changesSince(before)).toEqual([]);
    expect((await listed()).map((p) => p.id)).not.toContain(id);
    expect(await listed('--all')).toContainEqual(expect.objectContaining({ id, state: 'applied' }));
  });

  it('discarded: bo plan discard records it, apply refuses it saying so, nothing sent; the list shows it only with --all', async () => {
    const id = await plan('Turned down');
    expect((await listed()).map((p) => p.id)).toContain(id);
    const discard = await runBin(['plan', 'discard', id], { env });
    expect(discard.code, discard.stderr).toBe(0);
    expect(discard.stderr).toBe(`Discarded plan ${id}.\n`);
    const record = readPlanFile(id);
    expect(record).toMatchObject({ state: 'discarded', at: expect.any(String) });
    expect(record.request.body).toBeUndefined();
    const before = (await sb.activity()).length;
    const apply = await runBin(['plan', 'apply', id, '--yes'], { env });
    expect(apply.code).toBe(2);
    expect(apply.stderr).toContain(`error: plan ${id} was discarded at ${record.at}: it cannot be applied\n`);
    expect(await changesSince(before)).toEqual([]);
    expect((await listed()).map((p) => p.id)).not.toContain(id);
    expect(await listed('--all')).toContainEqual(expect.objectContaining({ id, state: 'discarded' }));
    expect((await runBin(['plan', 'discard', id], { env })).code).toBe(2);
  });

  it('bo plan discard all discards every pending plan, and only those', async () => {
    const a = await plan('All of them, a');
    const b = await plan('All of them, b');
    const old = await plan('Already expired');
    editPlanFile(old, (p) => ({ ...p, created: new Date(Date.now() - 25 * 3600_000).toISOString() }));
    const r = await runBin(['plan', 'discard', 'all'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Discarded \d+ plan\(s\)\.\n$/);
    expect(readPlanFile(a).state).toBe('discarded');
    expect(readPlanFile(b).state).toBe('discarded');
    expect(readPlanFile(old).state).toBe('pending');
    expect(await listed()).toEqual([]);
    expect(await listed('--all')).toContainEqual(expect.objectContaining({ id: old, state: 'expired' }));
    const expired = await runBin(['plan', 'discard', old], { env });
    expect(expired.code).toBe(2);
    expect(expired.stderr).toContain(`error: plan ${old} has expired (made `);
  });

  it('a plan made for another profile is refused with the -p to pass', async () => {
    const id = await plan('For acme');
    editPlanFile(id, (p) => ({ ...p, profile: 'acme' }));
    const before = (await sb.activity()).length;
    const r = await runBin(['plan', 'apply', id, '--yes'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: plan ${id} was made for profile "acme", not "default"\nhint: pass -p acme: bo -p acme plan apply ${id}\n`);
    expect(await changesSince(before)).toEqual([]);
  });

  it('the record of a plan applied or discarded 7 days ago goes with the journal\'s retention; a newer one stays', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'bo-plan-retention-'));
    try {
      const local = { ...env, BO_STATE_DIR: fresh };
      const make = async (name: string) => {
        const run = await startMcp(['mcp', '--writes', 'plan'], local);
        const r = (await run.client.callTool({ name: 'lists_create', arguments: { name } })) as { structuredContent: { planId: string } };
        await run.close();
        return r.structuredContent.planId;
      };
      const file = (id: string) => join(fresh, 'plans', `${id}.json`);
      const settle = (id: string, state: string, daysAgo: number) => {
        const p = JSON.parse(readFileSync(file(id), 'utf8'));
        const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
        writeFileSync(file(id), JSON.stringify({ ...p, created: at, state, at }));
      };
      const [old, recent, pending, applied] = [await make('Old'), await make('Recent'), await make('Pending'), await make('Applied now')];
      settle(old, 'discarded', 8);
      settle(recent, 'applied', 6);
      // A change opens a journal: its retention runs, plans included.
      const r = await runBin(['plan', 'apply', applied, '--yes'], { env: local });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(join(fresh, 'plans')).sort()).toEqual([`${recent}.json`, `${pending}.json`, `${applied}.json`].sort());
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
