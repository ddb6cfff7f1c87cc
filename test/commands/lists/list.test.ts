import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function apiLists(query = '') {
  const r = await sb.api('GET', `/email/lists?${query}`);
  expect(r.status).toBe(200);
  return r.body as { metadata: { total: number }; items: Array<Record<string, any>> };
}

describe('bo lists list', () => {
  it('prints tab-separated rows when piped: Uid, name, counts, double opt-in, internal, created', async () => {
    const r = await runBo(['lists', 'list'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const { items } = await apiLists();
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(items.length);
    const l = items[0]!;
    expect(lines[0]).toBe(
      [l.Uid, l.Name, l.CountSubscriptionsActive, l.CountSubscriptionsNotConfirmed, l.RequiresDoubleOptIn, l.IsInternal, l.Created].join('\t'),
    );
  });

  it('draws a table with a header on a TTY', async () => {
    const r = await runBo(['--no-color', 'lists', 'list'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ Uid\s+│ Name\s+│ Active\s+│ Unconfirmed\s+│ Double opt-in\s+│ Internal\s+│ Created \(UTC[+-]\d\d:\d\d\)\s+│/);
    for (const l of (await apiLists()).items) expect(r.stdout).toContain(l.Name);
  });

  it('prints the API records unchanged with --json and --jsonl', async () => {
    const { items } = await apiLists();
    expect(JSON.parse((await runBo(['--json', 'lists', 'list'], { env: testEnv(sb) })).stdout)).toEqual(items);
    const jsonl = await runBo(['--jsonl', 'lists', 'list'], { env: testEnv(sb) });
    expect(jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(items);
  });

  it('takes the list options: --filter, --fields, --limit', async () => {
    const filtered = (await apiLists('RequiresDoubleOptIn=true')).items;
    expect(filtered.length).toBeGreaterThan(0);
    const r = await runBo(['--json', 'lists', 'list', '--filter', 'RequiresDoubleOptIn=true'], { env: testEnv(sb) });
    expect(JSON.parse(r.stdout)).toEqual(filtered);
    const fields = await runBo(['lists', 'list', '--fields', 'Name,Description', '--limit', '1'], { env: testEnv(sb) });
    const first = (await apiLists('limit=1')).items[0]!;
    expect(fields.stdout).toBe(`${[first.Uid, first.Name, first.Description ?? ''].join('\t')}\n`);
    expect(fields.stderr).toMatch(/^showing 1 of \d+; pass --all for every record\n$/);
  });

  it('refuses bad list options with exit 2, sending nothing', async () => {
    const before = (await sb.activity()).length;
    const r = await runBo(['lists', 'list', '--page', '-1'], { env: testEnv(sb) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: --page/);
    expect((await sb.activity()).length).toBe(before);
  });

  it('shows a 400 from the server as exit 1 with its message', async () => {
    const r = await runBo(['lists', 'list', '--filter', 'Colour=red'], { env: testEnv(sb) });
    expect(r.code).toBe(1);
    // After bo's warning that it does not know the name (sent all the same).
    expect(r.stderr).toMatch(/^warning: --(filter|order-by): \w+ has no known field Colour .*\nerror: 400 .*Colour/);
  });
});
