// `bo --sandbox` hands each request to the embedded sandbox in its own process, never
// over a socket or an HTTP server (src/api/http-attempt.ts directExchange), while the
// client's HTTP core runs as against any server: reads, writes, refusals, --verbose,
// paging, sign-in, time limits, Ctrl-C and the size cap behave as before. (`bo sandbox
// serve` and the tests' sandboxes stay real HTTP servers.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { binPath } from '../helpers/run-bin.js';
import { hasStrace } from '../helpers/strace.js';
import { runBo } from '../helpers/run-bo.js';

const dir = mkdtempSync(join(tmpdir(), 'bo-in-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fresh() {
  const cfg = tempConfig();
  const data = join(dir, `data-${++n}`);
  return { data, env: { ...cfg.env, BO_DATA_DIR: data } };
}
const activity = (data: string) =>
  readFileSync(join(data, 'sandbox-state.json.activity.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string; path: string; status: number });

describe('bo --sandbox in-process', () => {
  it('reads a page, and a write lands in the state file the next run reads', async () => {
    const { data, env } = fresh();
    const list = await runBo(['--sandbox', '--json', 'accounts', 'list', '--limit', '5'], { env });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('showing 5 of 60; pass --all for every record\n');
    expect((JSON.parse(list.stdout) as Array<{ Uid: string }>).map((a) => a.Uid)).toHaveLength(5);

    const created = await runBo(['--sandbox', '--json', 'api', '/email/lists', '-F', 'Name=In memory'], { env });
    expect(created.code).toBe(0);
    const uid = (JSON.parse(created.stdout) as { Uid: string }).Uid;
    const stored = JSON.parse(readFileSync(join(data, 'sandbox-state.json'), 'utf8')).records.EmailList[uid];
    expect(stored).toMatchObject({ Name: 'In memory' });
    const again = await runBo(['--sandbox', '--json', 'api', '/email/lists', '--paginate'], { env });
    expect((JSON.parse(again.stdout) as Array<{ Uid: string; Name: string }>).find((l) => l.Uid === uid)).toMatchObject({ Name: 'In memory' });
    expect(activity(data).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'GET /api/v1/crm/accounts 200', 'POST /api/v1/email/lists 201', 'GET /api/v1/email/lists 200',
    ]);
  });

  it('walks every page with --all, as over a socket', async () => {
    const { env } = fresh();
    const all = await runBo(['--sandbox', '--json', 'api', '/crm/accounts', '--paginate'], { env: { ...env } });
    expect(all.code).toBe(0);
    const uids = (JSON.parse(all.stdout) as Array<{ Uid: string }>).map((a) => a.Uid);
    expect(uids).toHaveLength(60);
    expect(new Set(uids).size).toBe(60);
  });

  it('maps the sandbox refusals as for any server: 404 exit 3, 413 for a body over 1 MB', async () => {
    const { data, env } = fresh();
    const missing = await runBo(['--sandbox', 'accounts', 'get', 'acc_none'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: .*acc_none/);

    const big = join(dir, 'big.json');
    writeFileSync(big, JSON.stringify({ Name: 'x'.repeat(1_100_000) }));
    const tooBig = await runBo(['--sandbox', 'api', '-X', 'POST', '/email/lists', '--input', big], { env });
    expect(tooBig.code).not.toBe(0);
    expect(tooBig.stderr).toMatch(/413|larger than 1048576 bytes/);
    expect(activity(data).at(-1)).toMatchObject({ method: 'POST', path: '/api/v1/email/lists', status: 413 });
  });

  it('--verbose traces the request and the answer, with the credential redacted', async () => {
    const { env } = fresh();
    const r = await runBo(['--sandbox', '--verbose', 'accounts', 'list', '--limit', '1'], { env });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('> GET http://127.0.0.1/api/v1/crm/accounts?fields=Name%2CAccountStage%2CAccountStageLabel%2CCurrency%2CCreated&limit=1&offset=0');
    expect(lines).toContain('> authorization: bo [redacted]');
    expect(lines.some((l) => /^< 200 OK \(\d+ ms\)$/.test(l))).toBe(true);
    expect(lines).toContain('< content-type: application/json; charset=utf-8');
  });

  it('signs in with `bo --sandbox login` and reads with the token', async () => {
    const { env } = fresh();
    const { createMemoryStore } = await import('../../src/auth/stores/memory.js');
    const store = createMemoryStore();
    const users = JSON.parse((await runBo(['sandbox', 'users', '--json'], { env })).stdout) as Array<{ kind: string; username: string; password: string }>;
    const plain = users.find((u) => u.kind === 'plain')!;
    const login = await runBo(['--sandbox', 'login', '--username', plain.username, '--password-stdin'], { env, stdin: `${plain.password}\n`, credentials: store });
    expect(login.code).toBe(0);
    const r = await runBo(['--sandbox', '--verbose', '--json', 'accounts', 'list', '--limit', '1'], { env, credentials: store });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> authorization: bearer [redacted]');
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe.skipIf(!hasStrace)('the built bo --sandbox, traced', () => {
  it('opens no network socket: nothing listens, nothing connects', () => {
    const { env } = fresh();
    const log = join(dir, `strace-${n}.txt`);
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', ...(env as Record<string, string>), HOME: dir };
    const run = (args: string[]) =>
      spawnSync('strace', ['-f', '-qq', '-e', 'trace=socket,bind,listen,connect', '-o', log, process.execPath, binPath, ...args], { env: childEnv, encoding: 'utf8' });
    // The first run seeds the state, the second reads it, the third writes.
    for (const args of [['--sandbox', 'accounts', 'list', '--limit', '2'], ['--sandbox', 'accounts', 'list', '--limit', '2'], ['--sandbox', 'api', '/email/lists', '-F', 'Name=Traced']]) {
      const r = run(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).not.toBe('');
      const calls = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
      expect(calls.filter((l) => /AF_INET|listen\(|bind\(/.test(l))).toEqual([]);
    }
  });

  it('still sees the sockets of `bo` against a served sandbox (the trace works)', () => {
    const log = join(dir, 'strace-served.txt');
    const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=socket,connect', '-o', log, process.execPath, binPath, '--base-url', 'http://127.0.0.1:1', '--no-input', 'accounts', 'list'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, BO_API_KEY: 'k', BO_API_SECRET: 's', BO_CONFIG_DIR: join(dir, 'cfg') },
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0); // nothing listens on port 1
    expect(readFileSync(log, 'utf8')).toMatch(/connect\(\d+, \{sa_family=AF_INET, sin_port=htons\(1\)/);
  });
});

describe('the direct exchange under the HTTP core', () => {
  type Answer = { status: number; statusText: string; headers: Record<string, string>; text: string };
  async function clientOf(server: (req: import('../../src/api/http-attempt.js').DirectRequest) => Promise<Answer>, options: { timeoutMs?: number; signal?: AbortSignal; maxResponseBytes?: number } = {}) {
    const { directExchange } = await import('../../src/api/http-attempt.js');
    const { createHttpClient } = await import('../../src/api/http.js');
    return createHttpClient({
      baseUrl: 'http://127.0.0.1', credential: { kind: 'apiKey', key: 'k', secret: 's' }, apiKeyScheme: 'bo', timeoutMs: options.timeoutMs ?? 5_000,
      maxRetries: 0, noLog: false, userAgent: 'bo-test', signal: options.signal, maxResponseBytes: options.maxResponseBytes, transport: directExchange(server),
    });
  }
  const json = (status: number, body: unknown): Answer => ({ status, statusText: status === 200 ? 'OK' : 'Not Found', headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });

  it('hands over method, path and query, headers and body, and reads the answer as from a socket', async () => {
    const seen: unknown[] = [];
    const client = await clientOf(async (req) => {
      seen.push({ method: req.method, target: req.target, auth: req.headers.authorization, type: req.headers['content-type'], body: req.body.toString() });
      return json(200, { ok: true });
    });
    expect((await client.request({ method: 'POST', path: '/email/lists', query: { a: '1' }, body: { Name: 'x' } })).body).toEqual({ ok: true });
    expect(seen).toEqual([{ method: 'POST', target: '/api/v1/email/lists?a=1', auth: 'bo k:s', type: 'application/json', body: '{"Name":"x"}' }]);
    await expect(clientOf(async () => json(404, { error: 'not_found', error_description: 'no such thing' })).then((c) => c.request({ method: 'GET', path: '/x' })))
      .rejects.toMatchObject({ status: 404, message: expect.stringContaining('no such thing') });
  });

  it('a sandbox that never answers times out, as over a socket', async () => {
    const client = await clientOf(() => new Promise(() => {}), { timeoutMs: 200 });
    await expect(client.request({ method: 'GET', path: '/slow' })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('Ctrl-C while the sandbox works ends the request at once', async () => {
    const controller = new AbortController();
    const client = await clientOf(() => new Promise(() => {}), { signal: controller.signal });
    const pending = client.request({ method: 'GET', path: '/slow' });
    setTimeout(() => controller.abort(), 20);
    const { ExitCode } = await import('../../src/errors.js');
    await expect(pending).rejects.toMatchObject({ message: 'interrupted', exitCode: ExitCode.interrupted });
  });

  it('an answer past the size cap is dropped, and a sandbox that fails reads as a broken connection', async () => {
    const big = await clientOf(async () => json(200, { text: 'x'.repeat(2000) }), { maxResponseBytes: 1000 });
    await expect(big.request({ method: 'GET', path: '/big' })).rejects.toMatchObject({ code: 'too_large' });
    const broken = await clientOf(async () => {
      throw new Error('state file gone');
    });
    await expect(broken.request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ code: 'network', message: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1\/api\/v1\/x failed/) });
  });

  it('the embedded sandbox failing past its routes (its state file) answers 500 saying why, as the served one does', async () => {
    const { Store } = await import('../../src/sandbox/store.js');
    const { seedState } = await import('../../src/sandbox/seed.js');
    const { openInProcessSandbox } = await import('../../src/sandbox/server.js');
    const store = Store.memory({ seed: 1, accounts: 3 }, seedState);
    store.transact = async () => {
      throw new Error('the sandbox state file is locked by another process');
    };
    const sandbox = await openInProcessSandbox({ store, url: 'http://127.0.0.1' });
    const client = await clientOf((req) => sandbox.answer(req));
    await expect(client.request({ method: 'GET', path: '/crm/accounts' })).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('the sandbox state file is locked by another process'),
    });
  });

  it('the sandbox reason phrases are the ones node:http sends', async () => {
    const http = await import('node:http');
    const { REASON_PHRASES } = await import('../../src/sandbox/answer.js');
    for (const [status, text] of Object.entries(REASON_PHRASES)) expect(text, status).toBe(http.STATUS_CODES[Number(status)]);
  });
});

describe('what the built bo --sandbox loads', () => {
  // Node built-ins loaded beyond a bare start, written by a preload at exit.
  function builtinsOf(args: string[], env: Record<string, string>): string[] {
    const hook = join(dir, 'builtins-hook.cjs');
    writeFileSync(hook, "const base = new Set(process.moduleLoadList); process.on('exit', () => require('fs').writeSync(2, '\\nBUILTINS ' + process.moduleLoadList.filter((m) => !base.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));");
    const r = spawnSync(process.execPath, ['-r', hook, binPath, ...args], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return /BUILTINS (.*)\n/.exec(r.stderr)![1]!.split(' ');
  }

  it('neither seeding nor reading loads node:http, crypto, zlib, os, child_process, the net listen path or the ESM loader', () => {
    const { env } = fresh();
    for (const run of ['seeds', 'reads']) {
      const loaded = builtinsOf(['--sandbox', 'accounts', 'list', '--limit', '2'], env as Record<string, string>);
      expect(loaded, run).toContain('stream'); // the bundle did load: the list is whole
      for (const unwanted of ['http', '_http_client', '_http_server', 'crypto', 'zlib', 'os', 'child_process', 'cluster', 'dgram', 'dns', 'internal/fs/promises', 'internal/modules/esm/translators']) {
        expect(loaded, `${run}: ${unwanted}`).not.toContain(unwanted);
      }
    }
  });
});
