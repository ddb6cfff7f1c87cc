// Certificate checks with node:tls's documented parts only (src/api/verified-tls.ts):
// the connection is refused after node:tls's own check failed, and the server then
// receives not one byte of a request — against a raw TLS server that counts what it
// decrypts, directly, through a CONNECT proxy, and for `bo login`'s handshake alone.
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { handshake } from '../../src/api/handshake.js';
import { ConnectionFailure } from '../../src/api/http-attempt.js';
import { peerOf } from '../../src/api/verified-tls.js';
import { TOKEN, makeClient, rejectionOf } from './client-fixture.js';
import { startConnectProxy } from './proxy-fixture.js';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}';
const trusting = () => tls.createSecureContext({ ca: [...tls.rootCertificates, TEST_CERT] });

interface RawTls {
  url: string;
  port: number;
  /** TCP connections the server accepted. */
  connections: number;
  /** What it decrypted from clients, all connections together. */
  received(): string;
  close(): Promise<void>;
}

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A TLS server with the test certificate that answers any request with 200 {"ok":true}. */
async function rawTls(host = '127.0.0.1'): Promise<RawTls> {
  let text = '';
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: TEST_KEY, cert: TEST_CERT }, (socket) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) socket.end(OK);
    });
    socket.on('error', () => {});
  });
  server.on('connection', (s: net.Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const state: RawTls = {
    url: `https://${host}:${port}`,
    port,
    connections: 0,
    received: () => text,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  closers.push(state.close);
  return state;
}

function client(baseUrl: string, overrides: Parameters<typeof makeClient>[1] = {}) {
  const fixture = makeClient(baseUrl, overrides);
  closers.push(() => fixture.client.close());
  return fixture;
}

describe('a certificate node:tls does not verify', () => {
  it('is refused after the handshake, naming it, and the server receives no byte of the request', async () => {
    const server = await rawTls();
    const { client: c, lines, waits } = client(server.url);
    const err = await rejectionOf(c.request({ method: 'POST', path: '/email/lists', body: { Name: 'x' } }));
    expect(err.message).toBe(`could not connect to ${server.url}: the TLS certificate is self-signed`);
    expect(err.exitCode).toBe(1);
    expect(server.connections).toBe(1);
    expect(server.received()).toBe('');
    expect(lines).toContain("* the server's certificate: subject CN=localhost, issued by CN=localhost");
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(waits).toEqual([]);
  });

  it('is refused with NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment too', async () => {
    const server = await rawTls();
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    closers.push(() => (before === undefined ? delete process.env.NODE_TLS_REJECT_UNAUTHORIZED : (process.env.NODE_TLS_REJECT_UNAUTHORIZED = before)));
    const err = await rejectionOf(client(server.url).client.request({ method: 'GET', path: '/crm/accounts' }));
    expect(err.message).toBe(`could not connect to ${server.url}: the TLS certificate is self-signed`);
    expect(server.received()).toBe('');
  });

  it('is refused inside a proxy\'s tunnel: neither the server nor the proxy sees the request', async () => {
    const server = await rawTls();
    const proxy = await startConnectProxy();
    closers.push(() => proxy.close());
    const { client: c, lines } = client(server.url, { env: { HTTPS_PROXY: proxy.url } });
    const err = await rejectionOf(c.request({ method: 'GET', path: '/crm/accounts' }));
    expect(err.message).toBe(`could not connect to ${server.url}: the TLS certificate is self-signed`);
    expect(proxy.connects.map((x) => x.target)).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.connections).toBe(1);
    expect(server.received()).toBe('');
    expect(proxy.relayed()).not.toContain(TOKEN);
    expect(lines).toContain("* the server's certificate: subject CN=localhost, issued by CN=localhost");
  });

  it('fails `bo login`\'s handshake with the certificate named', async () => {
    const server = await rawTls();
    const err = await rejectionOf(handshake(new URL(server.url), { timeoutMs: 10_000 }));
    expect(err).toBeInstanceOf(ConnectionFailure);
    expect(err.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(peerOf(err.cause)).toBe('subject CN=localhost, issued by CN=localhost');
  });
});

describe('a certificate node:tls verifies', () => {
  it('carries the request, directly and through a proxy, and the handshake succeeds', async () => {
    const server = await rawTls();
    const direct = await client(server.url, { secureContext: trusting() }).client.request({ method: 'GET', path: '/crm/accounts' });
    expect(direct.body).toEqual({ ok: true });
    expect(server.received()).toMatch(/^GET \/api\/v1\/crm\/accounts HTTP\/1\.1\r\n/);
    expect(server.received()).toContain(`authorization: bearer ${TOKEN}`);
    const proxy = await startConnectProxy();
    closers.push(() => proxy.close());
    const tunnelled = await client(server.url, { secureContext: trusting(), env: { HTTPS_PROXY: proxy.url } }).client.request({ method: 'GET', path: '/crm/people' });
    expect(tunnelled.body).toEqual({ ok: true });
    expect(server.received()).toContain('GET /api/v1/crm/people HTTP/1.1\r\n');
    await expect(handshake(new URL(server.url), { timeoutMs: 10_000, secureContext: trusting() })).resolves.toBeUndefined();
  });

  it('still checks the host name: the same certificate at a name it does not hold is refused', async () => {
    // 127.0.0.2 is loopback too (Linux); the certificate names 127.0.0.1 and localhost only.
    const server = await rawTls('127.0.0.2');
    const url = server.url;
    const err = await rejectionOf(client(url, { secureContext: trusting() }).client.request({ method: 'GET', path: '/crm/accounts' }));
    expect(server.connections).toBe(1);
    expect(err.message).toBe(`could not connect to ${url}: the TLS certificate does not match the host name`);
    expect(server.received()).toBe('');
  });
});

describe('a connection still being made', () => {
  it('is closed with the client: a server that never finishes the handshake is not left holding it', async () => {
    const held = new Set<net.Socket>();
    let closedByClient = 0;
    const server = net.createServer((s) => {
      s.resume(); // reads, so the client's close is seen
      held.add(s);
      s.on('close', () => closedByClient++);
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    closers.push(() => held.forEach((s) => s.destroy()));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stop = new AbortController();
    const { client: c } = makeClient(url, { timeoutMs: 600_000, signal: stop.signal });
    const pending = rejectionOf(c.request({ method: 'GET', path: '/crm/accounts' }));
    while (held.size === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Ctrl-C: the request ends at once; the connection it was waiting for is still open.
    stop.abort();
    expect((await pending).exitCode).toBe(130);
    expect(closedByClient).toBe(0);
    // The run's end closes the client, and with it the connection.
    c.close();
    while (closedByClient === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(held.size).toBe(1);
  });
});
