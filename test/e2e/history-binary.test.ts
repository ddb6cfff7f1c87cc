// `bo history list` and `bo history show` on the built binary against `bo sandbox serve
// --memory`: runs newest first with their counts, a killed run read as interrupted with
// its unknown changes, a live run as running with its pid, the stable --json/--jsonl
// shapes, --since, -p, --failed, and the note when the journal is off.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { binPath, runBin, runShell } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

const RUN_KEYS = ['id', 'startedAt', 'profile', 'origin', 'command', 'batch', 'input', 'done', 'changed', 'unchanged', 'failed', 'unknown', 'notAttempted', 'skipped', 'unread', 'state', 'pid', 'bytes'];
const CHANGE_KEYS = ['line', 'uid', 'method', 'path', 'fields', 'sentAt', 'outcome', 'changed', 'reason', 'status', 'code'];

describe('bo history, on the built binary', () => {
  const suite = sandboxForSuite<{ accounts: string[]; apiKey: { key: string; secret: string } }>(root);
  const { get } = suite;
  let trial: string[];
  let notTrial: string[];

  beforeAll(async () => {
    const env = testEnv(suite);
    const stages = await runBin(['--jsonl', 'accounts', 'list', '--all', '--fields', 'Uid,AccountStage'], { env });
    const rows = stages.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { Uid: string; AccountStage: number });
    trial = rows.filter((r) => r.AccountStage === 2).map((r) => r.Uid);
    notTrial = rows.filter((r) => r.AccountStage !== 2).map((r) => r.Uid);
    expect(trial.length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('lists runs newest first with their counts; show lists each change; --failed --jsonl gives the failed records', async () => {
    const env = testEnv(suite);
    const records = [trial[0]!, notTrial[0]!, trial[1]!];
    const batch = await runBin(['accounts', 'extend-trial', '-', '--to', '2031-01-31'], { env, stdin: `${records.join('\n')}\n` });
    expect(batch.code).toBe(1);
    const single = await runBin(['accounts', 'extend-trial', trial[2]!, '--to', '2031-02-28'], { env });
    expect(single.code).toBe(0);

    const list = await runBin(['history', 'list', '--json'], { env });
    expect(list.code).toBe(0);
    const runs = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(runs).toHaveLength(2);
    for (const r of runs) expect(Object.keys(r)).toEqual(RUN_KEYS);
    expect(runs[0]).toMatchObject({ command: `accounts extend-trial ${trial[2]} --to 2031-02-28`, batch: false, done: 1, changed: 1, unchanged: 0, failed: 0, unknown: 0, state: 'finished', pid: null });
    expect(runs[1]).toMatchObject({ command: 'accounts extend-trial - --to 2031-01-31', batch: true, profile: 'default', origin: suite.url, done: 2, changed: 2, unchanged: 0, failed: 1, unknown: 0, notAttempted: 0, skipped: 0, unread: false, state: 'finished' });

    const table = await runBin(['history', 'list'], { env });
    expect(table.stdout.trimEnd().split('\n').map((l) => l.split('\t').slice(4))).toEqual([
      ['1', '1', '0', '0', '0', '0', 'finished', `bo accounts extend-trial ${trial[2]} --to 2031-02-28`],
      ['2', '2', '0', '1', '0', '0', 'finished', 'bo accounts extend-trial - --to 2031-01-31'],
    ]);

    const id = runs[1]!.id as string;
    const show = await runBin(['history', 'show', id, '--jsonl'], { env });
    expect(show.code).toBe(0);
    const changes = show.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const c of changes) expect(Object.keys(c)).toEqual(CHANGE_KEYS);
    // D32: an extension accepted moved the trial; a refusal (400) changed nothing.
    expect(changes.map((c) => [c.line, c.uid, c.outcome, c.changed, c.reason, c.status])).toEqual([
      [1, records[0], 'done', true, null, 200],
      [2, records[1], 'failed', false, 'refused', 400],
      [3, records[2], 'done', true, null, 200],
    ]);
    expect(show.stderr).toBe(`Run ${id} (finished): 2 done (2 changed), 1 failed, 0 unknown.\n`);

    const failed = await runBin(['history', 'show', id, '--failed', '--jsonl'], { env });
    expect(failed.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { uid: string }).uid)).toEqual([notTrial[0]]);
    // The failed records' rows (the Uid first) fed to a retry, as the docs' recipe does.
    const retry = await runShell(`set -o pipefail; $BO history show ${id} --failed | $BO accounts extend-trial - --to 2031-01-31 --dry-run`, { env });
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(new RegExp(`^PUT \\S+/crm/accounts/${notTrial[0]}/extend-trial\\t`));

    const last = await runBin(['history', 'show', 'last', '--json'], { env });
    expect((JSON.parse(last.stdout) as Array<{ uid: string }>).map((c) => c.uid)).toEqual([trial[2]]);
  });

  it('--since, -p and --failed filter the runs; bad input is one line, exit 2; an unknown run is exit 3', async () => {
    const env = testEnv(suite);
    await runBin(['accounts', 'extend-trial', '-', '--to', '2031-01-31'], { env, stdin: `${notTrial[0]}\n` });
    await runBin(['accounts', 'extend-trial', trial[0]!, '--to', '2031-01-31'], { env });
    const ids = async (args: string[]) => {
      const r = await runBin(['history', 'list', '--jsonl', ...args], { env });
      expect(r.code).toBe(0);
      return r.stdout === '' ? [] : r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { command: string }).command.split(' ')[2]);
    };
    expect(await ids([])).toEqual([trial[0], '-']);
    expect(await ids(['--since', '2h'])).toEqual([trial[0], '-']);
    expect(await ids(['--since', '2999-01-01'])).toEqual([]);
    expect(await ids(['--since', '2000-01-01T00:00:00Z'])).toEqual([trial[0], '-']);
    expect(await ids(['--failed'])).toEqual(['-']);
    expect(await ids(['-p', 'other'])).toEqual([]);
    expect(await ids(['-p', 'default'])).toEqual([trial[0], '-']);
    // --limit: the newest n; --all (the default): every one.
    expect(await ids(['--limit', '1'])).toEqual([trial[0]]);
    expect(await ids(['--limit', '5'])).toEqual([trial[0], '-']);
    expect(await ids(['--all'])).toEqual([trial[0], '-']);
    expect(await ids(['--failed', '--limit', '1'])).toEqual(['-']);
    for (const [args, message] of [
      [['--limit', '0'], 'error: --limit must be a positive integer, not "0"\n'],
      [['--limit', '1', '--all'], 'error: --limit cannot be combined with --all\n'],
    ] as const) {
      const r = await runBin(['history', 'list', ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(message);
    }

    const bad = await runBin(['history', 'list', '--since', 'yesterday'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --since must be a date (YYYY-MM-DD), a date-time with a zone, or a duration such as 30m, 2h, 7d or 2w, not "yesterday"\n');
    const badRun = await runBin(['history', 'show', 'nope'], { env });
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toBe('error: <run> must be a run id such as 20261128T050347-c3x7f3, or last; got "nope"\n');
    const missing = await runBin(['history', 'show', '20200101T000000-aaaaaa'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe('error: no run 20200101T000000-aaaaaa in the journal\n');
  });

  it('a live run reads as running with its pid; killed, as interrupted', async () => {
    const env = testEnv(suite);
    const journal = join(env.BO_STATE_DIR!, 'journal');
    // stdin stays open after one record, so the run is alive while history looks at it.
    const child = spawn(process.execPath, [binPath, 'accounts', 'extend-trial', '-', '--to', '2031-01-31'], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.stdin.write(`${trial[0]}\n`);
    const pid = child.pid!;
    // Wait (polling, no time assertion) for its outcome to be journaled.
    const outcomeWritten = () => existsSync(journal) && readdirSync(journal).some((f) => f.endsWith('.jsonl'));
    for (let i = 0; i < 400 && !outcomeWritten(); i++) await new Promise((r) => setTimeout(r, 25));
    let live: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 400; i++) {
      live = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
      if (live[0]?.done === 1) break;
    }
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ state: 'running', pid, done: 1, unknown: 0 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const after = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(after[0]).toMatchObject({ state: 'interrupted', pid: null, done: 1, notAttempted: null, unread: null });
  }, 60_000);

  it('a batch stopped by --fail-fast: the records it did not attempt are counted, as its summary said', async () => {
    const env = testEnv(suite);
    const records = [notTrial[0]!, trial[0]!, trial[1]!];
    const batch = await runBin(['accounts', 'extend-trial', '-', '--to', '2031-01-31', '--fail-fast', '--concurrency', '1'], { env, stdin: `${records.join('\n')}\n` });
    expect(batch.code).toBe(1);
    const summary = /^0 extended, 1 failed, (\d+) not attempted on \S+ \(profile default\)(; the rest of stdin was not read)?$/m.exec(batch.stderr);
    expect(summary, batch.stderr).not.toBeNull();
    const [notAttempted, unread] = [Number(summary![1]), summary![2] !== undefined];
    expect(notAttempted).toBeGreaterThan(0);
    const [run] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(run).toMatchObject({ done: 0, failed: 1, unknown: 0, notAttempted, unread, state: 'finished' });
    const table = await runBin(['history', 'list'], { env });
    expect(table.stdout.trimEnd().split('\t').slice(4, 11)).toEqual(['0', '0', '0', '1', '0', `${notAttempted}${unread ? '+' : ''}`, 'finished']);
  }, 60_000);

  it('BO_JOURNAL=off: history says so on stderr, and lists what was journaled before', async () => {
    const env = testEnv(suite);
    await runBin(['accounts', 'extend-trial', trial[0]!, '--to', '2031-01-31'], { env });
    const r = await runBin(['history', 'list', '--jsonl'], { env: { ...env, BO_JOURNAL: 'off' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('The journal is off (BO_JOURNAL=off): new changes are not recorded.\n');
    expect(r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { command: string }).command)).toEqual([`accounts extend-trial ${trial[0]} --to 2031-01-31`]);
  });

  it('prune removes finished runs past 90 days, never an interrupted one, and keeps recent ones', async () => {
    const env = testEnv(suite);
    // A recent run of bo's own, then two old ones as bo writes them: one finished, one killed.
    await runBin(['accounts', 'extend-trial', trial[0]!, '--to', '2031-01-31'], { env });
    const journal = join(env.BO_STATE_DIR!, 'journal');
    const old = (id: string, end: boolean) => {
      const header = { t: 'run', v: 1, run: id, pid: 1, at: '2020-01-01T00:00:00.000Z', profile: 'default', origin: suite.url, command: 'accounts extend-trial - --to 2031-01-31', batch: true };
      const send = { t: 'send', n: 1, line: 1, uid: trial[1], method: 'PUT', path: `/crm/accounts/${trial[1]}/extend-trial`, fields: ['ToDate'], at: '2020-01-01T00:00:01.000Z' };
      const lines = [header, send, ...(end ? [{ t: 'end', at: '2020-01-01T00:00:02.000Z' }] : [])];
      writeFileSync(join(journal, `${id}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    };
    old('20200101T000000-aaaaaa', true);
    old('20200101T000000-bbbbbb', false);
    const before = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string; state: string }>;
    expect(before.map((r) => r.state)).toEqual(['finished', 'interrupted', 'finished']);

    const r = await runBin(['history', 'prune'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Removed 1 run\(s\); the journal holds 0\.0 MB\.\n$/);
    const after = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string; state: string }>;
    expect(after.map((a) => a.id)).toEqual([before[0]!.id, '20200101T000000-bbbbbb']);
  });
});
