// A journal run is taken once, on the built binary against `bo sandbox serve --memory`:
// with the stale lock a killed batch left, two `bo batch resume last` started together
// (20 tries): exactly one runs, and the sandbox's activity log shows each remaining
// record sent once; a lock whose pid names a live process that started after it was
// written is taken over with a note; a lock held by a live resume never is. Any size,
// any file: a 200,000-change run file with its input resumes with --dry-run; `last`
// passes over an interrupted single change; a header of another shape is a warning
// (history) or exit 1 (resume), naming the file.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { fakeUids, writeRunFile } from '../helpers/journal-files.js';
import { startTimeOf } from '../../src/journal/run-lock.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

interface Activity {
  method: string;
  path: string;
  status: number;
}

/** Runs `argv` with `lines` on a stdin kept open, killed with SIGKILL once every line's outcome was printed. */
function killedAfterAll(argv: string[], env: Record<string, string>, lines: string[]) {
  let seen = 0;
  // The lines, then nothing for up to 10 s: the batch waits for more, and is killed waiting.
  const stdin = [`${lines.join('\n')}\n`, ...Array.from({ length: 500 }, () => '')];
  return runBin(argv, {
    env,
    stdin,
    onSpawn: (child) =>
      child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString().split('\n').length - 1;
        if (seen >= lines.length) child.kill('SIGKILL');
      }),
  });
}

const runFileOf = (env: Record<string, string>) => {
  const dir = join(env.BO_STATE_DIR!, 'journal');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return { dir, id: file!.slice(0, -'.jsonl'.length) };
};

describe('a journal run is taken once, on the built binary', () => {
  const suite = sandboxForSuite<{ apiKey: { key: string; secret: string } }>(root, { args: ['--accounts', '1400'] });
  const { get } = suite;
  let cancellable: string[];
  const cancelArgs = ['accounts', 'cancel', '-', '--reason', 'Taken once', '--yes'];
  /** PUTs to each account's cancel, counted per account. */
  const cancels = async () => {
    const count = new Map<string, number>();
    for (const a of await get<Activity[]>('/__sandbox/activity')) {
      const uid = /\/crm\/accounts\/([^/]+)\/cancel$/.exec(a.path)?.[1];
      if (a.method === 'PUT' && uid) count.set(uid, (count.get(uid) ?? 0) + 1);
    }
    return count;
  };

  beforeAll(async () => {
    // Accounts a cancellation succeeds for, as an uninterrupted run shows (the sandbox is reset before each test).
    const env = { ...testEnv(suite), BO_JOURNAL: 'off' };
    const listed = await runBin(['accounts', 'list', '--all', '--json', '--fields', 'Uid'], { env });
    const accounts = (JSON.parse(listed.stdout) as Array<{ Uid: string }>).map((a) => a.Uid);
    const all = await runBin([...cancelArgs, '--json'], { env, stdin: `${accounts.join('\n')}\n` });
    cancellable = (JSON.parse(all.stdout) as Array<{ uid: string; ok: boolean }>).filter((o) => o.ok).map((o) => o.uid);
    expect(cancellable.length).toBeGreaterThanOrEqual(20 * 30);
  }, 120_000);

  it('with the stale lock a killed batch left, two resumes started together: exactly one runs, in 20 of 20 tries', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const env = testEnv(suite);
      const uids = cancellable.slice(attempt * 30, attempt * 30 + 30);
      const killed = await killedAfterAll(cancelArgs, env, uids.slice(0, 12));
      expect(killed.signal).toBe('SIGKILL');
      const { dir, id } = runFileOf(env);
      expect(readdirSync(dir)).toContain(`${id}.lock`);

      const input = `${uids.join('\n')}\n`;
      const both = await Promise.all([0, 1].map(() => runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: input })));
      const ran = both.filter((r) => r.code === 0);
      expect(ran, `try ${attempt + 1}: ${both.map((r) => r.stderr).join(' | ')}`).toHaveLength(1);
      expect(ran[0]!.stderr).toMatch(/^note: run \S+ was left locked by process \d+, which has ended: its lock is taken over$/m);
      expect(ran[0]!.stderr).toMatch(/^18 cancelled on /m);
      // The other one: the run is held by the first, or (had the first ended already) there was nothing left.
      const other = both.find((r) => r !== ran[0])!;
      expect(other.stderr).toMatch(/^error: (run \S+ is still going \(process \d+\)|no interrupted batch in the journal|run \S+ finished: there is nothing to resume)/);
      expect(other.stdout).toBe('');

      // Each record sent once in all: the 12 by the killed run, the 18 left by one resume.
      const count = await cancels();
      expect(uids.map((uid) => count.get(uid) ?? 0)).toEqual(uids.map(() => 1));
      const runs = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
      expect(runs).toEqual([expect.objectContaining({ id, state: 'finished', done: 30, failed: 0, unknown: 0 })]);
    }
  }, 300_000);

  it('a lock whose pid names a live process started after the lock was written is taken over with a note; a live resume\'s lock never is', async () => {
    const env = testEnv(suite);
    const uids = cancellable.slice(0, 30);
    expect((await killedAfterAll(cancelArgs, env, uids.slice(0, 5))).signal).toBe('SIGKILL');
    const { dir, id } = runFileOf(env);
    const lock = join(dir, `${id}.lock`);
    // The lock the killed run left: its pid, start time and boot id, and a nonce.
    expect(readFileSync(lock, 'utf8')).toMatch(/^\d+ \d+ [\w-]+ \w+\n$/);
    const [, , boot] = readFileSync(lock, 'utf8').trim().split(' ');

    // The pid now names another process (a sleep), which started after the lock was written.
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const start = startTimeOf(sleeper.pid!);
      expect(start).toMatch(/^\d+$/);
      writeFileSync(lock, `${sleeper.pid} ${Number(start) - 50} ${boot} abcdef12\n`);
      const listed = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ state: string }>;
      expect(listed[0]!.state).toBe('interrupted');

      // A resume that stays alive (its stdin open): it holds the run.
      let resumer = 0;
      const first = runBin(['batch', 'resume', 'last', '--yes'], {
        env,
        stdin: [`${uids.slice(0, 10).join('\n')}\n`, ...Array.from({ length: 150 }, () => ''), `${uids.slice(10).join('\n')}\n`],
        onSpawn: (child) => (resumer = child.pid!),
      });
      // Its lock holds its own pid once it took the run over.
      for (let i = 0; i < 400 && !readFileSync(lock, 'utf8').startsWith(`${resumer} `); i++) await new Promise((r) => setTimeout(r, 10));
      const second = await runBin(['batch', 'resume', id, '--yes'], { env, stdin: `${uids.join('\n')}\n` });
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(`error: run ${id} is still going (process ${resumer}): stop it first, or wait for it\n`);
      const listedRunning = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ state: string; pid: number }>;
      expect(listedRunning[0]).toMatchObject({ state: 'running', pid: resumer });

      const done = await first;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(new RegExp(`^note: run ${id} was left locked by process ${sleeper.pid}, which has ended: its lock is taken over$`, 'm'));
      const count = await cancels();
      expect(uids.map((uid) => count.get(uid) ?? 0)).toEqual(uids.map(() => 1));
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 120_000);

  it('a 200,000-change run file with its input resumes with --dry-run; last passes over a single change; a header of another shape is named', async () => {
    const env = testEnv(suite);
    const dir = join(env.BO_STATE_DIR!, 'journal');
    const uids = fakeUids(200_004);
    writeRunFile(dir, { id: '20261128T050347-bigrun', uids, sent: 200_000, unknown: 2, profile: 'default', origin: suite.url, at: '2026-11-28T05:03:47.000Z' });
    // Newer than the batch: an interrupted single change, which `last` never picks.
    writeRunFile(dir, { id: '20261128T060000-single', uids: [uids[0]!], sent: 1, unknown: 1, batch: false, profile: 'default', origin: suite.url, command: `accounts cancel ${uids[0]} --reason x`, at: '2026-11-28T06:00:00.000Z' });
    const dry = await runBin(['--jsonl', 'batch', 'resume', 'last', '--dry-run'], { env, stdin: `${uids.join('\n')}\n` });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(': 6 request(s) would be sent, 199998 not sent again; nothing was sent.');
    expect(dry.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { uid: string }).uid)).toEqual(uids.slice(199_998));

    const odd = writeRunFile(dir, { id: '20261128T070000-oddone', uids, sent: 1 });
    const lines = readFileSync(odd, 'utf8').split('\n');
    writeFileSync(odd, [lines[0]!.replace('"at":"2026-11-28T05:03:47.000Z"', '"at":{"when":"now"}'), ...lines.slice(1)].join('\n'));
    const history = await runBin(['history', 'list', '--json'], { env });
    expect(history.code).toBe(0);
    expect(history.stderr).toBe(`warning: skipped ${odd}: not a run file this bo can read (its header's at is not a date-time); it is left as it is\n`);
    expect((JSON.parse(history.stdout) as Array<{ id: string }>).map((r) => r.id)).toEqual(['20261128T060000-single', '20261128T050347-bigrun']);
    const resumed = await runBin(['batch', 'resume', '20261128T070000-oddone'], { env, stdin: '' });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toBe(`error: the journal file ${odd} is not a run file this bo can read (its header's at is not a date-time); it is left as it is\n`);
  }, 120_000);
});
