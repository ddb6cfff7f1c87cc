import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function setup() {
  const cfg = tempConfig();
  env = { ...cfg.env, BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret };
  return env;
}

async function apiAccounts(query: string) {
  const r = await sb.api('GET', `/crm/accounts?${query}`);
  expect(r.status).toBe(200);
  return r.body as { metadata: { total: number }; items: Array<Record<string, any>> };
}

describe('bo accounts list', () => {
  it('prints tab-separated rows when piped, with no header, and notes the cut on stderr', async () => {
    const r = await runBo(['accounts', 'list', '--limit', '5'], { env: setup() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const first = await apiAccounts('limit=5');
    expect(lines).toHaveLength(5);
    const a = first.items[0]!;
    expect(lines[0]).toBe([a.Uid, a.Name, `${a.AccountStage} ${a.AccountStageLabel}`, a.Currency ?? '', a.Created].join('\t'));
    expect(r.stderr).toBe(`showing 5 of ${first.metadata.total}; pass --all for every record\n`);
  });

  it('draws a table with a header on a TTY, without colour under --no-color', async () => {
    const r = await runBo(['--no-color', 'accounts', 'list', '--limit', '3'], { env: setup(), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ Uid\s+│ Name\s+│ Stage\s+│ Currency\s+│ Created \(UTC[+-]\d\d:\d\d\)\s+│/);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    const first = await apiAccounts('limit=3');
    for (const a of first.items) expect(r.stdout).toContain(a.Name);
  });

  it('colours the table header on a TTY unless NO_COLOR or TERM=dumb', async () => {
    const coloured = await runBo(['accounts', 'list', '--limit', '2'], { env: setup(), stdoutIsTTY: true });
    expect(coloured.stdout).toMatch(/\u001b\[1mUid/);
    for (const extra of [{ NO_COLOR: '1' }, { TERM: 'dumb' }]) {
      const plain = await runBo(['accounts', 'list', '--limit', '2'], { env: { ...setup(), ...extra }, stdoutIsTTY: true });
      expect(plain.stdout).not.toMatch(/\u001b\[/);
    }
  });

  it('prints the API records unchanged as one JSON array with --json, and one a line with --jsonl', async () => {
    const json = await runBo(['--json', 'accounts', 'list', '--limit', '4'], { env: setup() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual((await apiAccounts('limit=4')).items);
    const jsonl = await runBo(['--jsonl', 'accounts', 'list', '--limit', '4'], { env: setup() });
    const lines = jsonl.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual((await apiAccounts('limit=4')).items);
  });

  it('walks every page with --all', async () => {
    const total = (await apiAccounts('limit=1')).metadata.total;
    const r = await runBo(['--jsonl', 'accounts', 'list', '--all', '--page-size', '7'], { env: setup() });
    expect(r.code).toBe(0);
    const uids = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).Uid);
    expect(uids).toHaveLength(total);
    expect(new Set(uids).size).toBe(total);
    expect(r.stderr).toBe('');
  });

  it('prints one raw page with --page and --page-size', async () => {
    const r = await runBo(['--json', 'accounts', 'list', '--page', '1', '--page-size', '10'], { env: setup() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await apiAccounts('limit=10&offset=1')).items);
  });

  it('searches with --q (and its alias --search) and filters by --segment', async () => {
    const byQ = await runBo(['--json', 'accounts', 'list', '--q', 'acme'], { env: setup() });
    const expected = (await apiAccounts('q=acme')).items;
    expect(expected.length).toBeGreaterThan(0);
    expect(JSON.parse(byQ.stdout)).toEqual(expected);
    const bySearch = await runBo(['--json', 'accounts', 'list', '--search', 'acme'], { env: setup() });
    expect(JSON.parse(bySearch.stdout)).toEqual(expected);
    const segment = sb.fixtures.segments[0]!;
    const bySegment = await runBo(['--json', 'accounts', 'list', '--segment', segment], { env: setup() });
    const inSegment = (await apiAccounts(`segmentUid=${segment}`)).items;
    expect(inSegment.length).toBeGreaterThan(0);
    expect(JSON.parse(bySegment.stdout)).toEqual(inSegment);
  });

  it('filters and orders with --filter and --order-by (D14)', async () => {
    const r = await runBo(['--json', 'accounts', 'list', '--filter', 'AccountStage=2', '--order-by', 'Name desc'], { env: setup() });
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as Array<{ AccountStage: number; Name: string }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((a) => a.AccountStage === 2)).toBe(true);
    const names = items.map((a) => a.Name);
    expect(names).toEqual([...names].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)));
  });

  it('shows the server refusing an unknown filter property as exit 1 with its message', async () => {
    const r = await runBo(['accounts', 'list', '--filter', 'Colour=red'], { env: setup() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // After bo's warning that it does not know the name (sent all the same).
    expect(r.stderr).toMatch(/^warning: --(filter|order-by): \w+ has no known field Colour .*\nerror: 400 .*Colour/);
  });

  it('makes the table columns follow --fields', async () => {
    const r = await runBo(['accounts', 'list', '--limit', '2', '--fields', 'Name,Currency'], { env: setup() });
    const first = await apiAccounts('limit=2');
    expect(r.stdout.split('\n')[0]).toBe([first.items[0]!.Uid, first.items[0]!.Name, first.items[0]!.Currency ?? ''].join('\t'));
  });

  it('refuses bad list options with exit 2 before sending anything', async () => {
    const before = (await sb.activity()).length;
    for (const [args, flag] of [
      [['--limit', 'ten'], '--limit'],
      [['--page-size', '500'], '--page-size'],
      [['--filter', '=x'], '--filter'],
      [['--segment', 'has space'], '--segment'],
      [['--page', '1', '--all'], '--page'],
    ] as const) {
      const r = await runBo(['accounts', 'list', ...args], { env: setup() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(flag);
      expect(r.stderr.trimEnd().split('\n')[0]).toMatch(/^error: /);
    }
    expect((await sb.activity()).length).toBe(before);
  });

  it('keeps the request out of the activity log with --no-log', async () => {
    const before = (await sb.activity()).length;
    await runBo(['--no-log', 'accounts', 'list', '--limit', '1'], { env: setup() });
    expect((await sb.activity()).length).toBe(before);
    await runBo(['accounts', 'list', '--limit', '1'], { env: setup() });
    const after = await sb.activity();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/crm/accounts', status: 200 });
  });

  it('exits 4 with a hint when there is no credential, sending nothing', async () => {
    const before = (await sb.activity()).length;
    const cfg = tempConfig();
    const { createMemoryStore } = await import('../../../src/auth/stores/memory.js');
    const r = await runBo(['accounts', 'list'], { env: { ...cfg.env, BO_BASE_URL: sb.url }, credentials: createMemoryStore() });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: not signed in (profile "default")\nhint: run bo login or bo auth set-key, or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET\n');
    expect((await sb.activity()).length).toBe(before);
  });

  it('exits 4 on a refused API key and names the api-key-scheme setting', async () => {
    const r = await runBo(['accounts', 'list'], { env: { ...setup(), BO_API_SECRET: 'wrong' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: 401 /);
    expect(r.stderr).toContain('api-key-scheme');
    expect(r.stderr).not.toContain('wrong');
  });

  it('uses a stored credential of the chosen profile', async () => {
    const cfg = tempConfig();
    const { createMemoryStore } = await import('../../../src/auth/stores/memory.js');
    const store = createMemoryStore();
    await store.set('acme', { kind: 'apiKey', key: sb.fixtures.apiKey.key, secret: sb.fixtures.apiKey.secret });
    const set = await runBo(['-p', 'acme', 'config', 'set', 'base-url', sb.url], { env: cfg.env });
    expect(set.code).toBe(0);
    const r = await runBo(['-p', 'acme', 'accounts', 'list', '--limit', '1'], { env: cfg.env, credentials: store });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\t')[0]).toBe((await apiAccounts('limit=1')).items[0]!.Uid);
    const viaEnv = await runBo(['accounts', 'list', '--limit', '1'], { env: { ...cfg.env, BO_PROFILE: 'acme' }, credentials: store });
    expect(viaEnv.code).toBe(0);
    const other = await runBo(['-p', 'other', 'accounts', 'list'], { env: cfg.env, credentials: store });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('no base URL for profile "other"');
  });
});
