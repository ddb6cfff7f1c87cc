// `bo sandbox users|fixtures|outbox|reset` act on the server named by --base-url or
// BO_BASE_URL, else on the embedded sandbox; a profile's saved base-url is a tenant and
// never counts. They say which on stderr every time, so nobody resets the wrong one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function createdList(name: string): Promise<string> {
  const r = await sb.api('POST', '/email/lists', { body: { Name: name } });
  expect(r.status).toBe(201);
  return r.body.Uid as string;
}

describe('the target of the sandbox admin commands', () => {
  it("a profile's base-url pointing at a served sandbox does not count: the embedded one is reset, and named", async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_DATA_DIR: join(t.root, 'data') };
    expect((await runBo(['config', 'set', 'base-url', sb.url], { env })).code).toBe(0);
    const uid = await createdList('Survives an embedded reset');
    const r = await runBo(['sandbox', 'reset'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `Using the embedded sandbox (${join(t.root, 'data', 'sandbox-state.json')}).\n` +
        `The profile's base-url is not used here: for the sandbox served at ${sb.url}, pass --base-url ${sb.url}.\n` +
        'sandbox reset to its seeded state\n',
    );
    expect(await sb.record('EmailList', uid)).toMatchObject({ Name: 'Survives an embedded reset' });
  });

  it('BO_BASE_URL names the served sandbox: it is the one reset, and named', async () => {
    const t = tempConfig();
    const uid = await createdList('Gone after a served reset');
    const r = await runBo(['sandbox', 'reset'], { env: { ...t.env, BO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`Using the sandbox at ${sb.url}.\nsandbox reset to its seeded state\n`);
    expect(await sb.record('EmailList', uid)).toBeNull();
  });

  it('users, fixtures and outbox name their target too, on stderr only', async () => {
    const t = tempConfig();
    for (const argv of [['sandbox', 'users'], ['sandbox', 'fixtures'], ['sandbox', 'outbox']]) {
      const r = await runBo(['--base-url', sb.url, ...argv], { env: t.env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`Using the sandbox at ${sb.url}.\n`);
      expect(r.stdout).not.toContain('Using the sandbox');
    }
  });
});
