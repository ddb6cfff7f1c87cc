// A company certificate authority, per profile: `bo config set ca-file` and BO_CA_FILE,
// on the built binary against servers whose certificates a test CA made with openssl
// signs (a tenant is always https, D3). NODE_EXTRA_CA_CERTS is set on this machine:
// runBin passes a child only HOME, PATH and what a test names, and the tests name it
// undefined, so what trusts the test CA is the ca-file alone, unless a test says
// otherwise.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';
import { serveTls, type TlsSandbox } from '../helpers/tls-sandbox.js';
import { makeCerts, type CertSet } from '../hardening/tls-certs.js';
import { startConnectProxy } from '../api/proxy-fixture.js';
import { TEST_CERT } from '../api/tls-fixture.js';

let certs: CertSet;
let sandbox: TlsSandbox;
/** An https server with the test CA's certificate that records every request it gets. */
let listener: { url: string; requests: string[]; connections: () => number; close(): Promise<void> };

const UNTRUSTED = 'the TLS certificate is not trusted (issued by an unknown authority)';

beforeAll(async () => {
  certs = makeCerts();
  sandbox = await serveTls(certs.good);
  const requests: string[] = [];
  const server = https.createServer({ cert: readFileSync(certs.good.cert), key: readFileSync(certs.good.key) }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  listener = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}, 60_000);

afterAll(async () => {
  sandbox?.stop();
  await listener?.close();
  rmSync(certs.dir, { recursive: true, force: true });
});

/** A fresh config folder whose profile "default" has the TLS sandbox as base URL (and `ca` as ca-file, when given). */
async function profileWith(ca?: string) {
  const t = tempConfig();
  const env = { ...t.env, NODE_EXTRA_CA_CERTS: undefined };
  const set = await runBin(['config', 'set', 'base-url', sandbox.url], { env });
  expect(set.code, set.stderr).toBe(0);
  if (ca) {
    const r = await runBin(['config', 'set', 'ca-file', ca], { env });
    expect(r.code, r.stderr).toBe(0);
  }
  const bo = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string) =>
    runBin(args, { env: { ...env, ...extra }, timeoutMs: 60_000, ...(stdin === undefined ? {} : { stdin }) });
  return { t, env, bo };
}

const apiKey = () => ({ BO_API_KEY: sandbox.key, BO_API_SECRET: sandbox.secret });

describe('bo config set ca-file', () => {
  it('refuses a missing file, one without a certificate and a folder: exit 2 naming ca-file, nothing saved', async () => {
    const { t, bo } = await profileWith();
    mkdirSync(join(t.root, 'folder'));
    const cases: Array<[string, RegExp]> = [
      [join(t.root, 'missing.pem'), /^error: ca-file \S+missing\.pem cannot be read: no such file\n$/],
      [certs.good.key, /^error: ca-file \S+good\.key holds no PEM certificate \(-----BEGIN CERTIFICATE-----\)\n$/],
      [join(t.root, 'folder'), /^error: ca-file \S+folder is not a regular file \(a folder\)\n$/],
    ];
    for (const [path, message] of cases) {
      const r = await bo(['config', 'set', 'ca-file', path]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    const get = await bo(['config', 'get', 'ca-file']);
    expect(get.stdout).toBe('');
    expect(t.readJson(t.configFile).profiles.default['ca-file']).toBeUndefined();
  });

  it('keeps the path absolute, so it names the same file from any folder', async () => {
    const { bo } = await profileWith();
    // A relative path is resolved against the folder bo runs in (the test's), where no ca.pem is.
    const r = await bo(['config', 'set', 'ca-file', 'ca.pem']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ca-file ${join(process.cwd(), 'ca.pem')} cannot be read: no such file\n`);
    const ok = await bo(['config', 'set', 'ca-file', certs.ca]);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toBe(`Set ca-file to ${certs.ca} for profile "default".\n`);
  });
});

describe('a server whose certificate a company CA signs', () => {
  it('is trusted with the profile\'s ca-file alone (no NODE_EXTRA_CA_CERTS); auth status names the file', async () => {
    const { bo } = await profileWith(certs.ca);
    const r = await bo(['--json', 'lists', 'list'], apiKey());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    const status = await bo(['auth', 'status'], apiKey());
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`CA file\t${certs.ca} (ca-file)\n`);
    const json = JSON.parse((await bo(['auth', 'status', '--json'], apiKey())).stdout);
    expect(json.caFile).toBe(certs.ca);
  });

  it('another profile without it still refuses that server: exit 1, the hint names ca-file and NODE_EXTRA_CA_CERTS', async () => {
    const { bo } = await profileWith(certs.ca);
    const r = await bo(['-p', 'other', '--base-url', sandbox.url, 'lists', 'list'], apiKey());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: could not connect to ${sandbox.url}: ${UNTRUSTED}\n` +
        "hint: if this certificate, or the authority that signed it, is your company's, trust its PEM file: " +
        'bo -p other config set ca-file <pem-file> (or BO_CA_FILE; NODE_EXTRA_CA_CERTS does it for every Node program). bo -p other doctor shows the certificate.\n',
    );
    expect(r.stderr).not.toContain(sandbox.secret);
  });

  it('a self-signed certificate gets the same hint', async () => {
    const self = await serveTls(certs.selfSigned);
    try {
      const { bo } = await profileWith();
      const r = await bo(['--base-url', self.url, 'lists', 'list'], { BO_API_KEY: self.key, BO_API_SECRET: self.secret });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: could not connect to \S+: the TLS certificate is self-signed\nhint: .*bo config set ca-file <pem-file>.*NODE_EXTRA_CA_CERTS/);
    } finally {
      self.stop();
    }
  });

  it('--verbose names the CA file in use, and the refused certificate\'s subject and issuer', async () => {
    const { bo } = await profileWith(certs.ca);
    const ok = await bo(['--verbose', 'lists', 'list'], apiKey());
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`* trusting the certificate authorities of ${certs.ca} (ca-file) as well as Node's\n`);
    const refused = await bo(['-p', 'other', '--base-url', sandbox.url, '--verbose', 'lists', 'list'], apiKey());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("* the server's certificate: subject CN=localhost, issued by CN=bo test CA\n");
  });

  it('adds to Node\'s trust rather than replacing it: NODE_EXTRA_CA_CERTS still counts beside a ca-file', async () => {
    // The ca-file holds an unrelated certificate; the test CA comes from NODE_EXTRA_CA_CERTS.
    const { bo } = await profileWith(certs.selfSigned.cert);
    const r = await bo(['lists', 'list'], { ...apiKey(), NODE_EXTRA_CA_CERTS: certs.ca });
    expect(r.code, r.stderr).toBe(0);
    const without = await bo(['lists', 'list'], apiKey());
    expect(without.code).toBe(1);
    expect(without.stderr).toContain(UNTRUSTED);
  });
});

describe('BO_CA_FILE', () => {
  it('wins over the ca-file setting: a bad one is exit 2 naming BO_CA_FILE, nothing sent', async () => {
    const { t, bo } = await profileWith(certs.ca);
    const r = await bo(['lists', 'list'], { ...apiKey(), BO_CA_FILE: join(t.root, 'nope.pem') });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: BO_CA_FILE ${join(t.root, 'nope.pem')} cannot be read: no such file\n`);
  });

  it('trusts the CA alone, and config list shows it with its source', async () => {
    const { bo } = await profileWith();
    const r = await bo(['lists', 'list'], { ...apiKey(), BO_CA_FILE: certs.ca });
    expect(r.code, r.stderr).toBe(0);
    const list = await bo(['config', 'list', '--json'], { BO_CA_FILE: certs.ca });
    const settings = JSON.parse(list.stdout).settings as Array<{ name: string; value: unknown; source: string }>;
    expect(settings.find((s) => s.name === 'ca-file')).toEqual({ name: 'ca-file', value: certs.ca, source: 'env' });
    const unset = JSON.parse((await bo(['config', 'list', '--json'])).stdout).settings as Array<{ name: string; value: unknown; source: string }>;
    expect(unset.find((s) => s.name === 'ca-file')).toEqual({ name: 'ca-file', value: null, source: 'default' });
  });
});

describe('bo login against a server this machine does not trust', () => {
  it('fails before it asks for anything: exit 1 with the ca-file hint, not "pass --username"', async () => {
    const { bo } = await profileWith();
    const r = await bo(['login', '--no-input', '--insecure-storage']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: could not connect to ${sandbox.url.replace(/[.]/g, '\\.')}: ${UNTRUSTED.replace(/[()]/g, '\\$&')}\nhint: .*bo config set ca-file <pem-file>`));
    expect(r.stderr).not.toContain('--username');
  });

  it('signs in with the ca-file, and says the token went to an unencrypted 0600 file', async () => {
    const { t, bo } = await profileWith(certs.ca);
    const users = JSON.parse((await bo(['--base-url', sandbox.url, '--json', 'sandbox', 'users'])).stdout) as Array<{ kind: string; username: string; password: string }>;
    const plain = users.find((u) => u.kind === 'plain')!;
    const r = await bo(['login', '--insecure-storage', '--username', plain.username, '--password-stdin'], {}, `${plain.password}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`The token is stored unencrypted in ${t.credentialsFile} (a file only you can read, mode 0600), not in the OS keychain.\n`);
    expect(t.mode(t.credentialsFile)).toBe(0o600);
  });

  it('the check is a handshake only: a trusted server gets no request before the user name is known', async () => {
    const { bo } = await profileWith();
    const r = await bo(['-p', 'probe', '--base-url', listener.url, 'login', '--no-input', '--insecure-storage'], { BO_CA_FILE: certs.ca });
    // Connected and past the handshake, to the first missing answer, with no request made.
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Pass --username/);
    expect(listener.connections()).toBeGreaterThan(0);
    expect(listener.requests).toEqual([]);
  });

  it('goes through the proxy in effect, and an https:// proxy is trusted with the same ca-file', async () => {
    // One file: the test CA for the server, the proxy's self-signed certificate for the proxy.
    const { t, bo } = await profileWith();
    const bundle = join(t.root, 'bundle.pem');
    writeFileSync(bundle, `${readFileSync(certs.ca, 'utf8')}${TEST_CERT}`);
    const proxy = await startConnectProxy({ tls: true });
    try {
      const via = { HTTPS_PROXY: proxy.url };
      const refused = await bo(['-p', 'probe', '--base-url', listener.url, 'login', '--no-input', '--insecure-storage'], { ...via, BO_CA_FILE: certs.ca });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: could not connect to the proxy https:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\): the TLS certificate is self-signed\nhint: .*config set ca-file <pem-file>/);
      const r = await bo(['-p', 'probe', '--base-url', listener.url, 'login', '--no-input', '--insecure-storage'], { ...via, BO_CA_FILE: bundle });
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(/Pass --username/);
      expect(proxy.connects.map((c) => c.target)).toEqual([listener.url.replace('https://', '')]);
      expect(listener.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
