// Usage errors of `bo accounts list` (conflicting flags, an empty search) and the note
// for a --page past the end, against the sandbox: a usage error sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function accountRequests(): Promise<number> {
  return (await sb.activity()).filter((e) => e.path.startsWith('/api/v1/crm/accounts')).length;
}

/** Runs a command that must be refused: exit 2, one `error:` line naming every flag, nothing sent. */
async function refused(argv: string[], flags: string[]): Promise<string> {
  const before = await accountRequests();
  const r = await runBo(argv, { env: testEnv(sb) });
  expect(r.code, argv.join(' ')).toBe(2);
  expect(r.stdout).toBe('');
  // One error line; under --json the documented error object follows it.
  const [line, json, ...rest] = r.stderr.split('\n');
  expect(line).toMatch(/^error: /);
  if (json) expect(JSON.parse(json)).toMatchObject({ error: { status: null, code: 'usage' } });
  expect(rest.filter(Boolean)).toEqual([]);
  for (const flag of flags) expect(r.stderr, argv.join(' ')).toContain(flag);
  expect(await accountRequests()).toBe(before);
  return r.stderr;
}

describe('bo accounts list: conflicting flags', () => {
  it('--q with --search', async () => {
    await refused(['accounts', 'list', '--q', 'x', '--search', 'y'], ['--q', '--search']);
  });

  it('--json with --jsonl, wherever the global flags are written', async () => {
    await refused(['--json', '--jsonl', 'accounts', 'list'], ['--json', '--jsonl']);
    await refused(['accounts', 'list', '--jsonl', '--json'], ['--json', '--jsonl']);
  });

  it('--all with --limit', async () => {
    await refused(['accounts', 'list', '--all', '--limit', '5'], ['--all', '--limit']);
  });

  it('--page with --all', async () => {
    await refused(['accounts', 'list', '--page', '1', '--all'], ['--page', '--all']);
  });
});

describe('bo accounts list: an empty search', () => {
  it('is a usage error for --q and --search, blank or spaces', async () => {
    await refused(['accounts', 'list', '--q', ''], ['--q']);
    await refused(['accounts', 'list', '--search', '   '], ['--search']);
  });
});

describe('bo accounts list --page past the end', () => {
  it('prints nothing on stdout and says on stderr that the page is empty and how many records there are', async () => {
    const total = ((await sb.api('GET', '/crm/accounts?limit=1')).body as { metadata: { total: number } }).metadata.total;
    const r = await runBo(['accounts', 'list', '--page', '500', '--page-size', '10'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const pages = Math.ceil(total / 10);
    expect(r.stderr).toBe(`page 500 is empty: there are ${total} records (pages 0 to ${pages - 1} with --page-size 10)\n`);
  });

  it('says nothing more when the page has records', async () => {
    const r = await runBo(['accounts', 'list', '--page', '0', '--page-size', '10'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(10);
    expect(r.stderr).toBe('');
  });
});

describe('bo accounts list: a filter the server refuses', () => {
  it('says once which property is unknown, naming no internal rule number', async () => {
    const r = await runBo(['accounts', 'list', '--filter', 'Bogus=1'], { env: testEnv(sb) });
    expect(r.code).toBe(1);
    // bo's warning (a name the reference does not list is still sent), then the server's answer.
    expect(r.stderr).toBe(
      'warning: --filter: Account has no known field Bogus (nothing close); sent as given\n' +
        'error: 400 Bad Request: Bogus: unknown filter property "Bogus" (a filter names a top-level scalar property of the record)\n',
    );
  });
});
