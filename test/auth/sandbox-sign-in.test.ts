// A new user's sign-ins and the hints they get: `bo --sandbox login` keeps its token in
// the 0600 file whether or not a keychain exists (a tenant's, loopback included, keeps
// the keychain); `bo --sandbox sandbox reset` forgets sandbox sign-ins; every hint names
// the command as the user must type it (`--sandbox`, `-p <profile>`); a rejected
// credential from the environment is said to come from there; `bo login` says which
// saved base URL it replaces, and under --no-input only with --yes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { closedPort } from '../helpers/fault-server.js';

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', BO_KEYCHAIN_TIMEOUT: '5' };
const PLAIN = { username: 'plain@sandbox.example', password: 'sandbox-plain-password' };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A fresh config and data folder, and no keychain on the bus. */
function machine(extra: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'bo-newuser-'));
  made.push(root);
  const config = join(root, 'config');
  return {
    root,
    config,
    credentialsFile: join(config, 'credentials.json'),
    configFile: join(config, 'config.json'),
    env: { BO_CONFIG_DIR: config, BO_DATA_DIR: join(root, 'data'), ...NO_BUS, ...extra } as Record<string, string>,
  };
}

async function sandboxLogin(env: Record<string, string>, argv: string[] = []) {
  return runBo(['--sandbox', ...argv, 'login', '--username', PLAIN.username, '--password-stdin'], { env, stdin: `${PLAIN.password}\n` });
}

describe('bo --sandbox login without a keychain', () => {
  it('stores the token in the 0600 file, records no backend for the profile, and auth status says where', async () => {
    const m = machine();
    const login = await sandboxLogin(m.env);
    expect(login.stderr).toMatch(/^Signed in as plain@sandbox\.example \(sandbox\) until \d{4}-\d\d-\d\d\.\n$/);
    expect(login.code).toBe(0);
    const { statSync, readFileSync, existsSync } = await import('node:fs');
    expect(statSync(m.credentialsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(m.credentialsFile, 'utf8')).profiles.sandbox).toMatchObject({ kind: 'token', origin: 'bo-sandbox:embedded' });
    // Nothing recorded for the profile: its own backend stays the keychain for tenants.
    expect(existsSync(m.configFile) ? JSON.parse(readFileSync(m.configFile, 'utf8')).profiles?.sandbox?.['credential-store'] : undefined).toBeUndefined();

    const status = await runBo(['--sandbox', 'auth', 'status'], { env: m.env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Source\tfile: ${m.credentialsFile}\n`);
    expect(status.stdout).toContain('User\tplain@sandbox.example\n');
    const token = await runBo(['--sandbox', 'auth', 'token'], { env: m.env });
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+\n$/);

    const logout = await runBo(['--sandbox', 'logout'], { env: m.env });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain(`Removed the credential of profile "sandbox" from ${m.credentialsFile}.`);
    const after = await runBo(['--sandbox', '--json', 'auth', 'status'], { env: m.env });
    expect(JSON.parse(after.stdout)).toMatchObject({ kind: 'apiKey', source: 'sandbox' });
    const again = await runBo(['--sandbox', 'logout'], { env: m.env });
    expect(again).toEqual({ code: 0, stdout: '', stderr: 'No sandbox sign-in for profile "sandbox": the sandbox\'s own API key is in use.\n' });
  });

  describe('a tenant, loopback included', () => {
    let served: TestSandbox;
    beforeAll(async () => {
      served = await startTestSandbox();
    });
    afterAll(async () => {
      await served?.close();
    });

    it('keeps the keychain: without one, login is refused naming --insecure-storage (exit 4)', async () => {
      const m = machine();
      const r = await runBo(['--base-url', served.url, 'login', '--username', PLAIN.username, '--password-stdin'], {
        env: m.env,
        stdin: `${PLAIN.password}\n`,
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^error: the OS keychain is not available/);
      expect(r.stderr).toContain('--insecure-storage');
    });
  });
});

describe('bo --sandbox sandbox reset', () => {
  it('forgets the sandbox sign-ins and says so; bo --sandbox then works with the sandbox API key', async () => {
    const m = machine();
    expect((await sandboxLogin(m.env)).code).toBe(0);
    expect((await sandboxLogin(m.env, ['-p', 'demo'])).code).toBe(0);
    const reset = await runBo(['--sandbox', 'sandbox', 'reset'], { env: m.env });
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain('sandbox reset to its seeded state\n');
    expect(reset.stderr).toContain('Signed out of the sandbox (profiles "sandbox", "demo"): the reset voids its tokens; the sandbox API key is used again.\n');

    const list = await runBo(['--sandbox', 'accounts', 'list', '--limit', '1'], { env: m.env });
    expect(list.stderr).not.toContain('error');
    expect(list.code).toBe(0);
    const status = await runBo(['--sandbox', '--json', 'auth', 'status', '--verify'], { env: m.env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'apiKey', source: 'sandbox', verified: 'valid' });
  });

  it('with nothing signed in, says nothing about sign-ins', async () => {
    const m = machine();
    const reset = await runBo(['--sandbox', 'sandbox', 'reset'], { env: m.env });
    expect(reset.code).toBe(0);
    expect(reset.stderr).not.toContain('Signed out');
  });
});

describe('hints name the command as the user must type it', () => {
  it('a refused sandbox token: `bo --sandbox login`, not `bo login`', async () => {
    const m = machine();
    mkdirSync(m.config, { recursive: true });
    // A token the sandbox never signed, bound to it (as one from before a reset would be).
    const bogus = `${Buffer.from('{"alg":"RS256","kid":"gone"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;
    writeFileSync(m.credentialsFile, JSON.stringify({ profiles: { sandbox: { kind: 'token', token: bogus, origin: 'bo-sandbox:embedded' } } }), { mode: 0o600 });
    const r = await runBo(['--sandbox', 'accounts', 'list'], { env: m.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("hint: sign in again with bo --sandbox login, or bo --sandbox logout to use the sandbox's own API key.\n");
    const p = await runBo(['--sandbox', '-p', 'staging', 'auth', 'token'], { env: m.env });
    expect(p.code).toBe(4);
    expect(p.stderr).toBe('error: not signed in (profile "staging")\nhint: run bo --sandbox -p staging login\n');
  });

  it('not signed in on a profile chosen with -p: `bo -p staging login`', async () => {
    const m = machine();
    mkdirSync(m.config, { recursive: true });
    writeFileSync(m.configFile, JSON.stringify({ profiles: { staging: { 'base-url': 'https://staging.example.com' } } }));
    const r = await runBo(['-p', 'staging', 'accounts', 'list'], { env: m.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: not signed in (profile "staging")\n' +
        'hint: run bo -p staging login or bo -p staging auth set-key, or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET\n',
    );
  });

  it('the HTTP client\'s hints too: `bo -p staging config set base-url`, for the profile in use', async () => {
    const m = machine({ BO_API_KEY: 'k', BO_API_SECRET: 's' });
    const port = await closedPort();
    const r = await runBo(['-p', 'staging', '--base-url', `http://127.0.0.1:${port}`, '--max-retries', '0', 'accounts', 'list'], { env: m.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hint: check the base URL (--base-url or bo -p staging config set base-url) and your network.\n');
    const api = await runBo(['-p', 'staging', 'api', 'https://elsewhere.example.com/x'], { env: m.env });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('hint: the host comes from --base-url or the profile (bo -p staging config set base-url <url>)\n');
  });

  it('bo auth token and auth status without a keychain: no --insecure-storage for them, which do not take it', async () => {
    const m = machine();
    mkdirSync(m.config, { recursive: true });
    writeFileSync(m.configFile, JSON.stringify({ profiles: { default: { 'base-url': 'https://tenant.example.com', 'credential-store': 'keychain' } } }));
    for (const argv of [['auth', 'token'], ['auth', 'status']]) {
      const r = await runBo(argv, { env: m.env });
      expect(r.code).toBe(4);
      const [error, hint, ...rest] = r.stderr.split('\n');
      expect(error).toMatch(/^error: the OS keychain is not available/);
      expect(hint).toBe('hint: sign in again with bo login --insecure-storage (a 0600 file), or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET; bo doctor says why the keychain is not there');
      expect(rest).toEqual(['']);
    }
  });
});

describe('credentials from the environment that the server rejects', () => {
  let served: TestSandbox;
  beforeAll(async () => {
    served = await startTestSandbox();
  });
  afterAll(async () => {
    await served?.close();
  });

  it('a command: the hint names the variables, not bo auth set-key', async () => {
    const m = machine({ BO_BASE_URL: served.url, BO_API_KEY: served.fixtures.apiKey.key, BO_API_SECRET: 'wrong-secret' });
    const r = await runBo(['accounts', 'list'], { env: m.env });
    expect(r.code).toBe(4);
    const hint = r.stderr.split('\n').find((l) => l.startsWith('hint: '));
    expect(hint).toBe(
      'hint: the credential came from the environment (BO_API_KEY, BO_API_SECRET): check or replace them, or unset them to use the stored one. ' +
        'The API key was sent with the scheme word "bo"; if the service uses another, set it with: bo config set api-key-scheme <word>',
    );
    expect(r.stderr).not.toContain('set-key');
  });

  it('auth status --verify: the same', async () => {
    const m = machine({ BO_BASE_URL: served.url, BO_API_KEY: served.fixtures.apiKey.key, BO_API_SECRET: 'wrong-secret' });
    const r = await runBo(['auth', 'status', '--verify'], { env: m.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('hint: the credential came from the environment (BO_API_KEY, BO_API_SECRET)');
    expect(r.stderr).not.toContain('set-key');
  });

  it('BO_TOKEN: named alone', async () => {
    const m = machine({ BO_BASE_URL: served.url, BO_TOKEN: 'not-a-token' });
    const r = await runBo(['accounts', 'list'], { env: m.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('hint: the credential came from the environment (BO_TOKEN): check or replace it, or unset it to use the stored one.\n');
    expect(r.stderr).not.toContain('bo login');
  });
});

describe('bo login replacing the profile\'s saved base URL', () => {
  let served: TestSandbox;
  beforeAll(async () => {
    served = await startTestSandbox();
  });
  afterAll(async () => {
    await served?.close();
  });
  const saved = () => {
    const m = machine();
    mkdirSync(m.config, { recursive: true });
    writeFileSync(m.configFile, JSON.stringify({ profiles: { default: { 'base-url': 'https://acme.example.com' } } }));
    return m;
  };
  const login = (m: ReturnType<typeof machine>, argv: string[], env: Record<string, string> = {}) =>
    runBo([...argv, 'login', '--insecure-storage', '--username', PLAIN.username, '--password-stdin'], {
      env: { ...m.env, ...env },
      stdin: `${PLAIN.password}\n`,
    });

  it('under --no-input without --yes: refused before anything is sent (exit 2), the saved one kept', async () => {
    const m = saved();
    const before = (await served.activity()).length;
    const r = await login(m, ['--no-input'], { BO_BASE_URL: served.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: BO_BASE_URL ${served.url} would replace https://acme.example.com, the base URL of profile "default"; pass --yes to replace it, or use another profile (-p <name>)\n`,
    );
    expect((await served.activity()).length).toBe(before);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(m.configFile, 'utf8')).profiles.default['base-url']).toBe('https://acme.example.com');
  });

  it('with --yes: says which base URL it replaces, signs in and saves the new one', async () => {
    const m = saved();
    const r = await login(m, ['--no-input', '--base-url', served.url], { BO_NO_INPUT: '1' });
    expect(r.code).toBe(2);
    const yes = await runBo(['--base-url', served.url, 'login', '--yes', '--insecure-storage', '--username', PLAIN.username, '--password-stdin'], {
      env: m.env,
      stdin: `${PLAIN.password}\n`,
    });
    expect(yes.code).toBe(0);
    expect(yes.stderr.split('\n')[0]).toBe(`Signing in to ${served.url}, replacing https://acme.example.com as the base URL of profile "default".`);
    expect(yes.stderr).toContain(`Saved ${served.url} as the base URL of profile "default".`);
  });

  it('the same base URL as saved: nothing to say', async () => {
    const m = machine();
    const first = await login(m, ['--base-url', served.url]);
    expect(first.code).toBe(0);
    const again = await login(m, ['--base-url', served.url, '--no-input']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('replacing');
  });
});
