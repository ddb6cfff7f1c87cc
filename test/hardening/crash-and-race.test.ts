// Concurrency and crashes, with the built binary (real processes, real SIGKILL):
// 20 `bo --sandbox` writers and 20 `bo config set` calls at once on one data folder and
// one config folder lose no write, first use (seeding) included; and `bo` killed by
// SIGKILL at seeded random points of its writes (sandbox state, config, credentials
// file) leaves files that still load, a lock that never blocks the next run, and every
// write that was reported done still there.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTS, DEFAULT_SEED, seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { runBin, type RunBinResult } from '../helpers/run-bin.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const N = 20;
// Real processes are slow: the long run (`npm run fuzz`) kills at most 400.
const KILL_RUNS = Math.min(fuzzRuns(50), 400);
const PARALLEL = 5;
const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', BO_KEYCHAIN_TIMEOUT: '2' };
const made: string[] = [];
const tally = { runs: 0, killed: 0, acknowledged: 0, lost: 0 };

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  console.log(
    `[hardening] concurrency and crashes: ${tally.runs} bo processes (${tally.killed} killed by SIGKILL mid-run), ` +
      `${tally.acknowledged} acknowledged writes checked, ${tally.lost} writes lost`,
  );
});

/** A data folder and a config folder of their own. */
function folders() {
  const root = mkdtempSync(join(tmpdir(), 'bo-race-'));
  made.push(root);
  const env = { BO_DATA_DIR: join(root, 'data'), BO_CONFIG_DIR: join(root, 'config'), ...noKeychain };
  return { root, env, state: join(root, 'data', 'sandbox-state.json'), config: join(root, 'config', 'config.json'), credentials: join(root, 'config', 'credentials.json') };
}

/** mulberry32: the kill points come from a fixed seed, so a failing run can be repeated. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sandbox state and its activity log as a fresh process opens them; throws when they no longer load. */
async function listNames(stateFile: string): Promise<string[]> {
  const store = await Store.file({ file: stateFile, params: { seed: DEFAULT_SEED, accounts: DEFAULT_ACCOUNTS }, seeder: seedState });
  return store.read((db) => {
    // The activity log beside it (appended under the same lock) reads too.
    expect(Array.isArray(db.activity())).toBe(true);
    return db.all('EmailList').map((l) => String((l as { Name?: unknown }).Name));
  });
}

function run(argv: string[], env: Record<string, string>, killAfterMs?: number, stdin?: string): Promise<RunBinResult> {
  tally.runs++;
  return runBin(argv, {
    env,
    stdin,
    timeoutMs: 60_000,
    onSpawn: killAfterMs === undefined ? undefined : (child) => void setTimeout(() => child.kill('SIGKILL'), killAfterMs),
  });
}

describe('concurrent writers', () => {
  it(`${N} \`bo --sandbox lists create\` and ${N} \`bo config set\` at once, on a first use: no write lost`, async () => {
    const f = folders();
    const results = await Promise.all([
      ...Array.from({ length: N }, (_, i) => run(['--sandbox', '--json', 'lists', 'create', '--name', `race-${i}`], f.env)),
      ...Array.from({ length: N }, (_, i) => run(['-p', `p${i}`, 'config', 'set', 'timeout', String(10 + i)], f.env)),
    ]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, signal: null });
    const created = results.slice(0, N).map((r) => (JSON.parse(r.stdout) as { answer: { Uid: string; Name: string } }).answer);
    expect(new Set(created.map((c) => c.Uid)).size).toBe(N);
    tally.acknowledged += 2 * N;

    const names = await listNames(f.state);
    const missing = Array.from({ length: N }, (_, i) => `race-${i}`).filter((n) => !names.includes(n));
    tally.lost += missing.length;
    expect(missing).toEqual([]);
    const profiles = JSON.parse(readFileSync(f.config, 'utf8')).profiles;
    for (let i = 0; i < N; i++) expect(profiles[`p${i}`], `p${i}`).toEqual({ timeout: 10 + i });
    tally.lost += Array.from({ length: N }, (_, i) => i).filter((i) => profiles[`p${i}`]?.timeout !== 10 + i).length;

    // What a user sees: the next run lists all twenty.
    const listed = await run(['--sandbox', '--json', 'lists', 'list', '--all'], f.env);
    expect(listed.code, listed.stderr).toBe(0);
    const shown = (JSON.parse(listed.stdout) as Array<{ Name: string }>).map((l) => l.Name);
    for (let i = 0; i < N; i++) expect(shown).toContain(`race-${i}`);
    expect(readdirSync(join(f.root, 'data')).filter((n) => /\.(lock|tmp)$|\.tmp-/.test(n))).toEqual([]);
  }, 120_000);
});

describe('bo killed by SIGKILL while it writes', () => {
  it(`${KILL_RUNS} runs killed at seeded random points leave state, config and credentials that load, and lose no acknowledged write`, async () => {
    const f = folders();
    const random = prng(13);
    // How long one run takes here, so the kill points fall throughout its work (seeding included: the first runs find no state).
    const t0 = Date.now();
    const calibration = await run(['--sandbox', 'lists', 'create', '--name', 'calibration'], { ...f.env, BO_DATA_DIR: join(f.root, 'calibration') });
    expect(calibration.code, calibration.stderr).toBe(0);
    const full = Date.now() - t0;

    const acknowledged = { lists: [] as string[], timeouts: new Map<string, number>(), keys: new Map<string, string>() };
    for (let done = 0; done < KILL_RUNS; done += PARALLEL) {
      const batch = Array.from({ length: Math.min(PARALLEL, KILL_RUNS - done) }, (_, j) => {
        const n = done + j;
        const delay = Math.round(full * random() * 1.3);
        const kind = n % 3;
        // Runs of one batch touch distinct profiles, so a later value can only come from a later run.
        if (kind === 0) return run(['--sandbox', 'lists', 'create', '--name', `killed-${n}`], f.env, delay).then((r) => ({ r, ack: () => acknowledged.lists.push(`killed-${n}`) }));
        if (kind === 1) {
          return run(['-p', `p${n % 7}`, 'config', 'set', 'timeout', String(n + 1)], f.env, delay)
            .then((r) => ({ r, ack: () => acknowledged.timeouts.set(`p${n % 7}`, n + 1) }));
        }
        return run(['-p', `k${n % 5}`, '--base-url', `https://127.0.0.${(n % 5) + 2}:1`, 'auth', 'set-key', '--key', `key${n}`, '--secret-stdin', '--insecure-storage'], f.env, delay, `s${n}\n`)
          .then((r) => ({ r, ack: () => acknowledged.keys.set(`k${n % 5}`, `key${n}`) }));
      });
      for (const { r, ack } of await Promise.all(batch)) {
        if (r.signal === 'SIGKILL') tally.killed++;
        else {
          expect(r.code, r.stderr).toBe(0);
          ack();
        }
      }
      // Whatever the moment of the kill, every file still loads.
      const names = await listNames(f.state).catch((e: Error) => expect.fail(`sandbox state no longer loads: ${e.message}`));
      for (const name of acknowledged.lists) if (!names.includes(name)) tally.lost++;
      expect(acknowledged.lists.filter((n) => !names.includes(n))).toEqual([]);
      const [config, credentials] = [f.config, f.credentials].map((file) => {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          return { profiles: {} }; // not written yet: every run that would have written it was killed
        }
        return JSON.parse(text) as { profiles: Record<string, any> };
      });
      // An acknowledged value is still there, or one a later run wrote over it.
      for (const [profile, value] of acknowledged.timeouts) {
        const kept = Number(config!.profiles[profile]?.timeout) >= value;
        if (!kept) tally.lost++;
        expect(config!.profiles[profile]?.timeout, profile).toBeGreaterThanOrEqual(value);
      }
      for (const [profile, key] of acknowledged.keys) {
        const stored = String(credentials!.profiles[profile]?.key ?? '');
        const kept = Number(stored.slice(3)) >= Number(key.slice(3));
        if (!kept) tally.lost++;
        expect(kept, `${profile}: ${stored} after ${key}`).toBe(true);
      }
    }
    tally.acknowledged += acknowledged.lists.length + acknowledged.timeouts.size + acknowledged.keys.size;

    // A run after all the kills is not blocked by a lock a killed run left, and sees the acknowledged writes.
    const listed = await run(['--sandbox', '--json', 'lists', 'list', '--all'], f.env);
    expect(listed.code, listed.stderr).toBe(0);
    const shown = (JSON.parse(listed.stdout) as Array<{ Name: string }>).map((l) => l.Name);
    expect(acknowledged.lists.filter((n) => !shown.includes(n))).toEqual([]);
    const set = await run(['-p', 'after', 'config', 'set', 'timeout', '42'], f.env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(f.config, 'utf8')).profiles.after).toEqual({ timeout: 42 });
    for (const [profile] of acknowledged.keys) {
      const status = await run(['-p', profile, 'auth', 'status', '--json'], f.env);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ source: 'file' });
    }
  }, 120_000 + KILL_RUNS * 2_000);
});
