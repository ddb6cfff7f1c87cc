import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe('bo accounts get', () => {
  it('prints the record as Key<TAB>Value lines when piped, and unchanged with --json', async () => {
    const uid = sb.fixtures.accounts[1]!;
    const stored = await sb.record('Account', uid);
    const r = await runBo(['accounts', 'get', uid], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(`Uid\t${uid}`);
    expect(lines).toContain(`Name\t${stored.Name}`);
    const json = await runBo(['--json', 'accounts', 'get', uid], { env: testEnv(sb) });
    const record = JSON.parse(json.stdout);
    expect(record.Uid).toBe(uid);
    expect(record.Name).toBe(stored.Name);
  });

  it('shows nested records by name and Uid, not as raw JSON (the whole record is --json)', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const record = JSON.parse((await runBo(['--json', 'accounts', 'get', uid], { env: testEnv(sb) })).stdout);
    const contact = record.PrimaryContact as { Uid: string; FullName?: string; Name?: string; Email?: string };
    expect(contact?.Uid).toBeTruthy();
    const r = await runBo(['accounts', 'get', uid], { env: testEnv(sb) });
    const lines = r.stdout.trimEnd().split('\n');
    const label = contact.Name ?? contact.FullName ?? contact.Email;
    expect(lines).toContain(`PrimaryContact\t${label ? `${label} (${contact.Uid})` : contact.Uid}`);
    expect(r.stdout).not.toContain('"_objectType"');
  });

  it('draws a two-column table on a TTY', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const r = await runBo(['--no-color', 'accounts', 'get', uid], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.stdout).toMatch(new RegExp(`│ Uid\\s+│ ${uid}\\s+│`));
  });

  it('shows each nested --fields path as its own row, on a TTY and piped (the example in its help)', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const fields = 'Name,CurrentSubscription.Plan.Name';
    const stored = (await sb.api('GET', `/crm/accounts?q=${uid}&fields=${encodeURIComponent(fields)}`)).body.items[0];
    const plan = stored.CurrentSubscription.Plan.Name as string;
    expect(plan).toBeTruthy();
    const piped = await runBo(['accounts', 'get', uid, '--fields', fields], { env: testEnv(sb) });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`Uid\t${uid}\nName\t${stored.Name}\nCurrentSubscription.Plan.Name\t${plan}\n`);
    const tty = await runBo(['--no-color', 'accounts', 'get', uid, '--fields', fields], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.stdout).toMatch(new RegExp(`│ CurrentSubscription\\.Plan\\.Name │ ${plan} +│`));
    expect(tty.stdout).not.toContain(stored.CurrentSubscription.Uid);
  });

  it('expands a --fields path ending in .* into a row per field', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const stored = (await sb.api('GET', `/crm/accounts?q=${uid}&fields=${encodeURIComponent('CurrentSubscription.Plan.*')}`)).body.items[0];
    const plan = stored.CurrentSubscription.Plan as Record<string, unknown>;
    const r = await runBo(['accounts', 'get', uid, '--fields', 'CurrentSubscription.Plan.*'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Uid\t${uid}`);
    expect(lines).toContain(`CurrentSubscription.Plan.Name\t${plan.Name}`);
    expect(lines).toHaveLength(1 + Object.keys(plan).length);
  });

  it('exits 3 when no account has that Uid', async () => {
    const r = await runBo(['accounts', 'get', 'acc_does_not_exist'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: no account with Uid acc_does_not_exist');
  });

  it('exits 2 for a malformed Uid, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const bad of ['a/b', 'a b', '']) {
      const r = await runBo(['accounts', 'get', bad], { env: testEnv(sb) });
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(r.stderr).toMatch(/^error: <accountUid> must/);
    }
    expect((await sb.activity()).length).toBe(before);
  });
});
