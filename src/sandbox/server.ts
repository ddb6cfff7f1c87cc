// The sandbox's carriers: a node:http server (`bo sandbox serve`, the tests), or
// nothing at all, the client handing each request over in the same process
// (`bo --sandbox`). What a request gets back is answer.ts's.

import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, failedAnswer, MAX_BODY_BYTES, tooLarge, type BodyResult, type SandboxAnswer, type SandboxRequest } from './answer.js';
import type { ServerInfo } from './router.js';
import type { Mail } from './state.js';
import type { Store } from './store.js';

export interface SandboxOptions {
  store: Store;
  host?: string;
  port?: number;
  /** D1 scheme word, matched case-insensitively. */
  apiKeyScheme?: string;
  /** `iss` of issued tokens; defaults to the server URL. */
  issuer?: string;
  /** Receives each email as it is "sent" (serve prints them). */
  onEmail?: (mail: Mail) => void;
  /** PEM certificate chain and key: serve https instead of http (`sandbox serve --tls-cert`). */
  tls?: { cert: string; key: string };
}

export interface Sandbox {
  url: string;
  port: number;
  store: Store;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const { host = '127.0.0.1', port = 0 } = options;
  const info = await prepare(options, true);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res, options.store, info, options.onEmail).catch((err) => {
      if (!res.headersSent) write(res, failedAnswer(err));
      else res.destroy();
    });
  };
  // https only when asked.
  const server: HttpServer = options.tls
    ? (await import('node:https')).createServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : (await import('node:http')).createServer(handler);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  info.url = `${options.tls ? 'https' : 'http'}://${hostPart}:${address.port}`;
  if (!info.issuer) info.issuer = info.url;
  return {
    url: info.url,
    port: address.port,
    store: options.store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface InProcessSandbox {
  /** The base URL requests name; no socket is ever opened for it. */
  url: string;
  store: Store;
  answer(request: SandboxRequest): Promise<SandboxAnswer>;
  close(): Promise<void>;
}

/**
 * The same sandbox without a server: `bo --sandbox` hands it each request as values and
 * takes the answer back (src/api/http-attempt.ts directExchange), in this process. An
 * HTTP server and client talking over an in-memory connection cost ~10 ms of a `bo
 * --sandbox accounts list` (loading node:http's server and client, then framing and
 * parsing each request and answer twice; measured on Node 20); a loopback server,
 * ~5 ms more and two sockets.
 */
export async function openInProcessSandbox(options: Omit<SandboxOptions, 'host' | 'port' | 'tls'> & { url: string }): Promise<InProcessSandbox> {
  const info = await prepare(options, false);
  info.url = options.url;
  if (!info.issuer) info.issuer = info.url;
  return {
    url: info.url,
    store: options.store,
    async answer(request) {
      const size = request.body.length;
      const body: BodyResult = size > MAX_BODY_BYTES ? tooLarge() : { ok: true, text: request.body.toString('utf8') };
      // As the server does: the store failing (a lock never freed, a state file edited
      // by hand) is a 500 that says why, not a broken connection.
      return answer(request, body, options.store, info, options.onEmail).catch(failedAnswer);
    },
    async close() {},
  };
}

/** What the routes see, before any request. */
async function prepare(options: SandboxOptions, warm: boolean): Promise<ServerInfo> {
  const { store } = options;
  const info: ServerInfo = { url: '', issuer: options.issuer ?? '', apiKeyScheme: options.apiKeyScheme ?? 'bo', reseed: () => store.seeded() };
  // Accounts are the big list (100,000 with --accounts): a server indexes them before
  // the first request. Not in process: that serves one command, which may not need them.
  if (warm) await store.read((db) => db.warm('Account'));
  return info;
}

function write(res: ServerResponse, answer: SandboxAnswer): void {
  res.writeHead(answer.status, answer.headers).end(answer.text === '' ? undefined : answer.text);
}

/** Reads the whole body; past the limit it keeps draining (so the client sees the 413) but stops storing. */
function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? tooLarge() : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** A request that came over node:http: read, answered, written back. */
async function handle(req: IncomingMessage, res: ServerResponse, store: Store, info: ServerInfo, onEmail?: (m: Mail) => void): Promise<void> {
  const request: SandboxRequest = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    headers: req.headers as Record<string, string | undefined>,
    body: Buffer.alloc(0),
    clientKey: req.socket.remoteAddress ?? 'unknown',
  };
  // §1/§7 301 (answer): no body to read.
  if (req.headers['x-forwarded-proto'] === 'http') req.resume();
  const body = req.headers['x-forwarded-proto'] === 'http' ? ({ ok: true, text: '' } as const) : await readBody(req);
  const answered = await answer(request, body, store, info, onEmail);
  // D37: the Date header follows the sandbox's clock (/__sandbox/clock), so a clock-skew check can be tried.
  res.setHeader('date', store.now().toUTCString());
  write(res, answered);
}
