// The sandbox over node:http: transport (body limits, content types, D6 errors),
// auth (D1, D2, D4), one store transaction per request, and the activity log.

import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { memorySocketPair, type MemorySocket } from './memory-socket.js';
import { verifyBearer } from './auth-slice.js';
import { HttpError } from './http-error.js';
import { Deferred, matchPath, type AuthMode, type Reply, type Route, type RouteRequest, type ServerInfo } from './router.js';
import { adminRoutes } from './routes/admin.js';
import { billingRoutes } from './routes/billing.js';
import { crmRoutes } from './routes/crm.js';
import { emailRoutes } from './routes/email.js';
import { supportRoutes } from './routes/support.js';
import { tokenRoutes } from './routes/tokens.js';
import type { Mail } from './state.js';
import type { Store } from './store.js';
import type { Tx } from './tx.js';

export const MAX_BODY_BYTES = 1024 * 1024;

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

const ROUTES: Route[] = [...tokenRoutes, ...crmRoutes, ...billingRoutes, ...emailRoutes, ...supportRoutes, ...adminRoutes];

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const { host = '127.0.0.1', port = 0 } = options;
  const { server, info } = await prepare(options);
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
  /** A new connection to the server, in memory (an http.Agent's createConnection). */
  connect(): Duplex;
  close(): Promise<void>;
}

/**
 * The same server, never listening: each connection is an in-memory socket pair whose
 * server end is handed to node:http as an accepted connection (memory-socket.ts). For
 * `bo --sandbox`, where client and server share the process: a loopback server loads
 * 13 more built-ins (net's listen path: cluster, child_process, dgram, dns…) and opens
 * two sockets; measured on Node 20, everything else the same, ~5 ms of wall and CPU
 * time of a `bo --sandbox accounts list` (~100 ms).
 */
export async function openInProcessSandbox(options: Omit<SandboxOptions, 'host' | 'port' | 'tls'> & { url: string }): Promise<InProcessSandbox> {
  const { server, info } = await prepare(options);
  info.url = options.url;
  if (!info.issuer) info.issuer = info.url;
  const open = new Set<MemorySocket>();
  return {
    url: info.url,
    store: options.store,
    connect() {
      const [client, end] = memorySocketPair();
      open.add(end);
      end.once('close', () => open.delete(end));
      server.emit('connection', end);
      return client;
    },
    async close() {
      for (const end of open) end.destroy();
    },
  };
}

/** The server and what its routes see, before it listens (or not). */
async function prepare(options: SandboxOptions): Promise<{ server: HttpServer; info: ServerInfo }> {
  const { store } = options;
  const info: ServerInfo = { url: '', issuer: options.issuer ?? '', apiKeyScheme: options.apiKeyScheme ?? 'bo', reseed: () => store.seeded() };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res, store, info, options.onEmail).catch((err) => {
      if (!res.headersSent) send(res, { status: 500, body: errorBody('server_error', String((err as Error)?.message ?? err)) });
      else res.destroy();
    });
  };
  // https only when asked: the embedded sandbox never loads the TLS stack.
  const server = options.tls
    ? (await import('node:https')).createServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : createServer(handler);
  server.keepAliveTimeout = 5_000;
  // Accounts are the big list (100,000 with --accounts): index them before the first request.
  await store.read((db) => db.warm('Account'));
  return { server, info };
}

function errorBody(code: string, description: string): Record<string, unknown> {
  return { error: code, error_description: description };
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers).end(text);
}

type BodyResult = { ok: true; text: string } | { ok: false; reply: Reply };

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
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        resolve({ ok: false, reply: { status: 413, body: errorBody('payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`) } });
      } else resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

function findRoute(method: string, path: string): { route: Route; params: Record<string, string> } | Reply {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  if (allowed.length > 0) {
    return { status: 405, headers: { allow: allowed.join(', ') }, body: errorBody('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(' or ')}`) };
  }
  return { status: 404, body: errorBody('not_found', `no such endpoint: ${method} ${path}`) };
}

function parseJson(req: IncomingMessage, text: string): { body: unknown } | Reply {
  if (text.length === 0) return { body: undefined };
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return { status: 415, body: errorBody('unsupported_media_type', `a request body must be application/json, got ${type === '' ? 'no Content-Type' : JSON.stringify(type)}`) };
  }
  try {
    return { body: JSON.parse(text) };
  } catch (err) {
    return { status: 400, body: { ...errorBody('validation_failed', `malformed JSON body: ${(err as Error).message}`), errors: [{ field: 'body', message: 'malformed JSON' }] } };
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, store: Store, info: ServerInfo, onEmail?: (m: Mail) => void): Promise<void> {
  // The request-target is a path, taken as written: resolved against a base, "//x/…"
  // would name a host (and an absolute-form "http://x/…" another server).
  const target = req.url ?? '/';
  const url = new URL(`http://sandbox.invalid${target.startsWith('/') ? target : `/${target}`}`);
  const method = (req.method ?? 'GET').toUpperCase();
  const path = url.pathname;
  // §1/§7 301: behind a TLS proxy a plain-HTTP request is redirected. The sandbox itself
  // speaks HTTP on loopback (D3), so it redirects only a request a proxy marked as http.
  if (req.headers['x-forwarded-proto'] === 'http') {
    req.resume();
    const location = `https://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    res.writeHead(301, { location, 'content-length': '0' }).end();
    return;
  }
  const logged = path.startsWith('/api/v1/') && url.searchParams.get('donotlog') !== '1';
  const body = await readBody(req);

  // Routing and body-size refusals come first; a malformed body is reported only to
  // a caller who passed authentication.
  const early = ((): Reply | { route: Route; params: Record<string, string>; parsed: { body: unknown } | Reply } => {
    if (!body.ok) return body.reply;
    const found = findRoute(method, path);
    if (!('route' in found)) return found;
    return { ...found, parsed: parseJson(req, body.text) };
  })();

  const clientKey = req.socket.remoteAddress ?? 'unknown';
  let mails: readonly Mail[] = [];
  const reply = await store.transact((tx) => {
    let result: Reply;
    let who: string | null = null;
    if ('status' in early) result = early;
    else {
      try {
        who = authenticate(early.route.auth, req.headers.authorization, tx, info);
        const parsed = early.parsed;
        if ('status' in parsed) result = parsed;
        else {
          const request: RouteRequest = { method, path, params: early.params, query: url.searchParams, body: parsed.body, clientKey, server: info };
          result = early.route.handler(request, tx);
        }
      } catch (err) {
        tx.discard();
        result = err instanceof HttpError
          ? { status: err.status, body: err.body(), headers: err.headers }
          : { status: 500, body: errorBody('server_error', `the sandbox failed: ${(err as Error)?.message ?? String(err)}`) };
      }
    }
    if (logged) tx.logActivity({ method, path, status: result.status, who, at: tx.now().toISOString() });
    mails = tx.mailsSent;
    return result;
  });
  for (const mail of mails) onEmail?.(mail);
  if (reply.body instanceof Deferred) {
    const build = reply.body.build;
    send(res, { ...reply, body: await store.read((db) => build(db)) });
  } else send(res, reply);
}

/** Checks the Authorization header for the route's mode; returns who is calling. */
function authenticate(mode: AuthMode, header: string | undefined, tx: Tx, info: ServerInfo): string | null {
  if (mode === 'admin' || mode === 'ignored') return null;
  if (mode === 'none') {
    if (header !== undefined) {
      throw new HttpError(400, 'validation_failed', 'this endpoint is called without an Authorization header; remove it', [
        { field: 'Authorization', message: 'must be absent' },
      ]);
    }
    return null;
  }
  const unauthorized = (why: string) =>
    new HttpError(401, 'unauthorized', why, undefined, { 'www-authenticate': `Bearer, ${info.apiKeyScheme}` });
  if (!header) throw unauthorized('authentication required: send an API key ("<scheme> <key>:<secret>") or a bearer token ("bearer <token>")');
  const m = /^(\S+)\s+(.+)$/.exec(header.trim());
  if (!m) throw unauthorized('malformed Authorization header');
  const scheme = m[1]!.toLowerCase();
  const value = m[2]!.trim();
  if (scheme === info.apiKeyScheme.toLowerCase()) {
    const colon = value.indexOf(':');
    const { key, secret } = tx.db.state.apiKey;
    if (colon > 0 && value.slice(0, colon) === key && value.slice(colon + 1) === secret) return `key:${key}`;
    throw unauthorized('invalid API key or secret');
  }
  if (scheme === 'bearer') {
    const claims = verifyBearer(tx.db.state.auth, value, { now: () => tx.now(), baseUrl: info.issuer });
    if (claims) return `person:${claims.personUid}`;
    throw unauthorized('invalid or expired access token');
  }
  throw unauthorized(`unknown authorization scheme "${m[1]}"; use "${info.apiKeyScheme} <key>:<secret>" or "bearer <token>"`);
}
