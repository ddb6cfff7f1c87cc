// `bo api` with the flags of `gh api`, on the built binary as a real process against
// the sandbox over loopback HTTP: what it printed and what the sandbox stored
// (test/commands/api-gh-flags.test.ts checks every request byte in process).
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const bo = (args: string[], stdin?: string) => runBin(args, { env: testEnv(sb), ...(stdin === undefined ? {} : { stdin }) });

describe('bo api as gh api (built binary)', () => {
  it('-F typed, -f text and -H make one POST; -i prints the status line and headers before the body', async () => {
    const r = await bo(['api', '/email/lists', '-F', 'Name=Binary e2e list', '-F', 'RequiresDoubleOptIn=true', '-f', 'Description=007', '-H', 'X-Request-Note: e2e', '-i']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split(/\r?\n\r?\n/, 2) as [string, string];
    expect(head.split(/\r?\n/)[0]).toBe('HTTP/1.1 201 Created');
    expect(head).toMatch(/^content-type: application\/json/im);
    const created = JSON.parse(body) as { Uid: string };
    expect(await sb.record('EmailList', created.Uid)).toMatchObject({ Name: 'Binary e2e list', RequiresDoubleOptIn: true, Description: '007' });
  });

  it('-X GET puts the fields in the query string; --silent prints no body', async () => {
    const listed = await bo(['api', '-X', 'GET', '/crm/accounts', '-F', 'limit=2', '-f', 'q=Acme']);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { items: Array<{ Name: string }> };
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.length).toBeLessThanOrEqual(2);
    for (const account of page.items) expect(account.Name).toMatch(/acme/i);
    const silent = await bo(['api', '-X', 'GET', '/crm/accounts', '-F', 'limit=1', '--silent']);
    expect(silent).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('nested keys and lists in the body, as --dry-run shows it', async () => {
    const r = await bo(['api', '/crm/things', '-F', 'Account[Uid]=acc_1', '-F', 'Uids[]=a', '-F', 'Uids[]=b', '-F', 'Count=3', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ method: 'POST', body: { Account: { Uid: 'acc_1' }, Uids: ['a', 'b'], Count: 3 } });
  });

  it('a reserved or broken header is exit 2, one line naming -H, and nothing is sent', async () => {
    const before = (await sb.activity()).length;
    for (const header of ['Authorization: bearer x', 'Host: elsewhere.example', 'X-Bad: a\r\nX-Injected: b']) {
      const r = await bo(['api', '/email/lists', '-F', 'Name=never', '-H', header]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')[0]).toMatch(/^error: .*-H/);
    }
    expect(await sb.activity()).toHaveLength(before);
  });
});
