// The sandbox's answer to one request, whatever carried it (server.ts: a node:http
// server, or the client in the same process): transport rules (body limits, content
// types, D6 errors), auth (D1, D2, D4), one store transaction per request, and the
// activity log. A request comes as plain values; the answer goes back as its status,
// headers and body text.

import { parseJson as parseJsonText } from '../api/json-parse.js';
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

const ROUTES: Route[] = [...tokenRoutes, ...crmRoutes, ...billingRoutes, ...emailRoutes, ...supportRoutes, ...adminRoutes];

/** A request as the sandbox reads it: what a node:http server would have parsed. */
export interface SandboxRequest {
  method: string;
  /** The request-target: path and query, as written. */
  target: string;
  /** Lower-cased names. */
  headers: Record<string, string | undefined>;
  body: Buffer;
  /** Who is calling, for the per-client rate limits (D10). */
  clientKey: string;
}

/** A response as the sandbox writes it. */
export interface SandboxAnswer {
  status: number;
  /** The reason phrase node:http would send with `status`. */
  statusText: string;
  headers: Record<string, string>;
  /** UTF-8; empty for a response without a body. */
  text: string;
}

export function errorBody(code: string, description: string): Record<string, unknown> {
  return { error: code, error_description: description };
}

/** Reason phrases of the statuses the sandbox sends, as node:http sends them. */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
  429: 'Too Many Requests', 500: 'Internal Server Error',
};

/** A reply as it goes out: JSON text with its type and length, or no body. */
export function plainAnswer(reply: Omit<Reply, 'body'> & { body?: unknown }): SandboxAnswer {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  const statusText = REASON_PHRASES[reply.status] ?? '';
  if (reply.body === undefined) return { status: reply.status, statusText, headers, text: '' };
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  return { status: reply.status, statusText, headers, text };
}

/** The answer when answering failed past the routes (the store): 500, saying why. */
export function failedAnswer(err: unknown): SandboxAnswer {
  return plainAnswer({ status: 500, body: errorBody('server_error', String((err as Error)?.message ?? err)) });
}

export type BodyResult = { ok: true; text: string } | { ok: false; reply: Reply };

export function tooLarge(): BodyResult {
  return { ok: false, reply: { status: 413, body: errorBody('payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`) } };
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

function parseJson(contentType: string | undefined, text: string): { body: unknown } | Reply {
  if (text.length === 0) return { body: undefined };
  const type = String(contentType ?? '');
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return { status: 415, body: errorBody('unsupported_media_type', `a request body must be application/json, got ${type === '' ? 'no Content-Type' : JSON.stringify(type)}`) };
  }
  try {
    return { body: parseJsonText(text) };
  } catch (err) {
    return { status: 400, body: { ...errorBody('validation_failed', `malformed JSON body: ${(err as Error).message}`), errors: [{ field: 'body', message: 'malformed JSON' }] } };
  }
}

export async function answer(req: SandboxRequest, body: BodyResult, store: Store, info: ServerInfo, onEmail?: (m: Mail) => void): Promise<SandboxAnswer> {
  // The request-target is a path, taken as written: resolved against a base, "//x/…"
  // would name a host (and an absolute-form "http://x/…" another server).
  const target = req.target;
  const url = new URL(`http://sandbox.invalid${target.startsWith('/') ? target : `/${target}`}`);
  const method = req.method.toUpperCase();
  const path = url.pathname;
  // §1/§7 301: behind a TLS proxy a plain-HTTP request is redirected. The sandbox itself
  // speaks HTTP on loopback (D3), so it redirects only a request a proxy marked as http.
  if (req.headers['x-forwarded-proto'] === 'http') {
    const location = `https://${req.headers.host ?? 'localhost'}${target}`;
    return { status: 301, statusText: REASON_PHRASES[301]!, headers: { location, 'content-length': '0' }, text: '' };
  }
  const logged = path.startsWith('/api/v1/') && url.searchParams.get('donotlog') !== '1';

  // Routing and body-size refusals come first; a malformed body is reported only to
  // a caller who passed authentication.
  const early = ((): Reply | { route: Route; params: Record<string, string>; parsed: { body: unknown } | Reply } => {
    if (!body.ok) return body.reply;
    const found = findRoute(method, path);
    if (!('route' in found)) return found;
    return { ...found, parsed: parseJson(req.headers['content-type'], body.text) };
  })();

  const clientKey = req.clientKey;
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
    return plainAnswer({ ...reply, body: await store.read((db) => build(db)) });
  }
  return plainAnswer(reply);
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
