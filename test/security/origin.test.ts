// A stored credential goes only to the origin it was stored against or issued by
// (ARCHITECTURE principle 7). A second local server records every request it gets:
// whatever way a command names it as the base URL, it must receive nothing when the
// credential belongs elsewhere. Credentials from the environment are the caller's
// explicit choice and go to the base URL in effect. `--sandbox` wins over every base
// URL and credential source.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { originOf } from '../../src/auth/origin.js';

// A closed loopback port: set-key checks the tenant first, and a test never reaches past this machine.
const TENANT = 'https://127.0.0.1:1';

let recorder: Server;
let rec: string;
const received: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
let sb: TestSandbox;

beforeAll(async () => {
  recorder = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ metadata: { total: 0, offset: 0, limit: 100 }, items: [] }));
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  rec = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  sb = await startTestSandbox();
});
afterAll(async () => {
  await new Promise<void>((resolve) => recorder.close(() => resolve()));
  await sb.close();
});
beforeEach(() => {
  received.length = 0;
});

/** Profile "a" with a base URL and an API key stored against it, as a user would set it up. */
async function profileWithKey(baseUrl = TENANT) {
  const t = tempConfig();
  expect((await runBo(['-p', 'a', 'config', 'set', 'base-url', baseUrl], { env: t.env })).code).toBe(0);
  const set = await runBo(['-p', 'a', 'auth', 'set-key', '--key', 'K', '--secret-stdin', '--insecure-storage'], {
    env: t.env,
    stdin: 'the-secret\n',
  });
  expect(set.code).toBe(0);
  return t;
}

const refusal = (from: string, to: string) => `error: the credentials of profile "a" belong to ${from}, not ${to}`;

describe('a stored credential is sent to its own origin only', () => {
  it('--base-url naming another origin: exit 4 naming both, with a hint, nothing sent', async () => {
    const t = await profileWithKey();
    const r = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env: t.env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${refusal(TENANT, rec)}\n` +
        `hint: to use ${rec}, sign in there with bo -p a --base-url ${rec} login (or bo -p a --base-url ${rec} auth set-key), ` +
        'or pick the profile that belongs to it with --profile\n',
    );
    expect(received).toEqual([]);
  });

  it('BO_BASE_URL naming another origin: refused, nothing sent', async () => {
    const t = await profileWithKey();
    const r = await runBo(['-p', 'a', 'accounts', 'list'], { env: { ...t.env, BO_BASE_URL: rec } });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(refusal(TENANT, rec));
    expect(received).toEqual([]);
  });

  it('`config set base-url` after storing: refused, nothing sent', async () => {
    const t = await profileWithKey();
    expect((await runBo(['-p', 'a', 'config', 'set', 'base-url', rec], { env: t.env })).code).toBe(0);
    const r = await runBo(['-p', 'a', 'api', '/crm/accounts'], { env: t.env });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(refusal(TENANT, rec));
    expect(received).toEqual([]);
  });

  it('`profiles use` then --base-url, and BO_PROFILE with --base-url: refused, nothing sent', async () => {
    const t = await profileWithKey();
    expect((await runBo(['profiles', 'use', 'a'], { env: t.env })).code).toBe(0);
    const viaUse = await runBo(['--base-url', rec, 'accounts', 'list'], { env: t.env });
    expect(viaUse.code).toBe(4);
    expect(viaUse.stderr.split('\n')[0]).toBe(refusal(TENANT, rec));
    const viaEnv = await runBo(['--base-url', rec, 'accounts', 'list'], { env: { ...t.env, BO_PROFILE: 'a' } });
    expect(viaEnv.code).toBe(4);
    expect(viaEnv.stderr.split('\n')[0]).toBe(refusal(TENANT, rec));
    expect(received).toEqual([]);
  });

  it('a token from `bo login` belongs to the tenant that issued it', async () => {
    const t = tempConfig();
    const user = sb.fixtures.users.find((u) => u.kind === 'plain')!;
    const login = await runBo(['-p', 'a', '--base-url', sb.url, 'login', '--username', user.username, '--password-stdin', '--insecure-storage'], {
      env: t.env,
      stdin: `${user.password}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain(`Saved ${sb.url} as the base URL of profile "a".`);
    expect(t.readJson(t.credentialsFile).profiles.a).toMatchObject({ kind: 'token', origin: sb.url });
    const elsewhere = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env: t.env });
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr.split('\n')[0]).toBe(refusal(sb.url, rec));
    expect(received).toEqual([]);
    // At home it works.
    const home = await runBo(['-p', 'a', '--json', 'accounts', 'list', '--limit', '1'], { env: t.env });
    expect(home.code).toBe(0);
    expect(JSON.parse(home.stdout)).toHaveLength(1);
  });

  it('`bo login` with no base URL in effect: exit 2 naming --base-url, nothing stored or sent', async () => {
    const t = tempConfig();
    const user = sb.fixtures.users.find((u) => u.kind === 'plain')!;
    const r = await runBo(['login', '--username', user.username, '--password-stdin', '--insecure-storage'], {
      env: t.env,
      stdin: `${user.password}\n`,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: no base URL for profile "default"\n' +
        'hint: pass --base-url https://<tenant>, run bo config set base-url <url>, or try bo --sandbox …\n',
    );
    expect(() => t.readJson(t.credentialsFile)).toThrow(/ENOENT/);
  });

  it('origins compare by scheme, lower-cased host and port without the default; localhost is not 127.0.0.1', async () => {
    expect(originOf('HTTPS://Tenant.Example.COM:443/some/path')).toBe('https://tenant.example.com');
    expect(originOf('https://tenant.example.com:8443')).toBe('https://tenant.example.com:8443');
    const port = new URL(rec).port;
    const t = await profileWithKey(`http://localhost:${port}`);
    const r = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env: t.env });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(refusal(`http://localhost:${port}`, rec));
    // The same origin spelled differently is the same origin: the key is sent.
    const same = await profileWithKey(rec);
    const ok = await runBo(['-p', 'a', '--base-url', `${rec.replace('http://', 'HTTP://')}/`, 'accounts', 'list'], { env: same.env });
    expect(ok.code).toBe(0);
    expect(received.map((q) => q.headers.authorization)).toEqual(['bo K:the-secret']);
  });

  it('requests without credentials are not checked: --no-auth goes out, with no Authorization', async () => {
    const t = await profileWithKey();
    const r = await runBo(['-p', 'a', '--base-url', rec, 'api', '/crm/accounts', '--no-auth'], { env: t.env });
    expect(r.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });
});

describe('credentials stored before origins were recorded', () => {
  function legacy(settings: Record<string, unknown>) {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { a: { 'credential-store': 'file', ...settings } } }));
    writeFileSync(t.credentialsFile, JSON.stringify({ profiles: { a: { kind: 'apiKey', key: 'K', secret: 'old-secret' } } }), { mode: 0o600 });
    return t;
  }

  it("belong to the profile's saved base URL: sent there, refused elsewhere", async () => {
    const t = legacy({ 'base-url': rec });
    const home = await runBo(['-p', 'a', 'accounts', 'list'], { env: t.env });
    expect(home.code).toBe(0);
    expect(received.map((q) => q.headers.authorization)).toEqual(['bo K:old-secret']);
    received.length = 0;
    const away = await runBo(['-p', 'a', '--base-url', sb.url, 'accounts', 'list'], { env: t.env });
    expect(away.code).toBe(4);
    expect(away.stderr.split('\n')[0]).toBe(refusal(rec, sb.url));
  });

  it('with no saved base URL: refused with "sign in again", nothing sent', async () => {
    const t = legacy({});
    const r = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env: t.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: the credentials of profile "a" do not record the base URL they belong to: sign in again\n' +
        `hint: run bo -p a --base-url ${rec} login (or bo -p a --base-url ${rec} auth set-key)\n`,
    );
    expect(received).toEqual([]);
  });
});

describe('credentials from the environment', () => {
  it('go to the base URL in effect, whatever the profile stored', async () => {
    const t = await profileWithKey();
    const env = { ...t.env, BO_API_KEY: 'EK', BO_API_SECRET: 'env-secret' };
    const viaFlag = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env });
    expect(viaFlag.code).toBe(0);
    const viaEnv = await runBo(['accounts', 'list'], { env: { ...env, BO_BASE_URL: rec } });
    expect(viaEnv.code).toBe(0);
    const token = await runBo(['-p', 'a', '--base-url', rec, 'accounts', 'list'], { env: { ...t.env, BO_TOKEN: 'env.token.value' } });
    expect(token.code).toBe(0);
    expect(received.map((q) => q.headers.authorization)).toEqual(['bo EK:env-secret', 'bo EK:env-secret', 'bearer env.token.value']);
  });
});

describe('--sandbox wins over every base URL and credential source', () => {
  it('with BO_BASE_URL and env credentials set: the tenant receives nothing, the sandbox command succeeds', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_DATA_DIR: `${t.root}/data`, BO_BASE_URL: rec, BO_API_KEY: 'EK', BO_API_SECRET: 'env-secret' };
    const created = await runBo(['--sandbox', 'api', '-X', 'POST', '/email/lists', '-F', 'Name=Test'], { env });
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ Name: 'Test' });
    const listed = await runBo(['--sandbox', '--json', 'accounts', 'list', '--limit', '2'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(2);
    const viaEnv = await runBo(['--json', 'api', '/email/lists', '--paginate'], { env: { ...env, BO_SANDBOX: '1' } });
    expect((JSON.parse(viaEnv.stdout) as Array<{ Name: string }>).map((l) => l.Name)).toContain('Test');
    const flag = await runBo(['--sandbox', '--base-url', rec, 'accounts', 'list', '--limit', '1'], { env });
    expect(flag.code).toBe(0);
    expect(received).toEqual([]);
  });

  it('a `bo --sandbox login` token belongs to the embedded sandbox, not to the port it listened on', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_DATA_DIR: `${t.root}/data` };
    const user = (JSON.parse((await runBo(['sandbox', 'users', '--json'], { env })).stdout) as Array<{ kind: string; username: string; password: string }>).find(
      (u) => u.kind === 'plain',
    )!;
    const login = await runBo(['--sandbox', 'login', '--username', user.username, '--password-stdin', '--insecure-storage'], {
      env,
      stdin: `${user.password}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).not.toContain('Saved');
    // A later run listens on another port and still uses it.
    const again = await runBo(['--sandbox', '--verbose', 'accounts', 'list', '--limit', '1'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('authorization: bearer [redacted]');
    // Aimed at a real base URL, it is not even read: a sandbox sign-in is kept apart from
    // the profile's own (keychain) credentials, so the profile is simply not signed in.
    const away = await runBo(['-p', 'sandbox', '--base-url', rec, 'accounts', 'list'], { env });
    expect(away.code).toBe(4);
    expect(away.stderr.split('\n')[0]).toBe('error: not signed in (profile "sandbox")');
    expect(received).toEqual([]);
  });

  it('a tenant credential of the profile never goes to the sandbox: its own key is used', async () => {
    const t = await profileWithKey();
    const env = { ...t.env, BO_DATA_DIR: `${t.root}/data` };
    const r = await runBo(['-p', 'a', '--sandbox', '--json', 'auth', 'status'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'a', source: 'sandbox', kind: 'apiKey' });
    expect(r.stdout).not.toContain('"K"');
  });
});
