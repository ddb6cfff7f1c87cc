// What a CA file (`ca-file`, BO_CA_FILE) must be, on the built binary: at most 16 MiB,
// judged before a byte is read (a sparse 17 MiB file costs no memory to refuse), and
// changeable by no one but the user or root — not by the other-write bit, a shared
// group's write bit, another owner, nor through a folder above it (a sticky folder of
// root's allowed) — as ssh refuses such keys: exit 2 naming the file and the fix, nothing
// sent. And `bo auth set-key` checks the tenant's certificate before it asks for the
// secret, as `bo login` does; a tenant it cannot reach is a warning, and the key is stored.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { planterAndVictim, skipWithoutUsers } from '../helpers/local-users.js';
import { runBin, runOnTerminal } from '../helpers/run-bin.js';
import { serveTls, type TlsSandbox } from '../helpers/tls-sandbox.js';
import { makeCerts, type CertSet } from '../hardening/tls-certs.js';

let certs: CertSet;
let sandbox: TlsSandbox;
/** An https server with the test CA's certificate that counts the connections it gets. */
let listener: { url: string; connections: () => number; close(): Promise<void> };

beforeAll(async () => {
  certs = makeCerts();
  sandbox = await serveTls(certs.good);
  const server = https.createServer({ cert: readFileSync(certs.good.cert), key: readFileSync(certs.good.key) }, (_req, res) => res.writeHead(500).end());
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  listener = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}, 60_000);

afterAll(async () => {
  sandbox?.stop();
  await listener?.close();
  rmSync(certs.dir, { recursive: true, force: true });
});

/** `bo accounts list --limit 1` at `url` trusting `ca` (BO_CA_FILE) alone. */
function listEnv(ca: string, url: string) {
  const t = tempConfig();
  return { ...t.env, BO_BASE_URL: url, BO_CA_FILE: ca, BO_API_KEY: sandbox.key, BO_API_SECRET: sandbox.secret, NODE_EXTRA_CA_CERTS: undefined };
}
const LIST = ['accounts', 'list', '--limit', '1'];
const listWith = (ca: string, url = listener.url) => runBin(LIST, { env: listEnv(ca, url) });
/** As listWith, under /usr/bin/time: with the peak resident set. */
const measuredList = (ca: string) => runBin(LIST, { env: listEnv(ca, listener.url), measure: true });

/** A copy of the test CA in a new folder of the user's (0700), with `mode`. */
function caCopy(mode = 0o644): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bo-ca-'));
  const file = join(dir, 'company-ca.pem');
  copyFileSync(certs.ca, file);
  chmodSync(file, mode);
  return { dir, file };
}

describe('the size of a CA file', () => {
  it('over 16 MiB: refused with exit 2 naming it, without reading it (peak memory as for a small bad file); nothing sent', async () => {
    const { dir } = caCopy();
    const huge = join(dir, 'huge.pem');
    execFileSync('truncate', ['-s', '17M', huge]);
    const small = join(dir, 'small.pem');
    execFileSync('truncate', ['-s', '1K', small]);
    const before = listener.connections();
    const baseline = await measuredList(small);
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toContain('holds no PEM certificate');
    const r = await measuredList(huge);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: BO_CA_FILE ${huge} is 17.0 MiB: a CA file of at most 16 MiB is read (it holds certificates in PEM)\n`);
    // Reading it would hold its 17 MiB at least twice (the bytes, the text).
    expect(r.peakMb).toBeLessThan(baseline.peakMb + 12);
    expect(listener.connections()).toBe(before);
    const t = tempConfig();
    const set = await runBin(['config', 'set', 'ca-file', huge], { env: t.env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain(`error: ca-file ${huge} is 17.0 MiB`);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a CA file someone else could change', () => {
  it('writable by every user (chmod o+w): exit 2 naming it and `chmod go-w`; nothing sent, nothing saved', async () => {
    const { dir, file } = caCopy(0o646);
    const before = listener.connections();
    const r = await listWith(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: BO_CA_FILE ${file} can be written by other users, who could change what bo trusts: run chmod go-w ${file}\n`);
    expect(listener.connections()).toBe(before);
    const t = tempConfig();
    const set = await runBin(['config', 'set', 'ca-file', file], { env: t.env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain(`error: ca-file ${file} can be written by other users`);
    expect(existsSync(t.configFile)).toBe(false);
    // The fix it names works.
    chmodSync(file, 0o644);
    const fixed = await listWith(file, sandbox.url);
    expect(fixed.code, fixed.stderr).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('in a folder every user can write: exit 2 naming the folder; in a sticky folder of root\'s (the temporary folder) it is used', async () => {
    const { dir } = caCopy();
    const open = join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const file = join(open, 'ca.pem');
    copyFileSync(certs.ca, file);
    chmodSync(file, 0o644);
    const r = await listWith(file, sandbox.url);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: BO_CA_FILE ${file} is in ${open}, which every user can write: move it to a folder only you (or root) can change\n`);
    const inTmp = join(tmpdir(), `bo-ca-${process.pid}.pem`);
    copyFileSync(certs.ca, inTmp);
    chmodSync(inTmp, 0o644);
    try {
      const ok = await listWith(inTmp, sandbox.url);
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      rmSync(inTmp, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skipWithoutUsers)(`a CA file another local user could change${skipWithoutUsers ? ` (skipped: ${skipWithoutUsers})` : ''}`, () => {
  const them = planterAndVictim();

  it("owned by another user: exit 2 naming it; writable by a group that user is in: exit 2 naming chmod go-w; nothing sent", async () => {
    const before = listener.connections();
    const owned = caCopy();
    chownSync(owned.file, them.planter.uid, them.planter.gid);
    const r = await listWith(owned.file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: BO_CA_FILE ${owned.file} belongs to another user, who could change what bo trusts: use a copy of your own (cp ${owned.file} <your file>) and point BO_CA_FILE at it\n`,
    );
    // The planter's group (the shared default group) may write it: the planter can.
    const grouped = caCopy(0o664);
    chownSync(grouped.file, process.getuid!(), them.planter.gid);
    chmodSync(grouped.file, 0o664);
    const g = await listWith(grouped.file);
    expect(g.code).toBe(2);
    expect(g.stderr).toBe(`error: BO_CA_FILE ${grouped.file} can be written by other users, who could change what bo trusts: run chmod go-w ${grouped.file}\n`);
    expect(listener.connections()).toBe(before);
    for (const { dir } of [owned, grouped]) rmSync(dir, { recursive: true, force: true });
  });
});

describe('bo auth set-key and the tenant\'s certificate', () => {
  it('a certificate the CA file does not vouch for: exit 1 before the secret is asked for, nothing stored', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_CA_FILE: certs.selfSigned.cert };
    const r = await runOnTerminal(['auth', 'set-key', '--base-url', sandbox.url, '--key', 'ak_live', '--insecure-storage'], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`error: could not connect to ${sandbox.url}: the TLS certificate is not trusted (issued by an unknown authority)`);
    expect(r.out).not.toContain('API secret');
    expect(existsSync(t.credentialsFile)).toBe(false);
    // With the CA that signed it, the same key is stored, and nothing warns.
    const ok = await runBin(['auth', 'set-key', '--base-url', sandbox.url, '--key', 'ak_live', '--secret-stdin', '--insecure-storage'], {
      env: { ...t.env, BO_CA_FILE: certs.ca, NODE_EXTRA_CA_CERTS: undefined },
      stdin: 'sk_live\n',
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('warning: could not connect');
    expect(t.readJson(t.credentialsFile).profiles.default).toMatchObject({ key: 'ak_live', origin: sandbox.url });
  });

  it('a tenant that cannot be reached: a warning, and the key is stored', async () => {
    const t = tempConfig();
    const r = await runBin(['auth', 'set-key', '--base-url', 'https://127.0.0.1:1', '--key', 'ak_later', '--secret-stdin', '--insecure-storage'], {
      env: t.env,
      stdin: 'sk_later\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "warning: could not connect to https://127.0.0.1:1: connection refused; the key is stored without checking the tenant's certificate (bo auth status --verify checks it later)\n",
    );
    expect(r.stderr).not.toContain('sk_later');
    expect(t.readJson(t.credentialsFile).profiles.default).toEqual({ kind: 'apiKey', key: 'ak_later', secret: 'sk_later', origin: 'https://127.0.0.1:1' });
  });
});
