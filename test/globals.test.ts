// Every global option of COMMANDS.md, and the exit codes of failing servers, as a user
// sees them through `bo accounts list` (the pattern every list command follows).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from './helpers/config-dir.js';
import { testEnv } from './helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from './helpers/fault-server.js';
import { runBo } from './helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from './helpers/sandbox.js';

let sb: TestSandbox;
let fault: FaultServer;
beforeAll(async () => {
  sb = await startTestSandbox();
  fault = await startFaultServer();
});
afterAll(async () => {
  await sb.close();
  await fault.close();
});
afterEach(() => {
  fault.requests.splice(0);
  fault.verify();
});

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ';
const page = (items: unknown[]) => reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items });

describe('global options', () => {
  it('--verbose (and BO_DEBUG=1) traces requests on stderr with every secret redacted', async () => {
    for (const [args, extra] of [[['--verbose'], {}], [[], { BO_DEBUG: '1' }]] as const) {
      const env = { ...testEnv(sb), ...extra };
      const r = await runBo([...args, 'accounts', 'list', '--limit', '1'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/crm\/accounts\?fields=Name%2CAccountStage%2CAccountStageLabel%2CCurrency%2CCreated&limit=1&offset=0$/m);
      expect(r.stderr).toMatch(/^< 200 OK \(\d+ ms\)$/m);
      expect(r.stderr).toContain('authorization: bo [redacted]');
      expect(r.stderr).not.toContain(sb.fixtures.apiKey.secret);
      expect(r.stderr).not.toContain(sb.fixtures.apiKey.key);
      expect(r.stdout.split('\n')).toHaveLength(2);
    }
    fault.script(page([]));
    const bearer = await runBo(['--verbose', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(bearer.stderr).toContain('authorization: bearer [redacted]');
    expect(bearer.stderr).not.toContain(TOKEN.split('.')[2]);
  });

  it('--base-url and BO_BASE_URL choose the server; a non-loopback http URL is refused (D3)', async () => {
    fault.script(page([{ Uid: 'acc_1', Name: 'One' }]));
    const r = await runBo(['--base-url', fault.url, 'accounts', 'list'], { env: { ...tempConfig().env, BO_TOKEN: TOKEN } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('acc_1\tOne\t\t\t\n');
    expect(fault.requests[0]!.headers.authorization).toBe(`bearer ${TOKEN}`);
    const plain = await runBo(['--base-url', 'http://acme.example.com', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(plain.code).toBe(2);
    expect(plain.stderr.split('\n')[0]).toMatch(/^error: .*https/);
    expect(plain.stderr).toContain('--base-url');
  });

  it('--timeout (and BO_TIMEOUT) bounds a request that hangs: exit 1', async () => {
    fault.script(reply.hang());
    const r = await runBo(['--timeout', '0.3', '--max-retries', '0', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/timed out after 0\.3 s \(--timeout\)/);
    fault.script(reply.hang());
    const viaEnv = await runBo(['--max-retries', '0', 'accounts', 'list'], { env: { ...testEnv(fault, { BO_TOKEN: TOKEN }), BO_TIMEOUT: '0.3' } });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toMatch(/timed out after 0\.3 s/);
  });

  it('--max-retries bounds the retries of a failing GET (D30)', async () => {
    fault.script(reply.json(503, { error: 'x' }), reply.json(503, { error: 'x' }), reply.json(503, { error: 'x' }));
    const sleeps: number[] = [];
    const clock = { now: () => new Date(), sleep: async (ms: number) => void sleeps.push(ms) };
    const r = await runBo(['--max-retries', '2', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }), clock });
    expect(r.code).toBe(1);
    expect(fault.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: 503 /);
  });

  it('a 429 that outlasts the retries is exit 5 and honours Retry-After', async () => {
    fault.script(reply.rateLimited('7'), reply.rateLimited('7'));
    const sleeps: number[] = [];
    const clock = { now: () => new Date(), sleep: async (ms: number) => void sleeps.push(ms) };
    const r = await runBo(['--max-retries', '1', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }), clock });
    expect(r.code).toBe(5);
    expect(sleeps).toEqual([7000]);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: .*7 s/);
  });

  it('an HTML error page is a one-line message with its title, never the page', async () => {
    fault.script(reply.html(500, 'Internal Server Error'));
    const r = await runBo(['--max-retries', '0', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: 500 .*Internal Server Error/);
    expect(r.stderr).not.toContain('<');
    expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('a malformed JSON answer is exit 1 "unexpected answer", never a stack trace', async () => {
    fault.script(reply.malformed(200));
    const r = await runBo(['accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: unexpected answer/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a redirect to another origin is an error and nothing is sent there (D3)', async () => {
    const other = await startFaultServer();
    try {
      fault.script(reply.redirect(302, `${other.url}/api/v1/crm/accounts`));
      const r = await runBo(['accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(other.url);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('--json adds a JSON error object on stderr; stdout stays empty', async () => {
    fault.script(reply.json(404, { error: 'not_found', error_description: 'No such list' }));
    const r = await runBo(['--json', 'accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const [line1, line2] = r.stderr.trimEnd().split('\n');
    expect(line1).toBe('error: 404 Not Found: No such list');
    expect(JSON.parse(line2!)).toEqual({ error: { status: 404, code: 'not_found', message: '404 Not Found: No such list' } });
  });

  it('a 403 is exit 4', async () => {
    fault.script(reply.json(403, { error: 'forbidden', error_description: 'Not for this key' }));
    const r = await runBo(['accounts', 'list'], { env: testEnv(fault, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: 403 .*Not for this key/);
  });

  it('--no-input (and BO_NO_INPUT=1) never prompts: a credential prompt becomes exit 4', async () => {
    const prompter = {
      input: async () => {
        throw new Error('prompted');
      },
      password: async () => {
        throw new Error('prompted');
      },
      select: async () => {
        throw new Error('prompted');
      },
      confirm: async () => {
        throw new Error('prompted');
      },
    };
    for (const [args, extra] of [[['--no-input'], {}], [[], { BO_NO_INPUT: '1' }]] as const) {
      const r = await runBo([...args, '--base-url', 'https://acme.example.com', 'auth', 'set-key'], { env: { ...tempConfig().env, ...extra }, stdinIsTTY: true, prompter });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^error: .*--(key|secret-stdin)/);
    }
  });
});

describe('the embedded sandbox (--sandbox, BO_SANDBOX=1)', () => {
  it('works on a fresh data folder and keeps state between runs', async () => {
    const cfg = tempConfig();
    const env = { ...cfg.env, BO_DATA_DIR: `${cfg.root}/data` };
    const first = await runBo(['--sandbox', '--json', 'accounts', 'list', '--all'], { env });
    expect(first.code).toBe(0);
    const accounts = JSON.parse(first.stdout) as Array<{ Uid: string }>;
    expect(accounts.length).toBeGreaterThan(10);
    const created = await runBo(['--sandbox', 'api', '/email/lists', '-F', 'Name=Kept between runs'], { env });
    expect(created.code).toBe(0);
    const lists = await runBo(['--json', 'api', '/email/lists', '--paginate'], { env: { ...env, BO_SANDBOX: '1' } });
    expect((JSON.parse(lists.stdout) as Array<{ Name: string }>).map((l) => l.Name)).toContain('Kept between runs');
  });

  it('never sends credentials from the environment to the sandbox', async () => {
    const cfg = tempConfig();
    const env = { ...cfg.env, BO_DATA_DIR: `${cfg.root}/data`, BO_TOKEN: TOKEN };
    const r = await runBo(['--sandbox', '--verbose', 'accounts', 'list', '--limit', '1'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('authorization: bo [redacted]');
  });

  it('uses the token of `bo --sandbox login` afterwards, in a profile of its own', async () => {
    const cfg = tempConfig();
    const env = { ...cfg.env, BO_DATA_DIR: `${cfg.root}/data` };
    const { createMemoryStore } = await import('../src/auth/stores/memory.js');
    const store = createMemoryStore();
    const users = JSON.parse((await runBo(['sandbox', 'users', '--json'], { env })).stdout) as Array<{ kind: string; username: string; password: string }>;
    const plain = users.find((u) => u.kind === 'plain')!;
    const login = await runBo(['--sandbox', 'login', '--username', plain.username, '--password-stdin'], {
      env,
      stdin: `${plain.password}\n`,
      credentials: store,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/^Signed in as \S+ \(sandbox\) until /);
    expect(await store.get('sandbox')).toMatchObject({ kind: 'token', username: plain.username });
    expect(await store.get('default')).toBeNull();
    const r = await runBo(['--sandbox', '--verbose', 'accounts', 'list', '--limit', '1'], { env, credentials: store });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('authorization: bearer [redacted]');
  });
});

