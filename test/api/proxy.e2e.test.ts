// Proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY): https tunnelled with CONNECT through a
// proxy started by the test, which records what it saw; the https server has the test's
// self-signed certificate, trusted by the built binary through NODE_EXTRA_CA_CERTS.
import { writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { makeClient, rejectionOf, TOKEN } from './client-fixture.js';
import { closedPort, startConnectProxy, type ConnectProxy } from './proxy-fixture.js';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

/** An https API with one account, or with `pages` one-record pages when asked for. */
async function tlsServer(pages?: number) {
  const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];
  const server = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    if (!pages) return res.end('{"items":[{"Uid":"acc_0001","Name":"Acme"}]}');
    const offset = Number(new URL(req.url ?? '/', 'https://x').searchParams.get('offset') ?? 0);
    res.end(JSON.stringify({ items: [{ Uid: `acc_${offset}` }], metadata: { limit: 1, offset, total: pages } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    port,
    url: `https://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const stop: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of stop.splice(0)) await close();
});

async function proxy(options?: Parameters<typeof startConnectProxy>[0]): Promise<ConnectProxy> {
  const p = await startConnectProxy(options);
  stop.push(p.close);
  return p;
}

async function tls(pages?: number) {
  const t = await tlsServer(pages);
  stop.push(t.close);
  return t;
}

/** The test certificate as a CA file for NODE_EXTRA_CA_CERTS, and a fresh config. */
function trustingEnv() {
  const cfg = tempConfig();
  const ca = join(cfg.root, 'ca.pem');
  writeFileSync(ca, TEST_CERT.slice(0, TEST_CERT.indexOf('-----END CERTIFICATE-----') + 26));
  return { ...cfg.env, NODE_EXTRA_CA_CERTS: ca };
}

describe('https through a CONNECT proxy (the built binary)', () => {
  it('tunnels with CONNECT: the proxy sees the CONNECT line only, the credential travels inside the tunnel', async () => {
    const server = await tls();
    const p = await proxy();
    const r = await runBin(['--json', 'accounts', 'list'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: p.url },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ Uid: 'acc_0001', Name: 'Acme' }]);
    // What the proxy saw: one CONNECT to the server, with no credential of the API.
    expect(p.connects.map((c) => c.target)).toEqual([`127.0.0.1:${server.port}`]);
    expect(p.connects[0]!.headers.authorization).toBeUndefined();
    expect(p.connects[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(p.plain).toEqual([]);
    expect(p.relayed().length).toBeGreaterThan(0);
    expect(p.relayed()).not.toContain(TOKEN);
    expect(p.relayed()).not.toContain('/api/v1');
    // What the server saw: the request, with the credential.
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.url).toMatch(/^\/api\/v1\/crm\/accounts/);
    expect(server.seen[0]!.headers.authorization).toBe(`bearer ${TOKEN}`);
  });

  it('keeps keep-alive through the tunnel: three pages over one CONNECT', async () => {
    const server = await tls(3);
    const p = await proxy();
    // One page at a time, so every request can reuse the one tunnel.
    const r = await runBin(['--json', 'accounts', 'list', '--all', '--concurrency', '1'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: p.url },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((a: { Uid: string }) => a.Uid)).toEqual(['acc_0', 'acc_1', 'acc_2']);
    expect(server.seen).toHaveLength(3);
    expect(p.connects).toHaveLength(1);
  });

  it('a proxy URL with user:password sends Proxy-Authorization on CONNECT and never shows the password, even with --verbose', async () => {
    const server = await tls();
    const p = await proxy({ auth: 'alice:s3cret-pw' });
    const proxyUrl = `http://alice:s3cret-pw@127.0.0.1:${p.port}`;
    const r = await runBin(['--verbose', '--json', 'accounts', 'list'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, https_proxy: proxyUrl },
    });
    expect(r.code).toBe(0);
    expect(p.connects).toHaveLength(1);
    expect(p.connects[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`);
    // The proxy's credential is for the proxy: the server never gets it.
    expect(server.seen[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(r.stderr).toContain(`through the proxy http://127.0.0.1:${p.port} (https_proxy)`);
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    expect(r.stdout + r.stderr).not.toContain(Buffer.from('alice:s3cret-pw').toString('base64'));
  });
});

describe('a proxy that asks for its own user and password (the built binary)', () => {
  // tinyproxy answers CONNECT with 401, others with 407. A proxy that checks them
  // against a directory counts each try as a failed login: one try a run, whatever
  // --max-retries says, and an authentication failure (exit 4, code auth).
  const USER = 'alice';
  const PASSWORD = 'pr0xy:p@ss/wörd';
  const userInfo = `${USER}:${encodeURIComponent(PASSWORD)}`;
  const forms = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString('base64')];

  it.each([401, 407] as const)('%s to a wrong user and password: one CONNECT, exit 4, "rejected the user and password it was given", the password never shown', async (status) => {
    const server = await tls();
    const p = await proxy({ auth: 'alice:the-right-one', challenge: status });
    for (const mode of [[], ['--verbose', '--json']]) {
      p.connects.length = 0;
      const r = await runBin(['--max-retries', '3', ...mode, 'accounts', 'list'], {
        env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: `http://${userInfo}@127.0.0.1:${p.port}` },
      });
      expect(r.code, r.stderr).toBe(4);
      expect(p.connects).toHaveLength(1);
      expect(p.connects[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('error: ') || l.startsWith('hint: '));
      expect(lines).toEqual([
        `error: the proxy http://127.0.0.1:${p.port} (HTTPS_PROXY) rejected the user and password it was given: ${status} ${status === 401 ? 'Unauthorized' : 'Proxy Authentication Required'}`,
        'hint: check the user and password in HTTPS_PROXY (http://user:password@host:port).',
      ]);
      if (mode.includes('--json')) expect(r.stderr).toContain('{"error":{"status":null,"code":"auth","message":"the proxy');
      expect(r.stderr).not.toMatch(/retrying/);
      for (const form of forms) expect(r.stdout + r.stderr).not.toContain(form);
    }
    expect(server.seen).toEqual([]);
  });

  it.each([401, 407] as const)('%s with no user and password given: one CONNECT, exit 4, "wants a user and password", put them in HTTPS_PROXY', async (status) => {
    const server = await tls();
    const p = await proxy({ auth: 'alice:the-right-one', challenge: status });
    const r = await runBin(['--max-retries', '3', '--json', 'accounts', 'list'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: p.url },
    });
    expect(r.code, r.stderr).toBe(4);
    expect(p.connects).toHaveLength(1);
    expect(p.connects[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      `error: the proxy ${p.url} (HTTPS_PROXY) wants a user and password for the tunnel to 127.0.0.1:${server.port}: ${status} ${status === 401 ? 'Unauthorized' : 'Proxy Authentication Required'}`,
      'hint: put them in HTTPS_PROXY: http://user:password@host:port',
    ]);
    expect(r.stderr).toContain('"code":"auth"');
    expect(server.seen).toEqual([]);
  });

  it('a refusal whose reason phrase echoes the password: the password is not shown', async () => {
    const server = await tls();
    const p = await proxy({ auth: 'alice:the-right-one', reason: 'Bad password hunter2-pw9' });
    const r = await runBin(['--json', 'accounts', 'list'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: `http://alice:hunter2-pw9@127.0.0.1:${p.port}` },
    });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: the proxy http://127.0.0.1:${p.port} (HTTPS_PROXY) rejected the user and password it was given: 407 Bad password [redacted]`,
    );
    expect(r.stdout + r.stderr).not.toContain('hunter2-pw9');
  });
});

describe('an https:// proxy', () => {
  it('TLS to the proxy, and the server\'s own TLS inside the tunnel (the built binary)', async () => {
    const server = await tls();
    const p = await proxy({ tls: true, auth: 'dan:tls-pw' });
    const r = await runBin(['--json', 'accounts', 'list'], {
      env: { ...trustingEnv(), BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: `https://dan:tls-pw@127.0.0.1:${p.port}` },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(p.connects.map((c) => c.target)).toEqual([`127.0.0.1:${server.port}`]);
    expect(p.relayed()).not.toContain(TOKEN);
    expect(server.seen[0]!.headers.authorization).toBe(`bearer ${TOKEN}`);
  });

  it('whose certificate is not trusted: exit 1 naming the proxy, nothing sent through it', async () => {
    const server = await tls();
    const p = await proxy({ tls: true });
    const r = await runBo(['accounts', 'list'], { env: testEnv(server, { BO_TOKEN: TOKEN, HTTPS_PROXY: p.url }) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`error: could not connect to the proxy ${p.url} (HTTPS_PROXY): the TLS certificate is self-signed`);
    expect(p.connects).toEqual([]);
    expect(server.seen).toEqual([]);
  });
});

describe('https through a proxy, in-process', () => {
  it('still checks the server certificate inside the tunnel: exit 1, the server got no request', async () => {
    const server = await tls();
    const p = await proxy();
    const r = await runBo(['accounts', 'list'], { env: testEnv(server, { BO_TOKEN: TOKEN, HTTPS_PROXY: p.url }) });
    expect(r.stderr).toMatch(new RegExp(`^error: could not connect to https://127\\.0\\.0\\.1:${server.port}: the TLS certificate is self-signed$`, 'm'));
    expect(r.code).toBe(1);
    expect(p.connects).toHaveLength(1);
    expect(server.seen).toEqual([]);
  });

  it('an unreachable proxy: exit 1, the message names the proxy without its password', async () => {
    const server = await tls();
    const port = await closedPort();
    for (const verbose of [[], ['--verbose']]) {
      const r = await runBo([...verbose, '--max-retries', '0', '--json', 'accounts', 'list'], {
        env: { ...tempConfig().env, BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: `http://bob:hunter2-pw@127.0.0.1:${port}` },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: could not connect to the proxy http://127\\.0\\.0\\.1:${port} \\(HTTPS_PROXY\\): connection refused$`, 'm'));
      expect(r.stderr).toContain('"code":"network"');
      expect(r.stderr).not.toContain('hunter2-pw');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
    expect(server.seen).toEqual([]);
  });

  it('a refused proxy password: exit 4 on the first 407, not retried, the password not shown', async () => {
    const server = await tls();
    const p = await proxy({ auth: 'alice:right-pw' });
    const r = await runBo(['accounts', 'list'], {
      env: { ...tempConfig().env, BO_BASE_URL: server.url, BO_TOKEN: TOKEN, HTTPS_PROXY: `http://alice:wrong-pw@127.0.0.1:${p.port}` },
    });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: the proxy http://127.0.0.1:${p.port} (HTTPS_PROXY) rejected the user and password it was given: 407 Proxy Authentication Required`,
    );
    expect(r.stderr).not.toContain('wrong-pw');
    expect(p.connects).toHaveLength(1);
    expect(server.seen).toEqual([]);
  });

  it('a proxy that refuses the tunnel (403): exit 1 on the first answer, not retried', async () => {
    const server = await tls();
    const p = await proxy({ refuse: 403 });
    const r = await runBo(['--max-retries', '3', '--json', 'accounts', 'list'], {
      env: testEnv(server, { BO_TOKEN: TOKEN, HTTPS_PROXY: p.url }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`error: the proxy ${p.url} (HTTPS_PROXY) refused the tunnel to 127.0.0.1:${server.port}: 403 Forbidden`);
    expect(r.stderr).toContain('"code":"network"');
    expect(p.connects).toHaveLength(1);
  });

  it('a proxy variable that is not an http(s) proxy: exit 2 naming the variable, nothing sent, no password shown', async () => {
    const server = await tls();
    const r = await runBo(['accounts', 'list'], {
      env: testEnv(server, { BO_TOKEN: TOKEN, HTTPS_PROXY: 'socks5://carol:pw-9z8y@127.0.0.1:1080' }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: HTTPS_PROXY: socks5://127.0.0.1:1080 is not supported; bo uses http:// and https:// proxies');
    expect(r.stderr).not.toContain('pw-9z8y');
    expect(server.seen).toEqual([]);
  });

  it('the lower-case variable wins over the upper-case one', async () => {
    const server = await tls();
    const lower = await proxy();
    const upper = await proxy();
    const r = await runBo(['accounts', 'list'], {
      env: testEnv(server, { BO_TOKEN: TOKEN, https_proxy: lower.url, HTTPS_PROXY: upper.url }),
    });
    expect(r.code).toBe(1); // the test certificate is not trusted in-process
    expect(lower.connects).toHaveLength(1);
    expect(upper.connects).toEqual([]);
  });
});

describe('http:// base URLs (loopback) and HTTP_PROXY', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb.close();
  });
  const sbPort = () => new URL(sb.url).port;

  it('goes through HTTP_PROXY, tunnelled with CONNECT as well', async () => {
    const p = await proxy();
    const r = await runBo(['--json', 'accounts', 'list', '--limit', '2'], { env: { ...testEnv(sb), HTTP_PROXY: p.url } });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(p.connects.map((c) => c.target)).toEqual([`127.0.0.1:${sbPort()}`]);
    expect(p.plain).toEqual([]);
  });

  it('http_proxy wins over HTTP_PROXY; HTTPS_PROXY does not apply to http://', async () => {
    const lower = await proxy();
    const upper = await proxy();
    const secure = await proxy();
    const r1 = await runBo(['accounts', 'list', '--limit', '1'], { env: { ...testEnv(sb), http_proxy: lower.url, HTTP_PROXY: upper.url } });
    expect(r1.code).toBe(0);
    expect(lower.connects).toHaveLength(1);
    expect(upper.connects).toEqual([]);
    const r2 = await runBo(['accounts', 'list', '--limit', '1'], { env: { ...testEnv(sb), HTTPS_PROXY: secure.url } });
    expect(r2.code).toBe(0);
    expect(secure.connects).toEqual([]);
  });

  it.each([
    ['the exact host', { NO_PROXY: '127.0.0.1' }, false],
    ['*', { NO_PROXY: '*' }, false],
    ['host:port of the base URL', { NO_PROXY: '127.0.0.1:PORT' }, false],
    ['host with another port', { NO_PROXY: '127.0.0.1:1' }, true],
    ['a comma list with spaces', { NO_PROXY: 'example.com , 127.0.0.1,  .corp.example' }, false],
    ['a list without the host', { NO_PROXY: 'example.com, localhost' }, true],
    ['a range', { NO_PROXY: '127.0.0.0/8' }, false],
    ['no_proxy over NO_PROXY', { no_proxy: 'example.com', NO_PROXY: '*' }, true],
    ['lower-case no_proxy alone', { no_proxy: '127.0.0.1' }, false],
  ])('NO_PROXY %s', async (_name, noProxy, proxied) => {
    const p = await proxy();
    const extra = Object.fromEntries(Object.entries(noProxy).map(([k, v]) => [k, v.replace('PORT', sbPort())]));
    const r = await runBo(['accounts', 'list', '--limit', '1'], { env: { ...testEnv(sb), HTTP_PROXY: p.url, ...extra } });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(p.connects).toHaveLength(proxied ? 1 : 0);
  });

  it('--sandbox (the embedded sandbox, in this process) never goes through a proxy', async () => {
    const p = await proxy();
    const cfg = tempConfig();
    const r = await runBo(['--sandbox', '--json', 'accounts', 'list', '--limit', '1'], {
      env: { ...cfg.env, BO_DATA_DIR: join(cfg.root, 'data'), HTTP_PROXY: p.url, http_proxy: p.url, HTTPS_PROXY: p.url },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(p.connects).toEqual([]);
    expect(p.plain).toEqual([]);
  });
});

describe('the core keeps its behaviour through the tunnel', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('keep-alive: three requests, one tunnel', async () => {
    const p = await proxy();
    server.script(reply.json(200, { n: 1 }), reply.json(200, { n: 2 }), reply.json(200, { n: 3 }));
    const { client, lines } = makeClient(server.url, { env: { HTTP_PROXY: p.url } });
    try {
      for (const n of [1, 2, 3]) expect((await client.request({ method: 'GET', path: '/crm/accounts' })).body).toEqual({ n });
    } finally {
      client.close();
    }
    expect(p.connects).toHaveLength(1);
    expect(server.requests.slice(-3).map((r) => r.url)).toEqual(['/api/v1/crm/accounts', '/api/v1/crm/accounts', '/api/v1/crm/accounts']);
    expect(lines.filter((l) => l.includes('through the proxy'))).toHaveLength(1);
  });

  it('requests sent at once share the one proxy agent: one trace line names the proxy, every answer arrives', async () => {
    const p = await proxy();
    server.script(reply.json(200, { n: 1 }), reply.json(200, { n: 1 }), reply.json(200, { n: 1 }));
    const { client, lines } = makeClient(server.url, { env: { HTTP_PROXY: p.url } });
    try {
      const answers = await Promise.all([1, 2, 3].map(() => client.request({ method: 'GET', path: '/crm/accounts' })));
      expect(answers.map((a) => a.body)).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    } finally {
      client.close();
    }
    expect(lines.filter((l) => l.includes('through the proxy'))).toEqual([`* through the proxy ${p.url} (HTTP_PROXY)`]);
    expect(p.connects.length).toBeGreaterThanOrEqual(1);
  });

  it('the response cap: an answer over it is dropped', async () => {
    const p = await proxy();
    server.script(reply.json(200, { big: 'x'.repeat(2 * 1024 * 1024) }));
    const { client } = makeClient(server.url, { env: { HTTP_PROXY: p.url }, maxResponseBytes: 1024 * 1024 });
    try {
      const err = await rejectionOf(client.request({ method: 'GET', path: '/crm/accounts' }));
      expect(err.code).toBe('too_large');
      expect(err.message).toBe(`GET ${server.url}/api/v1/crm/accounts: the answer is larger than 1 MB, more than bo accepts for one response`);
    } finally {
      client.close();
    }
    expect(p.connects).toHaveLength(1);
  });

  it('a client closed while its tunnel is being set up leaves nothing open', async () => {
    // A proxy that accepts the connection and never answers the CONNECT.
    const net = await import('node:net');
    const held: import('node:net').Socket[] = [];
    let closed = 0;
    const silent = net.createServer((s) => {
      held.push(s);
      s.resume();
      s.on('close', () => closed++);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const { client } = makeClient(server.url, { env: { HTTP_PROXY: `http://127.0.0.1:${port}` }, timeoutMs: 200, maxRetries: 0 });
    const err = await rejectionOf(client.request({ method: 'GET', path: '/crm/accounts' }));
    expect(err.code).toBe('timeout');
    client.close();
    // The close reaches the proxy's socket a moment later: wait for it (bounded), then check.
    for (const until = Date.now() + 10_000; closed === 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held).toHaveLength(1);
    expect(closed).toBe(1);
    for (const s of held) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
