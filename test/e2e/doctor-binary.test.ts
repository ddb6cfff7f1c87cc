// `bo doctor` on the built binary against a served sandbox: each case breaks one thing
// (a CA file that is not the server's, a proxy on a closed port, a skewed clock, a token
// near its end, no Secret Service, a state folder of another user, an interrupted run)
// and checks the finding names its fix, in text and in --json. A recording forwarder in
// front of the sandbox shows what doctor sends: at most 3 GETs, each with donotlog=1.
// Every address is loopback.
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, type RunBinResult } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';
import { tempConfig } from '../helpers/config-dir.js';
import { serveTls, type TlsSandbox } from '../helpers/tls-sandbox.js';
import { makeCerts, type CertSet } from '../hardening/tls-certs.js';
import { TEST_CERT } from '../api/tls-fixture.js';
import { makeKey, signJwt } from '../helpers/sign-jwt.js';
import { writeRunFile } from '../helpers/journal-files.js';
import { folderOf, planterAndVictim, skipWithoutUsers } from '../helpers/local-users.js';

interface Check {
  id: string;
  ok: boolean;
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix: string | null;
}

let sb: TestSandbox;
/** A forwarder in front of the sandbox that records each request line it passes on. */
let forwarder: { url: string; seen: string[]; close(): Promise<void> };

beforeAll(async () => {
  sb = await startTestSandbox();
  const seen: string[] = [];
  const target = new URL(sb.url);
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  forwarder = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await forwarder?.close();
  await sb?.close();
});

/** The environment of a healthy run: the sandbox's key, fresh config and state folders, no bus. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return testEnv(sb, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', ...extra });
}

async function doctorJson(argv: string[], environment: Record<string, string | undefined>): Promise<{ r: RunBinResult; checks: Check[] }> {
  const r = await runBin([...argv, 'doctor', '--json'], { env: environment, timeoutMs: 60_000 });
  const parsed = JSON.parse(r.stdout) as { checks: Check[] };
  expect(Object.keys(parsed)).toEqual(['checks']);
  for (const c of parsed.checks) {
    expect(Object.keys(c)).toEqual(['id', 'ok', 'severity', 'message', 'fix']);
    expect(['error', 'warning', 'info']).toContain(c.severity);
    if (!c.ok) expect(typeof c.fix).toBe('string');
  }
  return { r, checks: parsed.checks };
}

const find = (checks: Check[], id: string): Check => {
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check "${id}" in ${JSON.stringify(checks)}`);
  return c;
};

describe('bo doctor on the built binary', () => {
  it('a healthy served sandbox: exit 0, every check listed; at most 3 GETs with donotlog=1; the secret never shown', async () => {
    forwarder.seen.length = 0;
    const environment = { ...env(), BO_BASE_URL: forwarder.url };
    const before = (await sb.activity()).length;
    const { r, checks } = await doctorJson([], environment);
    expect(r.code).toBe(0);
    expect(checks.map((c) => c.id)).toEqual(expect.arrayContaining(['profile', 'credential', 'keychain', 'network', 'clock', 'api', 'state', 'journal', 'plans', 'runtime']));
    expect(find(checks, 'network').ok).toBe(true);
    expect(find(checks, 'clock').ok).toBe(true);
    expect(find(checks, 'api').ok).toBe(true);
    expect(find(checks, 'profile').message).toContain(forwarder.url);
    expect(find(checks, 'credential').message).toContain(sb.fixtures.apiKey.key);
    expect(forwarder.seen.length).toBeGreaterThan(0);
    expect(forwarder.seen.length).toBeLessThanOrEqual(3);
    for (const line of forwarder.seen) expect(line).toMatch(/^GET \S*[?&]donotlog=1(&|$)/);
    // None of them reached the activity log.
    expect((await sb.activity()).length).toBe(before);

    const text = await runBin(['doctor'], { env: environment });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok {4}network/m);
    for (const out of [r.stdout, r.stderr, text.stdout, text.stderr]) expect(out).not.toContain(sb.fixtures.apiKey.secret);
  });

  it('no Secret Service on the bus: a warning naming login --insecure-storage, exit 0', async () => {
    const { r, checks } = await doctorJson([], env());
    expect(r.code).toBe(0);
    const keychain = find(checks, 'keychain');
    expect(keychain).toMatchObject({ ok: false, severity: 'warning' });
    expect(keychain.message).toContain('/nonexistent');
    expect(keychain.fix).toContain('bo login --insecure-storage');
  });

  it('a clock skewed through the sandbox clock: a warning that TOTP codes will be refused', async () => {
    await sb.advanceClock(120);
    try {
      const { r, checks } = await doctorJson([], env());
      expect(r.code).toBe(0);
      const clock = find(checks, 'clock');
      expect(clock).toMatchObject({ ok: false, severity: 'warning' });
      expect(clock.message).toMatch(/behind the tenant's: TOTP codes will be refused/);
      expect(clock.fix).toContain('timedatectl set-ntp');
    } finally {
      await sb.reset();
    }
  });

  it('a proxy on a closed loopback port: the proxy step fails, exit 1', async () => {
    const { r, checks } = await doctorJson([], env({ HTTPS_PROXY: 'http://127.0.0.1:1', HTTP_PROXY: 'http://127.0.0.1:1' }));
    expect(r.code).toBe(1);
    const network = find(checks, 'network');
    expect(network).toMatchObject({ ok: false, severity: 'error' });
    expect(network.message).toMatch(/^proxy: .*127\.0\.0\.1:1/);
    expect(network.fix).toMatch(/PROXY/);
    expect(r.stderr).toContain('check failed: network');
  });

  it('a token near its end: a warning naming bo login; the token never shown', async () => {
    const token = signJwt({ sub: 'per_doctor', exp: Math.floor(Date.now() / 1000) + 36 * 3600 }, makeKey('doctor-kid'));
    const environment = env({ BO_TOKEN: token });
    const { r, checks } = await doctorJson([], environment);
    const credential = find(checks, 'credential');
    expect(credential).toMatchObject({ ok: false, severity: 'warning', fix: 'bo login' });
    expect(credential.message).toMatch(/a token in the environment \(BO_TOKEN\) expires in 1 day/);
    // Signed by a key the tenant does not hold: refused, and said so.
    expect(find(checks, 'token-signature')).toMatchObject({ ok: false, severity: 'error', fix: 'bo login' });
    expect(r.code).toBe(1);
    const [, , signature] = token.split('.');
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toContain(token);
      expect(out).not.toContain(signature);
    }
  });

  it('an interrupted run: a warning naming bo batch resume <id>', async () => {
    const environment = env();
    writeRunFile(join(environment.BO_STATE_DIR!, 'journal'), { id: '20261128T050347-abcdef', uids: ['acc_1', 'acc_2', 'acc_3'], sent: 1, origin: sb.url });
    const { r, checks } = await doctorJson([], environment);
    expect(r.code).toBe(0);
    const journal = find(checks, 'journal');
    expect(journal).toMatchObject({ ok: false, severity: 'warning', fix: 'bo batch resume 20261128T050347-abcdef' });
    expect(journal.message).toContain('1 interrupted run');
  });

  it('--sandbox: what the embedded sandbox holds', async () => {
    const { r, checks } = await doctorJson(['--sandbox'], { ...tempConfig().env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    expect(r.code).toBe(0);
    const sandbox = find(checks, 'sandbox');
    expect(sandbox.ok).toBe(true);
    expect(sandbox.message).toMatch(/holds .*\d+ accounts/);
    expect(find(checks, 'profile').message).toContain('embedded sandbox');
  });

  it('a tenant that never answers: the network check says so within the timeout, naming config set timeout', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const { r, checks } = await doctorJson(['--timeout', '1', '--max-retries', '0'], env({ BO_BASE_URL: url }));
      expect(r.code).toBe(1);
      const network = find(checks, 'network');
      expect(network).toMatchObject({ ok: false, severity: 'error', fix: 'bo config set timeout <seconds>' });
      expect(network.message).toMatch(/^timeout: /);
    } finally {
      silent.close();
      // The silent server keeps bo's sockets: closed with it.
      (silent as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }
  });

  it('no base URL: the profile fails, naming bo config set base-url; nothing sent', async () => {
    const { r, checks } = await doctorJson([], { ...tempConfig().env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    expect(r.code).toBe(1);
    expect(find(checks, 'profile')).toMatchObject({ ok: false, severity: 'error', fix: 'bo config set base-url https://<tenant>' });
    expect(checks.find((c) => c.id === 'network')).toBeUndefined();

    // A base URL every command refuses: said as they say it, nothing sent.
    const bad = await doctorJson([], env({ BO_BASE_URL: 'ftp://127.0.0.1:1' }));
    expect(bad.r.code).toBe(1);
    expect(find(bad.checks, 'profile').message).toMatch(/BO_BASE_URL must use https:\/\//);
    expect(bad.checks.find((c) => c.id === 'network')).toBeUndefined();
  });
});

describe('bo doctor and TLS', () => {
  let certs: CertSet;
  let tls: TlsSandbox;
  beforeAll(async () => {
    certs = makeCerts();
    tls = await serveTls(certs.good);
  });
  afterAll(() => {
    tls?.stop();
    rmSync(certs.dir, { recursive: true, force: true });
  });

  it("a CA file that is not the server's: the certificate step fails with its subject and issuer, naming config set ca-file", async () => {
    const dir = tempConfig().root;
    const other = join(dir, 'other-ca.pem');
    writeFileSync(other, TEST_CERT);
    const environment = {
      ...testEnv(tls.url, { BO_API_KEY: tls.key, BO_API_SECRET: tls.secret }),
      BO_CA_FILE: other,
      NODE_EXTRA_CA_CERTS: undefined,
      BO_STATE_DIR: join(dir, 'state'),
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    };
    const { r, checks } = await doctorJson([], environment);
    expect(r.code).toBe(1);
    const network = find(checks, 'network');
    expect(network).toMatchObject({ ok: false, severity: 'error', fix: 'bo config set ca-file <pem-file>' });
    expect(network.message).toMatch(/^certificate: /);
    expect(network.message).toMatch(/subject .*issued by /);
    expect(network.message).toContain(other);
    for (const out of [r.stdout, r.stderr]) expect(out).not.toContain(tls.secret);

    // The server's own CA: healthy.
    const good = await doctorJson([], { ...environment, BO_CA_FILE: certs.ca });
    expect(find(good.checks, 'network').ok).toBe(true);
    expect(good.r.code).toBe(0);
  });
});

describe.skipIf(skipWithoutUsers)(`bo doctor and a state folder of another user${skipWithoutUsers ? ` (skipped: ${skipWithoutUsers})` : ''}`, () => {
  const them = planterAndVictim();

  it('the state check fails, naming BO_STATE_DIR; exit 1', async () => {
    const state = folderOf(them.planter, join(them.work.root, 'planted-state'), 0o700);
    const { r, checks } = await doctorJson([], env({ BO_STATE_DIR: state }));
    expect(r.code).toBe(1);
    const check = find(checks, 'state');
    expect(check).toMatchObject({ ok: false, severity: 'error' });
    expect(check.message).toContain(`${state} is owned by another user`);
    expect(check.fix).toContain('BO_STATE_DIR');
  });
});
