// `bo auth status --verify` over real HTTP on loopback: a token against a JWK set served
// by a small recording server, an API key against the sandbox (and a server that
// answers 403), and `--sandbox` against the embedded sandbox.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { makeKey, signJwt } from '../../helpers/sign-jwt.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';

const key = makeKey('live');
const stranger = makeKey('live'); // same kid, different key: a forged token
const claims = { PersonUid: 'p-7', AccountUid: 'a-7', exp: 1_900_000_000 };
const clock = { now: () => new Date('2026-01-01T00:00:00Z'), sleep: async () => undefined };

let server: Server;
let baseUrl: string;
let sb: TestSandbox;
let accountsStatus = 200;
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/jwks.json') {
      res.end(JSON.stringify({ keys: [key.jwk] }));
    } else if (req.url?.startsWith('/api/v1/crm/accounts')) {
      res.statusCode = accountsStatus;
      res.end(JSON.stringify(accountsStatus === 200 ? { metadata: { total: 0 }, items: [] } : { error: 'forbidden' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sb = await startTestSandbox();
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sb.close();
});
beforeEach(() => {
  received.length = 0;
  accountsStatus = 200;
});

describe('bo auth status --verify', () => {
  it('a token signed by the tenant key: valid, the key set fetched without credentials', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: signJwt(claims, key), origin: baseUrl } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify'], { env: t.env, credentials: store, clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Signature\tvalid (key live)\n');
    expect(received.map((q) => q.url)).toEqual(['/.well-known/jwks.json']);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it('a forged token: status printed, then exit 4 naming the key set', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: signJwt(claims, stranger), origin: baseUrl } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify', '--json'], { env: t.env, credentials: store, clock });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ signature: 'invalid: the signature does not match key "live"' });
    expect(r.stderr).toContain(`error: the token signature does not verify against ${baseUrl}/.well-known/jwks.json`);
  });

  it('an API key that works: one GET /crm/accounts?limit=1, kept out of the activity log, exit 0', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret };
    const before = (await sb.activity()).length;
    const r = await runBo(['auth', 'status', '--verify', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'apiKey', source: 'env', verified: 'valid' });
    expect((await sb.activity()).length).toBe(before);
  });

  it('a wrong API secret: exit 4, "rejected", the scheme word setting named, no secret printed', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: 'wrong-secret' };
    const r = await runBo(['auth', 'status', '--verify'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('Verified\trejected\n');
    expect(r.stderr).toBe(
      `error: the API key ${sb.fixtures.apiKey.key} was rejected by ${sb.url} (401)\n` +
        'hint: The credential came from the environment (BO_API_KEY, BO_API_SECRET): check or replace them, or unset them to use the stored one. ' +
        'The API key was sent with the scheme word "bo"; if the service uses another, set it with: bo config set api-key-scheme <word>\n',
    );
    expect(r.stdout + r.stderr).not.toContain('wrong-secret');
  });

  it('a stored API key answered with 403: exit 4, valid but not permitted to list accounts', async () => {
    accountsStatus = 403;
    const t = tempConfig();
    const store = createMemoryStore({ ci: { kind: 'apiKey', key: 'k', secret: 's', origin: baseUrl } });
    const r = await runBo(['-p', 'ci', '--base-url', baseUrl, 'auth', 'status', '--verify'], { env: t.env, credentials: store });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('Verified\tvalid, but not permitted to list accounts\n');
    expect(r.stderr).toBe('error: the API key k is valid, but not permitted to list accounts (403)\n');
    expect(received.map((q) => q.url)).toEqual(['/api/v1/crm/accounts?limit=1&donotlog=1']);
    expect(received[0]!.headers.authorization).toBe('bo k:s');
  });

  it('a stored credential that belongs elsewhere: exit 4 naming both origins, nothing sent', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'apiKey', key: 'k', secret: 's', origin: 'https://tenant.example.com' } });
    const r = await runBo(['--base-url', baseUrl, 'auth', 'status', '--verify'], { env: t.env, credentials: store });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('Belongs to\thttps://tenant.example.com\n');
    expect(r.stderr.split('\n')[0]).toBe(`error: the credentials of profile "default" belong to https://tenant.example.com, not ${baseUrl}`);
    expect(received).toEqual([]);
  });
});

describe('bo --sandbox auth status', () => {
  it('reports the sandbox key (backend "sandbox") and exits 0, even with a tenant and env credentials set', async () => {
    const t = tempConfig();
    const env = {
      ...t.env,
      BO_DATA_DIR: `${t.root}/data`,
      BO_BASE_URL: baseUrl,
      BO_API_KEY: 'tenant-key',
      BO_API_SECRET: 'tenant-secret',
    };
    const fixtures = JSON.parse((await runBo(['sandbox', 'fixtures'], { env: { ...t.env, BO_DATA_DIR: env.BO_DATA_DIR } })).stdout);
    const r = await runBo(['--sandbox', 'auth', 'status', '--verify', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: 'sandbox',
      baseUrl: null,
      kind: 'apiKey',
      source: 'sandbox',
      key: fixtures.apiKey.key,
      verified: 'valid',
    });
    expect(r.stdout).not.toContain(fixtures.apiKey.secret);
    expect(received).toEqual([]);
  });
});
