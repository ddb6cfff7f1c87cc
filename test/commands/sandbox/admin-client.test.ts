// `bo sandbox users|fixtures|outbox|reset` go through the one HTTP client (the built
// binary): a served sandbox is reached through the proxy in effect, with bo's
// User-Agent and no credential; a redirect is refused, not followed; a TLS failure is
// named; the embedded sandbox is answered in process, with no socket at all.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { binPath, runBin } from '../../helpers/run-bin.js';
import { hasStrace } from '../../helpers/strace.js';
import { startConnectProxy } from '../../api/proxy-fixture.js';
import { TEST_CERT, TEST_KEY } from '../../api/tls-fixture.js';
import { VERSION } from '../../../src/version.js';

const USER_AGENT = `bo/${VERSION} node/${process.versions.node}`;
const FIXTURES = { users: [{ kind: 'plain', username: 'demo', password: 'pw', totpSecret: null, recoveryCodes: [] }] };

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

const stop: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of stop.splice(0)) await close();
});

/** A server that answers `/__sandbox/fixtures` like a sandbox, and 302 everything else to it. */
async function fakeSandbox(tls: boolean) {
  const seen: Seen[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/__sandbox/fixtures') {
      res.writeHead(302, { location: '/__sandbox/fixtures' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(FIXTURES));
  };
  const server = tls ? https.createServer({ key: TEST_KEY, cert: TEST_CERT }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  stop.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { seen, port, url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}` };
}

/** A fresh config, trusting the test certificate when asked (NODE_EXTRA_CA_CERTS). */
function env(trust = false): Record<string, string> {
  const cfg = tempConfig();
  if (!trust) return cfg.env as Record<string, string>;
  const ca = join(cfg.root, 'ca.pem');
  writeFileSync(ca, TEST_CERT.slice(0, TEST_CERT.indexOf('-----END CERTIFICATE-----') + 26));
  return { ...(cfg.env as Record<string, string>), NODE_EXTRA_CA_CERTS: ca };
}

describe('a served sandbox, over the network', () => {
  it('goes through HTTPS_PROXY with CONNECT, says it is bo, sends no credential', async () => {
    const server = await fakeSandbox(true);
    const proxy = await startConnectProxy();
    stop.push(proxy.close);
    const r = await runBin(['--base-url', server.url, '--json', 'sandbox', 'users'], {
      env: { ...env(true), HTTPS_PROXY: proxy.url, BO_TOKEN: 'not-to-be-sent' },
    });
    expect(r.stderr).toBe(`Using the sandbox at ${server.url}.\n`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(FIXTURES.users);
    expect(proxy.connects.map((c) => c.target)).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.url).toMatch(/^\/__sandbox\/fixtures(\?|$)/);
    expect(server.seen[0]!.headers['user-agent']).toBe(USER_AGENT);
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('does not follow a redirect: exit 1, the target named, one request', async () => {
    const server = await fakeSandbox(false);
    const r = await runBin(['--base-url', `${server.url}/moved`, 'sandbox', 'reset'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Using the sandbox at ${server.url}/moved.\n` +
        `error: 302 Found: the server redirects to ${server.url}/__sandbox/fixtures; bo does not follow redirects\n` +
        'hint: check the base URL (--base-url or bo config set base-url).\n',
    );
    expect(server.seen.map((s) => `${s.method} ${new URL(s.url, 'http://x').pathname}`)).toEqual(['POST /moved/__sandbox/reset']);
    expect(server.seen[0]!.headers['user-agent']).toBe(USER_AGENT);
  });

  it('names a TLS failure, and sends nothing', async () => {
    const server = await fakeSandbox(true);
    const r = await runBin(['--base-url', server.url, 'sandbox', 'fixtures'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[1]).toBe(`error: cannot reach the sandbox at ${server.url}: the TLS certificate is self-signed`);
    expect(server.seen).toEqual([]);
  });
});

describe.skipIf(!hasStrace)('the embedded sandbox, traced', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-admin-strace-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['bo --sandbox sandbox users', ['--sandbox', 'sandbox', 'users']],
    ['bo sandbox users', ['sandbox', 'users']],
    ['bo sandbox reset', ['sandbox', 'reset']],
  ])('%s opens no network socket: nothing binds, listens or connects', (name, argv) => {
    const log = join(dir, `${name.replaceAll(' ', '-')}.strace`);
    const childEnv = { PATH: process.env.PATH ?? '', HOME: dir, BO_CONFIG_DIR: join(dir, 'cfg'), BO_DATA_DIR: join(dir, 'data') };
    const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=socket,bind,listen,connect', '-o', log, process.execPath, binPath, ...argv], { env: childEnv, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Using the embedded sandbox \(/);
    const calls = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
    expect(calls.filter((l) => /AF_INET|listen\(|bind\(/.test(l))).toEqual([]);
  });
});
