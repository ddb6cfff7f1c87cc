// `bo auth status --verify` against a JWK set served over real HTTP on loopback.
// src/api/connect.ts is still a placeholder on this branch, so it is replaced here by
// a minimal client that honours `root` and records what was asked; the JWKS fetch,
// the signature check and the output are the real ones.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { makeKey, signJwt } from '../../helpers/sign-jwt.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';
import type { RequestOptions } from '../../../src/api/http-types.js';
import type { ApiOptions } from '../../../src/context.js';

const calls: Array<{ api: ApiOptions | undefined; request: RequestOptions }> = [];
vi.mock('../../../src/api/connect.js', () => ({
  connect: async (ctx: { globals: { baseUrl?: string } }, api?: ApiOptions) => ({
    baseUrl: ctx.globals.baseUrl!,
    close() {},
    async request(request: RequestOptions) {
      calls.push({ api, request });
      const res = await fetch(`${ctx.globals.baseUrl}${request.root ? '' : '/api/v1'}${request.path}`);
      return { status: res.status, headers: {}, body: await res.json() };
    },
  }),
}));

const key = makeKey('live');
const stranger = makeKey('live'); // same kid, different key: a forged token
const claims = { PersonUid: 'p-7', AccountUid: 'a-7', exp: 1_900_000_000 };
const clock = { now: () => new Date('2026-01-01T00:00:00Z'), sleep: async () => undefined };

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [key.jwk] }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bo auth status --verify', () => {
  it('a token signed by the tenant key: valid, fetched anonymously from the root', async () => {
    calls.length = 0;
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: signJwt(claims, key) } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify'], { env: t.env, credentials: store, clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Signature\tvalid (key live)\n');
    expect(calls).toEqual([
      { api: { anonymous: true }, request: { method: 'GET', path: '/.well-known/jwks.json', root: true, anonymous: true } },
    ]);
  });

  it('a forged token: status printed, then exit 4 naming the key set', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: signJwt(claims, stranger) } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify', '--json'], { env: t.env, credentials: store, clock });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ signature: 'invalid: the signature does not match key "live"' });
    expect(r.stderr).toContain(`error: the token signature does not verify against ${baseUrl}/.well-known/jwks.json`);
  });

  it('an API key: nothing to verify, said on stderr, exit 0, no request', async () => {
    calls.length = 0;
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'apiKey', key: 'k', secret: 's' } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify'], { env: t.env, credentials: store, clock });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--verify checks token signatures');
    expect(calls).toEqual([]);
  });
});
