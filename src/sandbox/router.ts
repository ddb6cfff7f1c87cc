// The routing table's types and matcher. Each routes/<area>.ts exports a list of
// routes; answer.ts owns transport rules, auth and the transaction around a handler.

import type { Db } from './db.js';
import { render } from './render.js';
import type { Kind } from './schema.js';
import type { State } from './state.js';
import type { Tx } from './tx.js';

export type AuthMode =
  /** API key (D1) or bearer token (D2); else 401. */
  | 'required'
  /** D4: sent with no Authorization header; one present is a 400. */
  | 'none'
  /** /tokens and /.well-known: any Authorization header is ignored. */
  | 'ignored'
  /** /__sandbox: no auth, never in the activity log. */
  | 'admin';

export interface RouteRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON, or undefined when the request had no body. */
  body: unknown;
  /** The caller's address (the D10 rate limit is per client). */
  clientKey: string;
  server: ServerInfo;
}

export interface ServerInfo {
  url: string;
  /** `iss` of issued tokens (D5); the URL unless the embedded sandbox pins it. */
  issuer: string;
  apiKeyScheme: string;
  /** A freshly seeded state with the store's seed params (POST /__sandbox/reset). */
  reseed: () => State;
}

export interface Reply {
  status: number;
  /** JSON-encoded; undefined sends no body. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: RouteRequest, tx: Tx) => Reply;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** e.g. '/api/v1/crm/accounts/:accountUid/extend-trial'; a trailing '/*' takes the rest as `params['*']`. */
  pattern: string;
  auth: AuthMode;
  handler: Handler;
}

export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*') {
      params['*'] = got.slice(i).join('/');
      return params;
    }
    const g = got[i];
    if (g === undefined) return undefined;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return want.length === got.length ? params : undefined;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });

/**
 * A response body computed after the request's writes are committed, so a record
 * that points at another new record (a new Person in a subscription) renders whole.
 */
export class Deferred {
  constructor(readonly build: (db: Db) => unknown) {}
}

/** The committed record rendered per D16 (default depth). */
export function rendered(kind: Kind, uid: string, edit?: (body: Record<string, unknown>) => void): Deferred {
  return new Deferred((db) => {
    const rec = db.get(kind, uid);
    if (!rec) return null;
    const body = render(db, kind, rec);
    edit?.(body);
    return body;
  });
}
