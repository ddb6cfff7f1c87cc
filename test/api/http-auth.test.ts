// What the server receives: URL, auth header (D1, D2, D4), JSON, donotlog; and the
// https and redirect policy of D3.
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/api/http.js';
import { validateBaseUrl } from '../../src/api/base-url.js';
import { ApiError, BoError, UsageError } from '../../src/errors.js';
import { VERSION } from '../../src/version.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { TOKEN, makeClient, rejectionOf } from './client-fixture.js';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

let server: FaultServer;
let other: FaultServer;
const closers: Array<() => void> = [];

beforeEach(async () => {
  server = await startFaultServer();
  other = await startFaultServer();
});
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await server.close();
  await other.close();
});

function client(overrides: Parameters<typeof makeClient>[1] = {}, baseUrl = server.url) {
  const fixture = makeClient(baseUrl, overrides);
  closers.push(() => fixture.client.close());
  return fixture.client;
}

describe('headers', () => {
  it('sends a token as "bearer <token>" (D2) with JSON accept and the user agent', async () => {
    server.script(reply.json(200, { ok: true }));
    const res = await client().request({ method: 'GET', path: '/crm/accounts' });
    expect(res.body).toEqual({ ok: true });
    const h = server.requests[0]!.headers;
    expect(h.authorization).toBe(`bearer ${TOKEN}`);
    expect(h.accept).toBe('application/json');
    expect(h['user-agent']).toBe(`bo/${VERSION} node/${process.versions.node}`);
    expect(h['content-type']).toBeUndefined();
  });

  it('sends an API key as "<scheme> <key>:<secret>" with the configured word (D1)', async () => {
    server.script(reply.json(200, {}), reply.json(200, {}));
    const credential = { kind: 'apiKey' as const, key: 'key-1', secret: 's3cr3t' };
    await client({ credential }).request({ method: 'GET', path: '/x' });
    await client({ credential, apiKeyScheme: 'acme' }).request({ method: 'GET', path: '/x' });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['bo key-1:s3cr3t', 'acme key-1:s3cr3t']);
  });

  it('sends no Authorization with anonymous: true (D4), nor without a credential', async () => {
    server.script(reply.json(200, {}), reply.json(200, {}));
    await client().request({ method: 'POST', path: '/crm/people/requestMagicLink', body: { Email: 'a@b.c' }, anonymous: true });
    await client({ credential: null }).request({ method: 'GET', path: '/x' });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('sends a body as JSON with its content type and length', async () => {
    server.script(reply.json(201, { Uid: 'L1' }));
    const res = await client().request({ method: 'POST', path: '/email/lists', body: { Name: 'Néws' } });
    expect(res.status).toBe(201);
    const r = server.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({ Name: 'Néws' });
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
  });
});

describe('URL', () => {
  it('joins base (trailing slash or not) + /api/v1 + path, and root paths without the prefix', async () => {
    server.script(reply.json(200, {}), reply.json(200, {}));
    await client({}, `${server.url}/`).request({ method: 'GET', path: '/crm/accounts' });
    await client().request({ method: 'GET', path: '/.well-known/jwks.json', root: true });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/crm/accounts', '/.well-known/jwks.json']);
  });

  it('keeps a path prefix of the base URL', async () => {
    server.script(reply.json(200, {}));
    await client({}, `${server.url}/tenant/`).request({ method: 'GET', path: '/email/lists' });
    expect(server.requests[0]!.url).toBe('/tenant/api/v1/email/lists');
  });

  it('builds the query: arrays repeat the key, undefined and null are dropped', async () => {
    server.script(reply.json(200, {}), reply.json(200, {}));
    await client().request({
      method: 'GET',
      path: '/crm/accounts',
      query: { q: 'a b&c', AccountStage: [2, 3], segmentUid: undefined, x: null, IsDemo: false },
    });
    await client().request({ method: 'GET', path: '/y', query: new URLSearchParams([['k', '1'], ['k', '2']]) });
    expect(server.requests[0]!.url).toBe('/api/v1/crm/accounts?q=a+b%26c&AccountStage=2&AccountStage=3&IsDemo=false');
    expect(server.requests[1]!.url).toBe('/api/v1/y?k=1&k=2');
  });

  it('adds donotlog=1 to every request with noLog', async () => {
    server.script(reply.json(200, {}), reply.json(200, {}));
    const c = client({ noLog: true });
    await c.request({ method: 'GET', path: '/crm/accounts', query: { limit: 5 } });
    await c.request({ method: 'PUT', path: '/z', body: {}, root: true });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/crm/accounts?limit=5&donotlog=1', '/z?donotlog=1']);
  });
});

describe('D3: https only, loopback may use http', () => {
  it.each(['http://example.com', 'http://10.0.0.1:8080', 'ftp://localhost'])('refuses %s with exit 2 naming the flag', (url) => {
    let err: unknown;
    try {
      createHttpClient({ baseUrl: url, credential: null, apiKeyScheme: 'bo', timeoutMs: 1000, maxRetries: 0, noLog: false, userAgent: 'bo-test' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    const u = err as UsageError;
    expect(u.exitCode).toBe(2);
    expect(u.message).toContain(url.replace(/\/$/, ''));
    expect(u.hint).toContain('--base-url');
    expect(u.hint).toContain('bo config set base-url');
  });

  it.each(['https://acme.example.com', 'https://acme.example.com/', 'http://localhost:4010', 'http://127.0.0.1', 'http://127.9.8.7:1', 'http://[::1]:8080'])(
    'accepts %s',
    (url) => {
      expect(validateBaseUrl(url).protocol).toMatch(/^https?:$/);
    },
  );

  it('refuses a base URL that is not a URL, or carries credentials', () => {
    expect(() => validateBaseUrl('acme.example.com')).toThrow(UsageError);
    expect(() => validateBaseUrl('https://user:pw@acme.example.com')).toThrow(/must not carry credentials/);
  });

  it('reports a 301 to https as an error naming the https base URL to configure', async () => {
    server.script(reply.redirect(301, `https://127.0.0.1:${server.port}/api/v1/crm/accounts`));
    const err = await rejectionOf(client().request({ method: 'GET', path: '/crm/accounts' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(1);
    expect(err.status).toBe(301);
    expect(err.message).toContain(`use the base URL https://127.0.0.1:${server.port}`);
    expect(err.hint).toContain(`bo config set base-url https://127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect to another origin: the credential never reaches it', async () => {
    server.script(reply.redirect(302, `${other.url}/steal?x=1`));
    const err = await rejectionOf(client().request({ method: 'GET', path: '/crm/accounts' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toContain(`redirects to ${other.url}/steal`);
    expect(err.exitCode).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('does not re-send a write to a same-origin redirect either', async () => {
    server.script(reply.redirect(307, '/api/v1/elsewhere'));
    const err = await rejectionOf(client().request({ method: 'POST', path: '/email/lists', body: { Name: 'x' } }));
    expect(err.message).toMatch(/^307 Temporary Redirect: the server redirects to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/elsewhere/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('https', () => {
  it('verifies the certificate: a self-signed one is refused before anything is sent, and not retried', async () => {
    const seen: string[] = [];
    const tls = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const port = (tls.address() as AddressInfo).port;
    const { client: c, waits } = makeClient(`https://127.0.0.1:${port}`);
    try {
      const err = await rejectionOf(c.request({ method: 'POST', path: '/email/lists', body: { Name: 'x' } }));
      expect(err).toBeInstanceOf(BoError);
      expect(err.exitCode).toBe(1);
      expect(err.message).toBe(`could not connect to https://127.0.0.1:${port}: the TLS certificate is self-signed`);
      expect(seen).toEqual([]);
      expect(waits).toEqual([]);
    } finally {
      c.close();
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
