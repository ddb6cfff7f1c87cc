// Answers of the wrong shape and hostile servers, as a user sees them: exit 1 and
// "unexpected answer", never a JavaScript message; certificates checked whatever the
// environment says; a password in a base URL never echoed back.
import { writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { closedPort, reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const TOKEN = 'tok-hostile-5d1c';
const jsMessage = /is not a function|is not iterable|is not async iterable|Cannot read prop|undefined|Maximum call stack|    at /;

describe('accounts get: an answer of the wrong shape is "unexpected answer" (exit 1), not "not found"', () => {
  it.each([
    ['null', null],
    ['no items array', { metadata: { total: 0 } }],
    ['items an object', { items: { Uid: 'acc_1' } }],
    ['items a string', { items: 'acc_1' }],
  ])('%s', async (_name, body) => {
    server.script(reply.json(200, body));
    const r = await runBo(['accounts', 'get', 'acc_1'], { env: testEnv(server, { BO_TOKEN: TOKEN }) });
    expect(r.stderr.split('\n')[0]).toBe('error: unexpected answer from the server (200): not a list (no "items" array)');
    expect(r.stderr).not.toMatch(jsMessage);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('still exits 3 when the list holds no such Uid, even with junk entries', async () => {
    server.script(reply.json(200, { items: [null, 3, { Uid: 'acc_other' }] }));
    const r = await runBo(['accounts', 'get', 'acc_1'], { env: testEnv(server, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('error: no account with Uid acc_1');
  });
});

describe('deeply nested JSON', () => {
  it('100,000 levels: exit 1 "unexpected answer", no stack overflow', async () => {
    server.script(reply.deep(100_000));
    const r = await runBo(['accounts', 'list'], { env: testEnv(server, { BO_TOKEN: TOKEN }) });
    expect(r.stderr.split('\n')[0]).toBe('error: unexpected answer from the server (200 OK): JSON nested more than 512 levels deep');
    expect(r.stderr).not.toMatch(jsMessage);
    expect(r.code).toBe(1);
  });

  it('the same through bo api and --verbose', async () => {
    server.script(reply.deep(100_000));
    const r = await runBo(['--verbose', 'api', '/crm/accounts'], { env: testEnv(server, { BO_TOKEN: TOKEN }) });
    expect(r.stderr).toMatch(/^error: unexpected answer from the server \(200 OK\): JSON nested more than 512 levels deep$/m);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.code).toBe(1);
  });

  it('ordinary nesting is read as before', async () => {
    server.script(reply.json(200, { a: { b: { c: [[[[{ d: 1 }]]]] } } }));
    const r = await runBo(['api', '/x'], { env: testEnv(server, { BO_TOKEN: TOKEN }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ a: { b: { c: [[[[{ d: 1 }]]]] } } });
  });
});

describe('sandbox admin commands pointed at a server that is not a sandbox', () => {
  it.each([
    ['users', ['sandbox', 'users'], { not: 'a sandbox' }],
    ['users with users an object', ['sandbox', 'users'], { users: { a: 1 } }],
    ['outbox', ['sandbox', 'outbox'], { items: [] }],
    ['outbox --last', ['sandbox', 'outbox', '--last'], 'hello'],
    ['fixtures', ['sandbox', 'fixtures'], null],
  ])('%s: exit 1 "unexpected answer"', async (_name, argv, body) => {
    server.script(reply.json(200, body));
    const r = await runBo(['--base-url', server.url, ...argv], { env: tempConfig().env });
    expect(r.stderr.split('\n').find((l) => l.startsWith('error:'))).toMatch(/^error: unexpected answer from http:\/\/127\.0\.0\.1:\d+\/__sandbox\/\w+: not what a sandbox sends$/);
    expect(r.stderr).not.toMatch(jsMessage);
    expect(r.code).toBe(1);
  });
});

describe('sandbox admin commands and oversized or deep answers', () => {
  it('an endless body is cut off at the cap: exit 1, a clear message', async () => {
    server.script(reply.endless());
    const r = await runBo(['--base-url', server.url, 'sandbox', 'fixtures'], { env: { ...tempConfig().env, BO_MAX_RESPONSE_MB: '2' } });
    expect(r.stderr.split('\n').find((l) => l.startsWith('error:'))).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/__sandbox\/fixtures: the answer is larger than 2 MB, more than bo accepts for one response$/);
    expect(r.code).toBe(1);
  });

  it('deeply nested JSON is "unexpected answer", no stack overflow', async () => {
    server.script(reply.deep(100_000));
    const r = await runBo(['--base-url', server.url, 'sandbox', 'fixtures'], { env: tempConfig().env });
    expect(r.stderr.split('\n').find((l) => l.startsWith('error:'))).toMatch(/^error: unexpected answer from .*: not what a sandbox sends$/);
    expect(r.stderr).not.toMatch(jsMessage);
    expect(r.code).toBe(1);
  });
});

describe('certificates', () => {
  async function tlsServer() {
    const seen: Array<{ url: string; authorization?: string }> = [];
    const tls = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"items":[]}');
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    const close = () => {
      tls.closeAllConnections();
      return new Promise((resolve) => tls.close(resolve));
    };
    return { seen, url, close };
  }

  it('NODE_TLS_REJECT_UNAUTHORIZED=0 does not switch checks off: exit 1, and the server saw no request', async () => {
    const tls = await tlsServer();
    try {
      const r = await runBin(['accounts', 'list'], {
        env: testEnv(tls, { BO_TOKEN: TOKEN, NODE_TLS_REJECT_UNAUTHORIZED: '0' }),
      });
      expect(r.stderr).toMatch(/^error: could not connect to https:\/\/127\.0\.0\.1:\d+: the TLS certificate is self-signed$/m);
      expect(r.code).toBe(1);
      expect(tls.seen).toEqual([]);
    } finally {
      await tls.close();
    }
  });

  it('a CA added through NODE_EXTRA_CA_CERTS is still trusted', async () => {
    const tls = await tlsServer();
    const cfg = tempConfig();
    const ca = join(cfg.root, 'ca.pem');
    writeFileSync(ca, TEST_CERT.slice(0, TEST_CERT.indexOf('-----END CERTIFICATE-----') + 26));
    try {
      const r = await runBin(['--json', 'accounts', 'list'], { env: { ...cfg.env, BO_BASE_URL: tls.url, BO_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: ca } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(tls.seen).toHaveLength(1);
      expect(tls.seen[0]!.authorization).toBe(`bearer ${TOKEN}`);
    } finally {
      await tls.close();
    }
  });
});

describe('a base URL with user info is never echoed with it', () => {
  it.each([
    ['--base-url', ['--base-url', 'http://alice:hunter2-pw@example.com', 'accounts', 'list'], {}],
    ['BO_BASE_URL', ['accounts', 'list'], { BO_BASE_URL: 'http://alice:hunter2-pw@example.com' }],
    ['not a URL at all', ['accounts', 'list'], { BO_BASE_URL: 'https://alice:hunter2-pw@exa mple.com' }],
    ['a query', ['accounts', 'list'], { BO_BASE_URL: 'https://alice:hunter2-pw@example.com/?x=1' }],
    ['bo config set', ['config', 'set', 'base-url', 'http://alice:hunter2-pw@example.com'], {}],
    ['bo api with a URL', ['api', 'https://alice:hunter2-pw@example.com/crm/accounts'], { BO_BASE_URL: 'https://example.com' }],
  ])('%s: exit 2, the password replaced', async (_name, argv, extra) => {
    const r = await runBo(['--verbose', ...argv], { env: { ...tempConfig().env, BO_TOKEN: TOKEN, ...extra } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toContain('alice');
  });

  it('bo sandbox users --base-url with user info: exit 2, the password not in the message', async () => {
    const r = await runBo(['--base-url', 'http://alice:hunter2-pw@127.0.0.1:1', 'sandbox', 'users'], { env: tempConfig().env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --base-url must not contain a user name or password/);
    expect(r.stderr).not.toContain('hunter2');
  });

  it('bo sandbox users at a closed port: "connection refused", exit 1', async () => {
    const port = await closedPort();
    const r = await runBo(['--base-url', `http://127.0.0.1:${port}`, 'sandbox', 'users'], { env: tempConfig().env });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').find((l) => l.startsWith('error:'))).toBe(`error: cannot reach the sandbox at http://127.0.0.1:${port}: connection refused`);
  });
});
