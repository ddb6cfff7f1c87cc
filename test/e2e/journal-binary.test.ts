// The journal of changes on the built binary against `bo sandbox serve --memory
// --accounts 1000`: a batch killed with SIGKILL at generated points leaves an entry for
// every request the sandbox received (its activity log), written before the request; no
// secret value in any file of the state folder; modes 0700/0600; a read-only or full
// journal folder stops a batch before it sends, a single command warns and goes on; HOME
// missing; BO_JOURNAL=off and `journal off`; dry runs and reads write nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

interface Entry {
  t: 'run' | 'send' | 'outcome' | 'end';
  n?: number;
  uid?: string;
  line?: number;
  status?: number;
  ok?: boolean;
  command?: string;
  [k: string]: unknown;
}

/** The journal files of a state folder, each as its entries. */
function journals(state: string): Array<{ id: string; entries: Entry[]; locked: boolean }> {
  const dir = join(state, 'journal');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => {
      const id = f.replace(/\.jsonl$/, '');
      const entries = readFileSync(join(dir, f), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Entry);
      return { id, entries, locked: existsSync(join(dir, `${id}.lock`)) };
    })
    .sort((a, b) => String(a.entries[0]!.at).localeCompare(String(b.entries[0]!.at)));
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Whether this process may mount a tmpfs (root in a container that allows it). */
function canMount(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'bo-mnt-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the journal of changes, on the built binary', () => {
  const suite = sandboxForSuite<{ accounts: string[]; apiKey: { key: string; secret: string } }>(root, { args: ['--accounts', '1000'] });
  const { get } = suite;
  /** The accounts the sandbox received an extend-trial PUT for, in order (its activity log). */
  const received = async () =>
    (await get<Array<{ method: string; path: string }>>('/__sandbox/activity'))
      .filter((a) => a.method === 'PUT')
      .map((a) => /\/crm\/accounts\/([^/]+)\/extend-trial$/.exec(a.path)![1]!);
  const writes = async () => (await get<Array<{ method: string }>>('/__sandbox/activity')).filter((a) => a.method !== 'GET').length;


  const extend = (env: Record<string, string | undefined>, uids: string[], extra: Parameters<typeof runBin>[1] = {}) =>
    runBin(['accounts', 'extend-trial', '-', '--to', '2031-01-31'], { env, stdin: `${uids.join('\n')}\n`, ...extra });

  it('an uninterrupted batch: one entry before and one outcome after each request, then the end; the lock is gone', async () => {
    const env = testEnv(suite);
    const uids = suite.fixtures.accounts.slice(0, 40);
    const r = await extend(env, uids);
    const printed = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const [run] = journals(env.BO_STATE_DIR!);
    expect(journals(env.BO_STATE_DIR!)).toHaveLength(1);
    expect(run!.id).toMatch(/^\d{8}T\d{6}-[a-z2-7]{6}$/);
    expect(run!.locked).toBe(false);
    const [header, ...rest] = run!.entries;
    expect(header).toMatchObject({ t: 'run', run: run!.id, batch: true, profile: 'default', origin: suite.url, command: 'accounts extend-trial - --to 2031-01-31' });
    expect(rest.at(-1)).toMatchObject({ t: 'end' });
    const sends = rest.filter((e) => e.t === 'send');
    expect(sends.map((e) => e.uid).sort()).toEqual([...uids].sort());
    expect(sends.map((e) => e.line).sort((a, b) => a! - b!)).toEqual(uids.map((_, i) => i + 1));
    for (const s of sends) expect(s).toMatchObject({ method: 'PUT', path: `/crm/accounts/${s.uid}/extend-trial`, fields: ['ToDate'] });
    // Each outcome after its own entry, saying what stdout said.
    const outcomes = new Map(rest.filter((e) => e.t === 'outcome').map((e) => [sends.find((s) => s.n === e.n)!.uid, e]));
    expect(outcomes.size).toBe(uids.length);
    for (const [uid, ok] of printed) expect(outcomes.get(uid!)!.ok).toBe(ok === 'ok');
    for (const o of rest.filter((e) => e.t === 'outcome')) {
      expect(rest.findIndex((e) => e.t === 'send' && e.n === o.n)).toBeLessThan(rest.indexOf(o));
    }
    expect((await received()).sort()).toEqual([...uids].sort());
  });

  // A property over kill points: wherever the process dies, every request the sandbox
  // received has its entry in the journal, and every outcome printed was journaled.
  // Generated kill points (fast-check, seeded: the same on every run).
  const killAfter = fc.sample(fc.integer({ min: 1, max: 900 }), { numRuns: 4, seed: 33 });
  it.each(killAfter)('SIGKILL after %i printed outcomes of 1,000: every request received was journaled before it was sent', async (n) => {
    const env = testEnv(suite);
    const uids = suite.fixtures.accounts.slice(0, 1000);
    expect(uids).toHaveLength(1000);
    let lines = 0;
    const r = await extend(env, uids, {
      onSpawn: (child) =>
        child.stdout!.on('data', (d: Buffer) => {
          lines += d.toString().split('\n').length - 1;
          if (lines >= n) child.kill('SIGKILL');
        }),
    });
    expect(r.signal).toBe('SIGKILL');
    const runs = journals(env.BO_STATE_DIR!);
    expect(runs).toHaveLength(1);
    const { entries, locked } = runs[0]!;
    // Killed: no end, and the lock (its pid, dead now) still there.
    expect(entries.some((e) => e.t === 'end')).toBe(false);
    expect(locked).toBe(true);
    const sent = entries.filter((e) => e.t === 'send');
    const got = await received();
    expect(got.length).toBeGreaterThan(0);
    // Each received at most once, and each with its entry.
    expect(new Set(got).size).toBe(got.length);
    const journaled = new Set(sent.map((e) => e.uid));
    expect(got.filter((u) => !journaled.has(u))).toEqual([]);
    // Every outcome printed on stdout is in the journal.
    const withOutcome = new Set(entries.filter((e) => e.t === 'outcome').map((e) => sent.find((s) => s.n === e.n)!.uid));
    const printed = r.stdout.split('\n').filter((l) => l.includes('\t')).map((l) => l.split('\t')[0]!);
    expect(printed.length).toBeGreaterThanOrEqual(Math.min(n, 1));
    expect(printed.filter((u) => !withOutcome.has(u))).toEqual([]);
  }, 120_000);

  it('no secret value in any file of the state folder; folders 0700, files 0600', async () => {
    const env = testEnv(suite);
    const token = 'tok_journal_secret_4b8f2c';
    const account = suite.fixtures.accounts[0]!;
    const pay = await runBin(['payment-info', 'update', '--account', account, '--payment-token', '-', '--last4', '4242'], { env, stdin: `${token}\n` });
    expect(pay.stderr).toBe('');
    expect(pay.code).toBe(0);
    const api = await runBin(['api', '-X', 'POST', '/email/lists', '-F', 'Name=Journal secret list', '-F', 'RequiresDoubleOptIn=false'], { env });
    expect(api.code).toBe(0);
    const batch = await extend(env, suite.fixtures.accounts.slice(0, 5));
    expect(batch.signal).toBeNull();

    const state = env.BO_STATE_DIR!;
    const runs = journals(state);
    expect(runs.map((r) => r.entries[0]!.command)).toEqual([
      `payment-info update --account ${account} --payment-token *** --last4 4242`,
      'api -X POST /email/lists',
      'accounts extend-trial - --to 2031-01-31',
    ]);
    expect(runs[0]!.entries.find((e) => e.t === 'send')).toMatchObject({ fields: ['PaymentToken', 'LastFourDigits', 'Account'] });
    const files = filesUnder(state);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of [token, suite.fixtures.apiKey.secret, suite.fixtures.apiKey.key, 'Journal secret list']) {
        expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
      }
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    for (const dir of [state, join(state, 'journal')]) expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('HOME missing, no BO_STATE_DIR or XDG_STATE_HOME: a batch refuses before sending (exit 1), a single command warns and goes on', async () => {
    const env = { ...testEnv(suite), BO_STATE_DIR: undefined, XDG_STATE_HOME: undefined, HOME: '/nonexistent/home' };
    const batch = await extend(env, suite.fixtures.accounts.slice(0, 3));
    expect(batch.code).toBe(1);
    expect(batch.stdout).toBe('');
    expect(batch.stderr).toBe(
      'error: no state folder for the journal (HOME is not set or does not exist): set BO_STATE_DIR to a writable folder, or BO_JOURNAL=off to run without a journal; nothing was sent\n',
    );
    expect(await writes()).toBe(0);
    expect(existsSync('/nonexistent/home')).toBe(false);

    const single = await runBin(['accounts', 'extend-trial', suite.fixtures.accounts[0]!, '--to', '2031-01-31'], { env });
    expect(single.stderr).toMatch(/^warning: no state folder for the journal \(HOME is not set or does not exist\); this change is not journaled/);
    expect(await writes()).toBe(1);
  });

  it('BO_JOURNAL=off, `bo config set journal off`, dry runs and reads write no journal', async () => {
    const env = testEnv(suite);
    const uids = suite.fixtures.accounts.slice(0, 3);
    expect((await extend({ ...env, BO_JOURNAL: 'off' }, uids)).signal).toBeNull();
    expect(journals(env.BO_STATE_DIR!)).toEqual([]);
    expect((await extend(env, uids)).signal).toBeNull();
    expect((await runBin(['accounts', 'extend-trial', '-', '--to', '2032-01-31', '--dry-run'], { env, stdin: `${uids[0]}\n` })).code).toBe(0);
    expect((await runBin(['api', '/crm/accounts', '-F', 'limit=1', '-X', 'GET'], { env })).code).toBe(0);
    expect((await runBin(['api', '-X', 'DELETE', '/email/campaigns/drips/drip_x', '--dry-run'], { env })).code).toBe(0);
    // Only the one journaled batch (the second run above).
    expect(journals(env.BO_STATE_DIR!)).toHaveLength(1);
    expect((await runBin(['config', 'set', 'journal', 'off'], { env })).code).toBe(0);
    expect((await extend(env, uids)).signal).toBeNull();
    expect(journals(env.BO_STATE_DIR!)).toHaveLength(1);
    const bad = await runBin(['config', 'set', 'journal', 'maybe'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: journal must be on or off, got "maybe"\n');
  });

  describe.skipIf(!canMount())('a journal folder that cannot be written (a tmpfs mounted here: needs root)', () => {
    const mounts: string[] = [];
    const mountTmpfs = (options: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'bo-journal-fs-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
      mounts.push(dir);
      return dir;
    };
    afterAll(() => {
      for (const dir of mounts) {
        execFileSync('umount', [dir]);
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('read-only: a batch exits 1 naming the folder, nothing sent; a single command warns and goes on', async () => {
      const ro = mountTmpfs('ro,size=64k');
      const env = testEnv(suite, { BO_STATE_DIR: ro });
      const batch = await extend(env, suite.fixtures.accounts.slice(0, 3));
      expect(batch.code).toBe(1);
      expect(batch.stdout).toBe('');
      expect(batch.stderr).toBe(
        `error: cannot write the journal in ${ro}/journal: read-only file system; nothing was sent (set BO_STATE_DIR to a writable folder, or BO_JOURNAL=off to run without a journal)\n`,
      );
      expect(await writes()).toBe(0);
      const single = await runBin(['accounts', 'extend-trial', suite.fixtures.accounts[0]!, '--to', '2031-01-31'], { env });
      // (The seeded account may not be in trial: the server's answer does not matter here.)
      expect(single.stderr.split('\n')[0]).toBe(`warning: cannot write the journal in ${ro}/journal: read-only file system; this change is not journaled`);
      expect(await writes()).toBe(1);
    });

    it('a full disk: a batch exits 1 before sending; once the disk fills mid-batch, it stops sending, and what it sent was journaled', async () => {
      const full = mountTmpfs('size=64k');
      writeFileSync(join(full, 'filler'), Buffer.alloc(64 * 1024));
      const env = testEnv(suite, { BO_STATE_DIR: full });
      const batch = await extend(env, suite.fixtures.accounts.slice(0, 3));
      expect(batch.code).toBe(1);
      expect(batch.stderr).toMatch(new RegExp(`^error: cannot write the journal in ${full}/journal: no space left on the device; nothing was sent`));
      expect(await writes()).toBe(0);

      // Room for the folder, the key and a page of entries, not for 200 records' entries.
      rmSync(join(full, 'filler'));
      mkdirSync(join(full, 'journal'), { recursive: true, mode: 0o700 });
      writeFileSync(join(full, 'filler'), Buffer.alloc(64 * 1024 - 3 * 4096));
      const uids = suite.fixtures.accounts.slice(0, 200);
      const r = await extend(env, uids);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`batch stopped: cannot write the journal in ${full}/journal: no space left on the device; \\d+ record\\(s\\) not attempted`));
      const got = await received();
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(uids.length);
      const sent = new Set(journals(full)[0]!.entries.filter((e) => e.t === 'send').map((e) => e.uid));
      expect(got.filter((u) => !sent.has(u))).toEqual([]);
    });
  });
});
