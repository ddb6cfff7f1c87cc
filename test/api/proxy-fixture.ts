// A small CONNECT proxy on loopback for the proxy tests. It records each CONNECT (the
// target and the headers the proxy itself received) and every byte it relays from the
// client, so a test can show what a proxy can see. Like a real proxy it resolves the
// target itself: every host name is reached on 127.0.0.1 at the port asked for.
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

export interface SeenConnect {
  /** The request target of the CONNECT line, e.g. "127.0.0.1:4443". */
  target: string;
  headers: http.IncomingHttpHeaders;
}

export interface ConnectProxy {
  url: string;
  port: number;
  connects: SeenConnect[];
  /** Requests that were not CONNECT (a client sending its request to the proxy in clear). */
  plain: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** Every byte relayed from the client to the target, as latin1 text. */
  relayed(): string;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** "user:password" the proxy demands in Proxy-Authorization (407 otherwise). */
  auth?: string;
  /** The status for a missing or wrong Proxy-Authorization: 407, or 401 as tinyproxy answers. */
  challenge?: 401 | 407;
  /** The reason phrase of that answer, instead of the standard one. */
  reason?: string;
  /** Answer every CONNECT with this status instead of tunnelling. */
  refuse?: number;
  /** An https:// proxy (the test certificate): the client speaks TLS to the proxy too. */
  tls?: boolean;
}

export async function startConnectProxy(options: ProxyOptions = {}): Promise<ConnectProxy> {
  const connects: SeenConnect[] = [];
  const plain: ConnectProxy['plain'] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const onPlain = (req: http.IncomingMessage, res: http.ServerResponse) => {
    plain.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('this proxy only tunnels');
  };
  const server = options.tls ? https.createServer({ key: TEST_KEY, cert: TEST_CERT }, onPlain) : http.createServer(onPlain);
  server.on(options.tls ? 'secureConnection' : 'connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    connects.push({ target: req.url ?? '', headers: req.headers });
    client.on('error', () => {});
    const expected = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : undefined;
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end(
        options.challenge === 401
          ? `HTTP/1.0 401 ${options.reason ?? 'Unauthorized'}\r\nWWW-Authenticate: Basic realm="tinyproxy"\r\nContent-Length: 0\r\n\r\n`
          : `HTTP/1.1 407 ${options.reason ?? 'Proxy Authentication Required'}\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    if (options.refuse) {
      client.end(`HTTP/1.1 ${options.refuse} ${http.STATUS_CODES[options.refuse]}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const port = Number(/:(\d+)$/.exec(req.url ?? '')?.[1]);
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        chunks.push(head);
        upstream.write(head);
      }
      client.on('data', (d: Buffer) => chunks.push(d));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    connects,
    plain,
    relayed: () => Buffer.concat(chunks).toString('latin1'),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on loopback where nothing listens. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
