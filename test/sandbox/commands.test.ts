// `bo sandbox users|fixtures|outbox|reset` via runBo: against the embedded sandbox's
// state file in the data folder, and against a server at --base-url.
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let dataDir: string;
let sb: TestSandbox;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bo-sandbox-cmd-'));
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const local = (argv: string[]) => runBo(argv, { env: { BO_DATA_DIR: dataDir } });
const remote = (argv: string[]) => runBo(['--base-url', sb.url, ...argv]);

describe('bo sandbox users', () => {
  it('seeds the state file on first use and prints the logins as tab-separated rows', async () => {
    const r = await local(['sandbox', 'users']);
    expect(r.stderr).toBe(`Using the embedded sandbox (${join(dataDir, 'sandbox-state.json')}).\n`);
    expect(r.code).toBe(0);
    expect(existsSync(join(dataDir, 'sandbox-state.json'))).toBe(true);
    const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((row) => row[0]).sort()).toEqual(['both', 'email', 'enroll', 'plain', 'totp']);
    expect(rows.find((row) => row[0] === 'plain')![1]).toBe('plain@sandbox.example');
  });

  it('--json prints the fixtures users array as is', async () => {
    const r = await remote(['sandbox', 'users', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(sb.fixtures.users);
  });
});

describe('bo sandbox fixtures', () => {
  it('prints GET /__sandbox/fixtures as JSON', async () => {
    const r = await remote(['sandbox', 'fixtures']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(sb.fixtures);
  });

  it('gives the same Uids from the embedded sandbox on every run (same seed, same file)', async () => {
    const a = JSON.parse((await local(['sandbox', 'fixtures'])).stdout);
    const b = JSON.parse((await local(['sandbox', 'fixtures'])).stdout);
    expect(a.accounts.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });
});

describe('bo sandbox outbox', () => {
  it('lists sent emails and --last shows the newest with its text', async () => {
    await sb.reset();
    const [first, second] = sb.fixtures.users;
    for (const u of [first!, second!]) {
      const r = await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: u.username }, authorization: null });
      expect(r.status).toBe(200);
    }
    const list = await remote(['sandbox', 'outbox']);
    expect(list.code).toBe(0);
    const rows = list.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((row) => row[1])).toEqual([first!.username, second!.username]);
    const last = await remote(['sandbox', 'outbox', '--last', '--json']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ to: second!.username, subject: 'Your sign-in link', code: null });
  });

  it('--last exits 3 when nothing was sent', async () => {
    await sb.reset();
    const r = await remote(['sandbox', 'outbox', '--last']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not sent any email/);
  });
});

describe('bo sandbox reset', () => {
  it('puts the embedded sandbox back to its seeded state', async () => {
    const created = await runBo(['--sandbox', '--json', 'api', '/email/lists', '-F', 'Name=Temporary'], { env: { BO_DATA_DIR: dataDir } });
    expect(created.code).toBe(0);
    const uid = (JSON.parse(created.stdout) as { Uid: string }).Uid;

    const r = await local(['sandbox', 'reset']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('reset');

    const gone = await runBo(['--sandbox', 'api', `/email/lists/${uid}`], { env: { BO_DATA_DIR: dataDir } });
    expect(gone.code).toBe(3);
  });

  it('reports an unreachable --base-url with exit 1 and a hint, no stack trace', async () => {
    const r = await runBo(['--base-url', 'http://127.0.0.1:1', 'sandbox', 'reset']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Using the sandbox at http:\/\/127\.0\.0\.1:1\.\nerror: cannot reach the sandbox at http:\/\/127\.0\.0\.1:1/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a state file edited by hand', () => {
  it('is reported in one line that says how to start over (exit 1, no stack trace)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-sandbox-bad-'));
    try {
      writeFileSync(join(dir, 'sandbox-state.json'), '{"format": "bo-sandbox/1", oops');
      const r = await runBo(['sandbox', 'users'], { env: { BO_DATA_DIR: dir } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Using the embedded sandbox \(.*\)\.\nerror: the sandbox state file .*sandbox-state\.json is not valid JSON.*delete it to start over\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
