// The journal's run files as `bo history` and `bo batch resume` read them, in the test
// process (the embedded sandbox): run files written directly in the journal's format
// (test/helpers/journal-files.ts), of any size and shape. Two resumes of one run started
// together: one alone goes on; `last` is the newest interrupted batch, never a single
// change; a file of another shape is skipped with one warning (history), refused naming
// it (resume, exit 1) and never pruned; a newer format is listed as such, never resumed;
// a 200,000-change run resumes with --dry-run.
import { readFileSync, readdirSync, existsSync, appendFileSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { fakeUids, writeRunFile } from '../helpers/journal-files.js';

const OLD = 'accounts cancel - --reason x';

/** A fresh config, state and data folder: the embedded sandbox too is fresh. */
function setup() {
  const { env: base, root } = tempConfig();
  const env: Record<string, string> = { ...base, BO_DATA_DIR: join(root, 'data') };
  return { env, dir: join(env.BO_STATE_DIR!, 'journal') };
}

/** `count` accounts of the embedded sandbox with a subscription to cancel (in trial or subscribing). */
async function sandboxAccounts(env: Record<string, string>, count: number): Promise<string[]> {
  const r = await runBo(['--sandbox', '--jsonl', 'accounts', 'list', '--all', '--fields', 'Uid,AccountStage'], { env });
  expect(r.code, r.stderr).toBe(0);
  const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { Uid: string; AccountStage: number });
  const uids = rows.filter((a) => a.AccountStage === 2 || a.AccountStage === 3).map((a) => a.Uid).slice(0, count);
  expect(uids).toHaveLength(count);
  return uids;
}

function entries(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
}

const listed = async (env: Record<string, string>) => {
  const r = await runBo(['history', 'list', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return { runs: JSON.parse(r.stdout) as Array<Record<string, any>>, stderr: r.stderr };
};

describe('journal run files, read and resumed in process', () => {
  it('the files the helper writes are what a batch writes: the same running digest of the input', async () => {
    const { env, dir } = setup();
    const uids = await sandboxAccounts(env, 3);
    const real = await runBo(['--sandbox', 'accounts', 'cancel', '-', '--reason', 'x', '--yes'], { env, stdin: `${uids.join('\n')}\n` });
    expect(real.code, real.stderr).toBe(0);
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    const written = writeRunFile(join(dir, 'copy'), { id: '20261128T050347-aaaaaa', uids, sent: 3, finished: true });
    const sends = (f: string) => entries(f).filter((e) => e.t === 'send').map((e) => [e.line, e.uid, e.read]);
    expect(sends(written)).toEqual(sends(join(dir, file!)));
    expect(entries(join(dir, file!))[0]).toMatchObject({ t: 'run', v: 1, profile: 'sandbox', origin: 'the embedded sandbox', command: OLD, batch: true });
  });

  it('two resumes started together of a run left locked by a killed bo: one alone runs, each record is sent once, the counts are right', async () => {
    const { env, dir } = setup();
    const uids = await sandboxAccounts(env, 10);
    const id = '20261128T050347-bbbbbb';
    const file = writeRunFile(dir, { id, uids, sent: 4, unknown: 1 });
    // The lock a killed bo of today's format leaves (its pid alone), and a line it cut short.
    writeFileSync(join(dir, `${id}.lock`), `${spawnSync('true').pid}\n`);
    appendFileSync(file, '{"t":"send","n":5,"li');
    const input = `${uids.join('\n')}\n`;
    const both = await Promise.all([0, 1].map(() => runBo(['--sandbox', 'batch', 'resume', id, '--yes'], { env, stdin: input })));
    const ran = both.filter((r) => r.code === 0);
    const refused = both.filter((r) => r.code !== 0);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.stderr).toMatch(/^note: run \S+ was left locked by process \d+, which has ended: its lock is taken over$/m);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.code).toBe(1);
    expect(refused[0]!.stderr).toBe(`error: run ${id} is still going (process ${process.pid}): stop it first, or wait for it\n`);
    // The line cut short is gone; each line was sent once but the unknown one (sent again: a repeat cannot harm).
    const all = entries(file);
    const sends = new Map<number, number>();
    for (const e of all.filter((x) => x.t === 'send')) sends.set(e.line, (sends.get(e.line) ?? 0) + 1);
    expect([...sends.entries()].sort((a, b) => a[0] - b[0])).toEqual(uids.map((_, i) => [i + 1, i === 3 ? 2 : 1]));
    expect(all.filter((e) => e.t === 'resume')).toHaveLength(1);
    // Numbered on from the killed run's last change: every change's number once.
    const numbers = all.filter((e) => e.t === 'send').map((e) => e.n as number);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const { runs } = await listed(env);
    expect(runs).toEqual([expect.objectContaining({ id, state: 'finished', done: 10, failed: 0, unknown: 0, pid: null })]);
    expect(existsSync(join(dir, `${id}.lock`))).toBe(false);
  });

  it('last is the newest interrupted batch: an interrupted single change after it is listed, never picked', async () => {
    const { env, dir } = setup();
    const uids = fakeUids(3);
    writeRunFile(dir, { id: '20261128T050347-cccccc', uids, sent: 1, at: '2026-11-28T05:03:47.000Z' });
    writeRunFile(dir, { id: '20261128T060000-dddddd', uids: [uids[2]!], sent: 1, unknown: 1, batch: false, command: `accounts cancel ${uids[2]} --reason x`, at: '2026-11-28T06:00:00.000Z' });
    const { runs } = await listed(env);
    expect(runs.map((r) => [r.id, r.batch, r.state])).toEqual([
      ['20261128T060000-dddddd', false, 'interrupted'],
      ['20261128T050347-cccccc', true, 'interrupted'],
    ]);
    const dry = await runBo(['--sandbox', 'batch', 'resume', 'last', '--dry-run'], { env, stdin: `${uids.join('\n')}\n` });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(uids.slice(1).map((uid) => `PUT /api/v1/crm/accounts/${uid}/cancel`));
    expect(dry.stderr).toContain('2 request(s) would be sent, 1 not sent again; nothing was sent');
    // With only the single change interrupted, there is no batch to resume.
    rmSync(join(dir, '20261128T050347-cccccc.jsonl'));
    const none = await runBo(['--sandbox', 'batch', 'resume', 'last'], { env, stdin: '' });
    expect(none.code).toBe(3);
    expect(none.stderr).toBe('error: no interrupted batch in the journal (bo history list)\n');
  });

  it('a run file of another shape: one warning naming it (history), exit 1 naming it (resume, show), kept by prune; never an internal error', async () => {
    const { env, dir } = setup();
    const uids = fakeUids(2);
    const good = writeRunFile(dir, { id: '20200101T000000-gooood', uids, sent: 2, finished: true, at: '2020-01-01T00:00:00.000Z' });
    const odd: Record<string, string> = {};
    const make = (id: string, edit: (lines: string[]) => string[]) => {
      const file = writeRunFile(dir, { id, uids, sent: 2, finished: true, at: '2020-01-01T00:00:00.000Z' });
      writeFileSync(file, `${edit(readFileSync(file, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
      odd[id] = file;
    };
    make('20200101T000001-atnumb', (l) => [l[0]!.replace('"at":"2020-01-01T00:00:00.000Z"', '"at":5'), ...l.slice(1)]);
    make('20200101T000002-fields', (l) => [l[0]!, l[1]!.replace('"fields":["CancelationReason"]', '"fields":"CancelationReason"'), ...l.slice(2)]);
    make('20200101T000003-garbag', (l) => [l[0]!, 'not json at all', ...l.slice(1)]);
    make('20200101T000004-header', (l) => ['{"t":"run"', ...l.slice(1)]);
    make('20200101T000005-nulled', (l) => [l[0]!, 'null', ...l.slice(1)]);
    // Not even a file: a folder of a run file's name.
    odd['20200101T000006-folder'] = join(dir, '20200101T000006-folder.jsonl');
    mkdirSync(odd['20200101T000006-folder']);

    const { runs, stderr } = await listed(env);
    expect(runs.map((r) => r.id)).toEqual(['20200101T000000-gooood']);
    const warnings = stderr.trimEnd().split('\n');
    expect(warnings).toHaveLength(6);
    for (const file of Object.values(odd)) {
      expect(warnings.filter((w) => w.startsWith(`warning: skipped ${file}: not a run file this bo can read (`) && w.endsWith('); it is left as it is'))).toHaveLength(1);
    }
    expect(stderr).toContain("(its header's at is not a date-time)");
    expect(stderr).toContain("(line 2: a send's fields are not a list of names)");
    expect(stderr).toContain('(line 2 is not JSON)');
    expect(stderr).toContain('20200101T000006-folder.jsonl is not a regular file (a folder)');

    for (const [id, file] of Object.entries(odd)) {
      const resumed = await runBo(['--sandbox', 'batch', 'resume', id, '--dry-run'], { env, stdin: `${uids.join('\n')}\n` });
      expect(resumed.code, id).toBe(1);
      expect(resumed.stderr).toMatch(new RegExp(`^error: the journal file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a run file this bo can read \\(.+\\); it is left as it is\\n$`));
      const shown = await runBo(['history', 'show', id], { env });
      expect(shown.code).toBe(1);
      expect(shown.stderr).toContain(file);
    }
    // `last` passes over them with the same warning.
    const last = await runBo(['history', 'show', 'last', '--json'], { env });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr.match(/^warning: skipped /gm)).toHaveLength(6);

    const pruned = await runBo(['history', 'prune'], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toMatch(/^Removed 1 run\(s\); /m);
    expect(existsSync(good)).toBe(false);
    for (const file of Object.values(odd)) expect(existsSync(file)).toBe(true);
  });

  it('a run file of a newer format is listed as written by a newer bo, and never resumed', async () => {
    const { env, dir } = setup();
    const uids = fakeUids(2);
    const file = writeRunFile(dir, { id: '20261128T050347-newerr', uids, sent: 1 });
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0]!.replace('"v":1', '"v":7'), '{"t":"what-next","at":5}', ...lines.slice(1)].join('\n'));
    const { runs, stderr } = await listed(env);
    expect(stderr).toBe('');
    expect(runs).toEqual([expect.objectContaining({ id: '20261128T050347-newerr', state: 'newer', done: 0, failed: 0, unknown: 0, notAttempted: null, pid: null })]);
    const table = await runBo(['history', 'list'], { env });
    expect(table.stdout).toContain('\twritten by a newer bo\t');
    const resumed = await runBo(['--sandbox', 'batch', 'resume', '20261128T050347-newerr'], { env, stdin: `${uids.join('\n')}\n` });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toBe('error: run 20261128T050347-newerr was written by a newer bo, whose journal this one cannot go on with: resume it with that bo\n');
    const last = await runBo(['--sandbox', 'batch', 'resume', 'last'], { env, stdin: '' });
    expect(last.code).toBe(3);
  });

  it('a run of 200,000 changes with its input resumes with --dry-run', async () => {
    const { env, dir } = setup();
    const uids = fakeUids(200_010);
    writeRunFile(dir, { id: '20261128T050347-bigrun', uids, sent: 200_000, unknown: 5 });
    const dry = await runBo(['--sandbox', '--jsonl', 'batch', 'resume', 'last', '--dry-run'], { env, stdin: `${uids.join('\n')}\n` });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/Dry run on profile "sandbox" \(.*\): 15 request\(s\) would be sent, 199995 not sent again; nothing was sent\./);
    const planned = dry.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { uid: string }).uid);
    expect(planned).toEqual(uids.slice(199_995));
  }, 120_000);
});
