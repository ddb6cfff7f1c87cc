// TLS: `bo sandbox serve --tls-cert <f> --tls-key <f>` (built binary) with certificates
// made by openssl in the test. Trusted through NODE_EXTRA_CA_CERTS, `bo` works against
// it; untrusted, expired or made for another host, `bo` stops with exit 1 and says which,
// sends no request, and no flag or setting of `bo` turns the check off.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';
import { serveTls as serveSandboxTls } from '../helpers/tls-sandbox.js';
import { makeCerts, type CertSet } from './tls-certs.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

let certs: CertSet;
const servers: ChildProcess[] = [];
let cases = 0;
let flagsChecked = 0;

beforeAll(() => {
  certs = makeCerts();
});

afterAll(() => {
  for (const child of servers) child.kill('SIGTERM');
  rmSync(certs.dir, { recursive: true, force: true });
  console.log(`[hardening] TLS: ${cases} runs (trusted, untrusted CA, self-signed, expired, not yet valid, other host, NODE_TLS_REJECT_UNAUTHORIZED=0, bad flags); ${flagsChecked} flags of the help tree checked: none turns the check off`);
});

/** `bo sandbox serve` over https (test/helpers/tls-sandbox.ts), stopped after the suite. */
async function serveTls(pair: { cert: string; key: string }) {
  const s = await serveSandboxTls(pair);
  servers.push(s.child);
  return s;
}

function bo(url: string, server: { key: string; secret: string }, extraCa?: string) {
  const t = tempConfig();
  cases++;
  return runBin(['--base-url', url, '--json', 'lists', 'list'], {
    env: { ...t.env, BO_API_KEY: server.key, BO_API_SECRET: server.secret, ...(extraCa ? { NODE_EXTRA_CA_CERTS: extraCa } : {}) },
    timeoutMs: 30_000,
  });
}

describe('bo sandbox serve over TLS', () => {
  it('serves https; trusted through NODE_EXTRA_CA_CERTS, bo works against it', async () => {
    const s = await serveTls(certs.good);
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await bo(s.url, s, certs.ca);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    // localhost is in the certificate too.
    const local = await bo(s.url.replace('127.0.0.1', 'localhost'), s, certs.ca);
    expect(local.code, local.stderr).toBe(0);
  });

  const failures: Array<[string, keyof CertSet, boolean, RegExp]> = [
    ['a certificate from an authority nobody trusts', 'good', false, /the TLS certificate is not trusted \(issued by an unknown authority\)$/],
    ['a self-signed certificate', 'selfSigned', false, /the TLS certificate is self-signed/],
    ['an expired certificate (its authority trusted)', 'expired', true, /the TLS certificate has expired/],
    ['a certificate not valid yet (its authority trusted)', 'notYetValid', true, /the TLS certificate is not valid yet/],
    ['a certificate for another host (its authority trusted)', 'otherHost', true, /the TLS certificate does not match the host name/],
  ];
  it.each(failures)('%s: exit 1 and a one-line message saying which', async (_name, which, trustCa, message) => {
    const s = await serveTls(certs[which] as { cert: string; key: string });
    const r = await bo(s.url, s, trustCa ? certs.ca : undefined);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const first = r.stderr.split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^error: could not connect to ${s.url.replace(/[.]/g, '\\.')}: `));
    expect(first).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at |Error:|ERR_|UNABLE_TO|CERT_/);
    // The secret never went out: the handshake failed before any request.
    expect(r.stderr).not.toContain(s.secret);
  });

  it.each([
    [['--tls-cert', 'CERT'], /^error: --tls-cert and --tls-key must be given together\n$/],
    [['--tls-key', 'KEY'], /^error: --tls-cert and --tls-key must be given together\n$/],
    [['--tls-cert', '/nonexistent/cert.pem', '--tls-key', 'KEY'], /^error: --tls-cert cannot read "\/nonexistent\/cert\.pem": no such file\n$/],
    [['--tls-cert', 'CERT', '--tls-key', 'OTHERKEY'], /^error: --tls-cert and --tls-key: the key does not belong to the certificate\n$/],
    [['--tls-cert', 'KEY', '--tls-key', 'KEY'], /^error: --tls-cert and --tls-key: they are not a PEM certificate and its private key\n$/],
  ])('sandbox serve %j: exit 2 and one line naming the flags', async (args, message) => {
    const sub = (a: string) => (a === 'CERT' ? certs.good.cert : a === 'KEY' ? certs.good.key : a === 'OTHERKEY' ? certs.expired.key : a);
    cases++;
    const r = await runBin(['sandbox', 'serve', '--memory', '--port', '0', ...args.map(sub)], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('no flag of any command and no setting turns certificate checks off', async () => {
    const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
    const flags = walk(buildProgram(commands, async () => {})).flatMap((c) => c.options.map((o) => o.long ?? o.short ?? ''));
    flagsChecked = flags.length;
    expect(flags.length).toBeGreaterThan(100);
    const bypass = /insecure(?!-storage)|no-?verify|skip-?verify|ignore-?cert|reject-?unauthorized|tls-?verify|no-?check-?cert|allow-?self|trust/i;
    expect(flags.filter((f) => bypass.test(f))).toEqual([]);
    const { SETTING_KEYS } = await import('../../src/config/settings.js');
    expect(SETTING_KEYS.filter((k) => bypass.test(k))).toEqual([]);
    // The setting Node itself would honour is not passed to bo's children or taken from its environment.
    const s = await serveTls(certs.selfSigned);
    const t = tempConfig();
    cases++;
    const r = await runBin(['--base-url', s.url, 'lists', 'list'], {
      env: { ...t.env, BO_API_KEY: s.key, BO_API_SECRET: s.secret, NODE_TLS_REJECT_UNAUTHORIZED: '0' },
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the TLS certificate is self-signed/);
  });
});
