// startTestSandbox(): a fresh in-memory sandbox on 127.0.0.1:0 for one test file, with
// its fixtures and small intent-named helpers to call it over real HTTP.
//
//   const sb = await startTestSandbox();
//   const r = await sb.api('GET', '/crm/accounts?limit=5');   // API key auth (D1)
//   expect(r.status).toBe(200);
//   await sb.close();

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { seedState, DEFAULT_ACCOUNTS } from '../../src/sandbox/seed.js';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { Store } from '../../src/sandbox/store.js';
import type { Mail, ActivityEntry, SeedFixtures } from '../../src/sandbox/state.js';

/** GET /__sandbox/fixtures (DECISIONS.md "Sandbox-only endpoints"). */
export interface Fixtures extends SeedFixtures {
  apiKey: { scheme: string; key: string; secret: string };
  users: Array<{ username: string; password: string; kind: string; totpSecret: string | null; recoveryCodes: string[] }>;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON, or undefined when empty. */
  body: T;
}

export interface RequestInit {
  /** Sent as JSON; a string is sent as is (with `contentType`). */
  body?: unknown;
  /** The Authorization header; default the API key. `null` sends none. */
  authorization?: string | null;
  contentType?: string;
}

export interface TestSandbox {
  url: string;
  fixtures: Fixtures;
  /** `Authorization` value for the seeded API key (D1). */
  apiKeyHeader: string;
  /** A request under /api/v1 with the API key unless `authorization` says otherwise. */
  api<T = any>(method: string, path: string, init?: RequestInit): Promise<HttpResult<T>>;
  /** A request to any path (/__sandbox/…, /.well-known/…), no auth unless given. */
  raw<T = any>(method: string, path: string, init?: RequestInit): Promise<HttpResult<T>>;
  /** GET /__sandbox/records/<Kind>/<Uid>: what the server stored (null when absent). */
  record<T = any>(kind: string, uid: string): Promise<T | null>;
  outbox(): Promise<Mail[]>;
  activity(): Promise<ActivityEntry[]>;
  advanceClock(seconds: number): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSandbox(
  options: { seed?: number; accounts?: number; store?: Store } & Pick<SandboxOptions, 'apiKeyScheme' | 'onEmail'> = {},
): Promise<TestSandbox> {
  const store = options.store ?? Store.memory({ seed: options.seed ?? 1, accounts: options.accounts ?? DEFAULT_ACCOUNTS }, seedState);
  const server = await startSandbox({ store, apiKeyScheme: options.apiKeyScheme, onEmail: options.onEmail });
  const url = server.url;

  const raw = async (method: string, path: string, init: RequestInit = {}): Promise<HttpResult> => {
    const headers: Record<string, string> = {};
    if (init.authorization) headers.authorization = init.authorization;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] = init.contentType ?? 'application/json';
    } else if (init.contentType) headers['content-type'] = init.contentType;
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text === '' ? undefined : text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed };
  };

  const fixtures = (await raw('GET', '/__sandbox/fixtures')).body as Fixtures;
  const apiKeyHeader = `${fixtures.apiKey.scheme} ${fixtures.apiKey.key}:${fixtures.apiKey.secret}`;
  return {
    url,
    fixtures,
    apiKeyHeader,
    raw,
    api: (method, path, init = {}) =>
      raw(method, `/api/v1${path}`, { ...init, authorization: init.authorization === undefined ? apiKeyHeader : init.authorization }),
    record: async (kind, uid) => {
      const r = await raw('GET', `/__sandbox/records/${kind}/${encodeURIComponent(uid)}`);
      return r.status === 404 ? null : r.body;
    },
    outbox: async () => (await raw('GET', '/__sandbox/outbox')).body,
    activity: async () => (await raw('GET', '/__sandbox/activity')).body,
    advanceClock: async (seconds) => {
      const r = await raw('POST', '/__sandbox/clock', { body: { advanceSeconds: seconds } });
      if (r.status !== 200) throw new Error(`clock: ${r.status}`);
    },
    reset: async () => {
      const r = await raw('POST', '/__sandbox/reset');
      if (r.status !== 200) throw new Error(`reset: ${r.status}`);
    },
    close: () => server.close(),
  };
}

/** An in-process sandbox and a temporary folder for a suite's tests: made before them, removed after. */
export function sandboxAndFolderForSuite(prefix: string): { readonly sb: TestSandbox; readonly dir: string } {
  let sb: TestSandbox | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await sb?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite has not started');
    return value;
  };
  return {
    get sb() {
      return started(sb);
    },
    get dir() {
      return started(dir);
    },
  };
}
