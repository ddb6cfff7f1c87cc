// Secrets: a whole admin session with the built `bo` under strace, against a sandbox
// over real HTTP and the real keychain (gnome-keyring, .ci/keyring.sh): API key, plain,
// TOTP, email and recovery-code logins, forced enrollment, --verbose traces, auth token,
// a wrong password, the 0600 file, logout, bo doctor. The canaries are every secret of the session:
// passwords (and a wrong one), the API secret, tokens, TOTP secrets, recovery codes and
// the codes that were emailed. Every stdout, stderr, --verbose trace, config and data
// file, and the argv and environment of every process bo started (keychain helper,
// --code-command and its shell) are scanned. Allowed, and nothing else: the token on
// `bo auth token`'s stdout, BO_TOTP_SECRET in the enrollment run's --code-command (off
// a terminal that run shows neither the secret nor the recovery codes: they go to
// --recovery-codes-file), and what the caller itself put in bo's environment. Then stored credentials are offered other origins, named every
// way a base URL can be: a recording server must never see one.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { keyringEnv, secretToolLookup } from '../helpers/keyring.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runBin, type TracedResult } from '../helpers/run-bin.js';

let sb: TestSandbox;
let recorder: FaultServer;
let root: string;
let env: Record<string, string>;
const tag = `${process.pid}${Date.now().toString(36)}`;
const WRONG_PASSWORD = `wrong-canary-password-${tag}`;
const runs: Array<{ name: string; r: TracedResult; allowed: (kind: 'stdout' | 'stderr' | 'child', canary: string) => boolean }> = [];
const tally = { runs: 0, children: 0, canaries: 0, scanned: 0, leaks: 0, offered: 0, received: 0 };

beforeAll(async () => {
  sb = await startTestSandbox();
  recorder = await startFaultServer();
  root = mkdtempSync(join(tmpdir(), 'bo-secrets-'));
  env = { ...keyringEnv(), BO_CONFIG_DIR: join(root, 'config'), BO_DATA_DIR: join(root, 'data'), BO_BASE_URL: sb.url };
  // A --code-command that reads the TOTP secret from a file it is given by path, never by value.
  writeFileSync(join(root, 'totp.mjs'), `
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
const text = (process.argv[2] ? readFileSync(process.argv[2], 'utf8') : process.env.BO_TOTP_SECRET).trim();
const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const bits = [...text].map((c) => a.indexOf(c).toString(2).padStart(5, '0')).join('');
const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
const t = Buffer.alloc(8); t.writeBigUInt64BE(BigInt(Math.floor(Number(process.env.NOW_MS ?? Date.now()) / 30000)));
const h = createHmac('sha1', key).update(t).digest(); const o = h[19] & 15;
console.log(String((h.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, '0'));
`);
});

afterAll(async () => {
  await sb?.close();
  await recorder?.close();
  rmSync(root, { recursive: true, force: true });
  console.log(
    `[hardening] secrets: ${tally.runs} bo runs, ${tally.children} child processes, ${tally.scanned} outputs, traces, files, argv and environments scanned ` +
      `for ${tally.canaries} canaries: ${tally.leaks} leaks; stored credentials offered ${tally.offered} foreign origins: ${tally.received} received`,
  );
});

const none = () => false;

async function bo(name: string, argv: string[], opts: { stdin?: string; env?: Record<string, string>; allowed?: (kind: 'stdout' | 'stderr' | 'child', canary: string) => boolean } = {}) {
  const r = await runBin(argv, { env: { ...env, ...opts.env }, stdin: opts.stdin, trace: true });
  tally.runs++;
  tally.children += r.children.length;
  runs.push({ name, r, allowed: opts.allowed ?? none });
  return r;
}

/** Word-bounded for the short ones (6-digit codes), plain for the rest. */
function holds(text: string, canary: string): boolean {
  if (/^\d{6}$/.test(canary)) return new RegExp(`(?<![0-9A-Za-z])${canary}(?![0-9A-Za-z])`).test(text);
  return text.includes(canary);
}

function filesUnder(dir: string): string[] {
  let out: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const n of names) {
    const p = join(dir, n);
    out = statSync(p).isDirectory() ? [...out, ...filesUnder(p)] : [...out, p];
  }
  return out;
}

describe('secrets over a whole session', () => {
  it('no canary reaches an output, trace, file, argument or child environment it is not allowed in', async () => {
    const users = Object.fromEntries(sb.fixtures.users.map((u) => [u.kind, u]));
    const { key, secret } = sb.fixtures.apiKey;
    writeFileSync(join(root, 'totp-secret'), `${users.totp!.totpSecret}\n`);
    const totpCmd = `node ${join(root, 'totp.mjs')} ${join(root, 'totp-secret')}`;
    const mailbox = `node -e "fetch('${sb.url}/__sandbox/outbox').then(r=>r.json()).then(m=>console.log('code: '+m.at(-1).code))"`;

    // API key: stored in the keychain, used with --verbose, shown by status.
    expect((await bo('set-key', ['auth', 'set-key', '--key', key, '--secret-stdin'], { stdin: `${secret}\n` })).code).toBe(0);
    for (const args of [['--verbose', 'lists', 'list'], ['--verbose', '--json', 'accounts', 'list', '--limit', '2'], ['--verbose', 'auth', 'status', '--json'], ['--verbose', 'doctor'], ['config', 'list']]) {
      const r = await bo(args.join(' '), args);
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await bo('logout', ['logout'])).code).toBe(0);
    // A second API key stays stored, for the origin checks below.
    expect((await bo('set-key kept', ['-p', 'key', 'auth', 'set-key', '--key', key, '--secret-stdin'], { stdin: `${secret}\n` })).code).toBe(0);

    // Passwords: plain, TOTP by --code-command, email by --code-command, a recovery code, a wrong password.
    const login = (profile: string, user: string, extra: string[], stdin: string, more: Parameters<typeof bo>[2] = {}) =>
      bo(`login ${profile}`, ['-p', profile, 'login', '--username', user, '--password-stdin', ...extra], { stdin, ...more });
    expect((await login('plain', users.plain!.username, [], `${users.plain!.password}\n`)).code).toBe(0);
    expect((await login('totp', users.totp!.username, ['--code-command', totpCmd], `${users.totp!.password}\n`)).code).toBe(0);
    expect((await login('email', users.email!.username, ['--code-command', mailbox], `${users.email!.password}\n`)).code).toBe(0);
    expect((await login('recovery', users.both!.username, ['--mechanism', 'totp', '--recovery-code-stdin'], `${users.both!.password}\n${users.both!.recoveryCodes[0]}\n`)).code).toBe(0);
    const wrong = await login('wrong', users.plain!.username, [], `${WRONG_PASSWORD}\n`);
    expect(wrong.code).toBe(4);
    // Forced enrollment: the new TOTP secret reaches the --code-command as BO_TOTP_SECRET; the recovery codes are shown once.
    const enrollCmd = `node ${join(root, 'totp.mjs')}`;
    const codesFile = join(root, 'enroll-codes.txt');
    const enroll = await login('enroll', users.enroll!.username, ['--enroll', 'totp', '--code-command', enrollCmd, '--recovery-codes-file', codesFile], `${users.enroll!.password}\n`);
    expect(enroll.code, enroll.stderr).toBe(0);
    // Tokens: used with --verbose, printed by auth token (allowed there only), stored in the 0600 file with --insecure-storage.
    expect((await bo('verbose with token', ['-p', 'plain', '--verbose', 'lists', 'list'])).code).toBe(0);
    const doctor = await bo('doctor with token', ['-p', 'plain', '--verbose', 'doctor', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const token = await bo('auth token', ['-p', 'plain', 'auth', 'token'], { allowed: (kind) => kind === 'stdout' });
    expect(token.code).toBe(0);
    expect((await login('file', users.plain!.username, ['--insecure-storage'], `${users.plain!.password}\n`)).code).toBe(0);
    expect((await bo('file verbose', ['-p', 'file', '--verbose', '--json', 'accounts', 'list', '--limit', '1'])).code).toBe(0);
    expect((await bo('status file', ['-p', 'file', 'auth', 'status'])).code).toBe(0);
    // The caller's own variables reach children that inherit them: allowed, and only those.
    const envKey = await bo('env key', ['-p', 'envkey', '--verbose', 'lists', 'list'], { env: { BO_API_KEY: key, BO_API_SECRET: secret } });
    expect(envKey.code).toBe(0);

    // The canaries, now that the session made them all.
    const after = (await sb.raw('GET', '/__sandbox/fixtures')).body as typeof sb.fixtures;
    const enrolled = after.users.find((u) => u.kind === 'enroll')!;
    // `default` held the API key and was logged out; the others hold tokens.
    expect(secretToolLookup('default')).toBeNull();
    const tokenOf = Object.fromEntries(['plain', 'totp', 'email', 'recovery', 'enroll'].map((p) => [p, JSON.parse(secretToolLookup(p) ?? '{}').token as string]));
    const tokens = Object.values(tokenOf).filter((t) => typeof t === 'string');
    const fileToken = JSON.parse(readFileSync(join(root, 'config', 'credentials.json'), 'utf8')).profiles.file.token as string;
    expect(tokens.length).toBe(5);
    const mails = await sb.outbox();
    const canaries = new Map<string, string>([
      ['API secret', secret],
      ['wrong password', WRONG_PASSWORD],
      ...sb.fixtures.users.map((u) => [`password of ${u.kind}`, u.password] as [string, string]),
      ...after.users.flatMap((u) => (u.totpSecret ? [[`TOTP secret of ${u.kind}`, u.totpSecret] as [string, string]] : [])),
      ...after.users.flatMap((u) => u.recoveryCodes.map((c, i) => [`recovery code ${i} of ${u.kind}`, c] as [string, string])),
      ...sb.fixtures.users.flatMap((u) => u.recoveryCodes.map((c, i) => [`seeded recovery code ${i} of ${u.kind}`, c] as [string, string])),
      ...[...tokens, fileToken].flatMap((t, i) => [[`token ${i}`, t], [`token ${i} signature`, t.split('.')[2]!]] as Array<[string, string]>),
      ...mails.flatMap((m, i) => (m.code ? [[`emailed code ${i}`, m.code] as [string, string]] : [])),
    ]);
    expect(canaries.size).toBeGreaterThan(40);
    tally.canaries = canaries.size;
    expect(token.stdout.trim()).toBe(tokenOf.plain);

    const leaks: string[] = [];
    const scan = (where: string, text: string, allowed: (canary: string) => boolean = () => false) => {
      tally.scanned++;
      for (const [name, value] of canaries) if (holds(text, value) && !allowed(value)) leaks.push(`${name} in ${where}`);
    };
    for (const { name, r, allowed } of runs) {
      const own = new Set(r.env);
      scan(`stdout of ${name}`, r.stdout, (c) => allowed('stdout', c));
      scan(`stderr of ${name}`, r.stderr, (c) => allowed('stderr', c));
      for (const child of r.children) {
        scan(`argv of ${child.argv.slice(0, 2).join(' ')} started by ${name}`, child.argv.join('\n'));
        // A variable is allowed when the caller set it for bo, or it is BO_TOTP_SECRET of the enrollment run.
        const added = child.env.filter((v) => !own.has(v) && !(name === 'login enroll' && v.startsWith('BO_TOTP_SECRET=')));
        scan(`environment of ${child.argv[0]} started by ${name}`, added.join('\n'));
      }
    }
    // Config and data files; credentials.json is the 0600 store itself and holds exactly the one token.
    for (const file of [...filesUnder(join(root, 'config')), ...filesUnder(join(root, 'data'))]) {
      if (file.endsWith('credentials.json')) continue;
      scan(file, readFileSync(file, 'utf8'));
    }
    expect(readFileSync(codesFile, 'utf8').trim().split('\n')).toEqual(enrolled.recoveryCodes);
    tally.leaks += leaks.length;
    expect(leaks).toEqual([]);
    // Off a terminal, with --recovery-codes-file, the enrollment run shows neither the secret nor the codes (the scan found
    // none); the codes went to the file, and the code command got the secret in BO_TOTP_SECRET.
    const enrollChildren = enroll.children.filter((c) => c.env.some((v) => v === `BO_TOTP_SECRET=${enrolled.totpSecret}`));
    expect(enrollChildren.length).toBeGreaterThan(0);
    // And the keychain helper did run, with the secret on its stdin only.
    expect(runs[0]!.r.children.some((c) => c.argv.at(-1) === '__keychain')).toBe(true);
  }, 180_000);

  it('stored credentials never reach another origin, however the base URL is named', async () => {
    const port = new URL(recorder.url).port;
    const other = [
      ['--base-url flag', { args: ['--base-url', recorder.url] }],
      ['--base-url with a trailing slash and path', { args: ['--base-url', `${recorder.url}/api/v1/`] }],
      ['BO_BASE_URL', { env: { BO_BASE_URL: recorder.url } }],
      ['localhost for 127.0.0.1', { args: ['--base-url', `http://localhost:${port}`] }],
      ['upper-case host', { args: ['--base-url', `HTTP://LOCALHOST:${port}`] }],
      ['user info before the host', { args: ['--base-url', `http://${new URL(sb.url).host}@127.0.0.1:${port}`] }],
    ] as const;
    // An API key and a token in the keychain, a token in the 0600 file.
    for (const profile of ['key', 'plain', 'file']) {
      for (const [name, how] of other) {
        const before = recorder.requests.length;
        const r = await runBin(['-p', profile, ...('args' in how ? how.args : []), 'lists', 'list'], { env: { ...env, ...('env' in how ? how.env : {}) }, trace: true });
        tally.offered++;
        const got = recorder.requests.slice(before);
        const withCredential = got.filter((q) => q.headers.authorization !== undefined);
        tally.received += withCredential.length;
        expect(withCredential.map((q) => `${profile} via ${name}: ${q.headers.authorization}`)).toEqual([]);
        // Refused before anything is sent: a usage error for a URL bo will not take, an auth error for a foreign origin.
        expect(got.length, `${profile} via ${name}`).toBe(0);
        expect([2, 4], `${profile} via ${name}: ${r.stderr}`).toContain(r.code);
        expect(r.stderr, `${profile} via ${name}`).toMatch(/^error: [^\n]+\n(hint: [^\n]+\n)?$/);
      }
    }
    // A profile's own config can point it elsewhere too: the stored credential still stays home.
    const set = await runBin(['-p', 'plain', 'config', 'set', 'base-url', recorder.url], { env, trace: true });
    expect(set.code, set.stderr).toBe(0);
    const before = recorder.requests.length;
    const { BO_BASE_URL: _fromEnv, ...withoutBaseUrl } = env;
    const moved = await runBin(['-p', 'plain', 'lists', 'list'], { env: withoutBaseUrl, trace: true });
    tally.offered++;
    const received = recorder.requests.slice(before).filter((q) => q.headers.authorization !== undefined).length;
    tally.received += received;
    expect(received).toBe(0);
    expect(moved.code, moved.stderr).toBe(4);
  }, 180_000);
});
