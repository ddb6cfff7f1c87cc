// The journal's automatic retention on the built binary against `bo sandbox serve
// --memory`: as a run's journal opens, finished runs older than 90 days, or the oldest
// while the journal holds over 200 MB, are removed; a running, killed or interrupted run
// stays whatever its age; a run over the cap on its own stays, warned about. Big runs are
// sparse files: their size costs no disk, and retention reads only their last bytes.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');
const MB = 1024 * 1024;

/** The start of a run id `n` days before now: `yyyymmddThhmmss`. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().replace(/[-:]/g, '').slice(0, 15);

/** A run's file as bo writes it: its header, one change, and `end` as given; `bytes` pads it (sparse) before the end. */
function plantRun(folder: string, id: string, end: 'finished' | 'interrupted' | 'none', bytes = 0): string {
  const at = `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 15)}.000Z`;
  const lines = [
    { t: 'run', v: 1, run: id, pid: 1, at, profile: 'default', origin: 'http://127.0.0.1:1', command: 'lists create --name X', batch: false },
    { t: 'send', n: 1, method: 'POST', path: '/email/lists', fields: ['Name'], at },
    { t: 'outcome', n: 1, status: 201, ok: true, at },
  ];
  const head = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  const tail = end === 'none' ? '' : `${JSON.stringify({ t: 'end', at, ...(end === 'interrupted' ? { interrupted: true } : {}) })}\n`;
  const file = join(folder, `${id}.jsonl`);
  const fd = openSync(file, 'w', 0o600);
  writeSync(fd, head);
  // The padding (a hole, read as NUL bytes) ends as a line does, as the entries before an `end` do.
  if (bytes > 0) writeSync(fd, '\n', bytes - tail.length - 1);
  writeSync(fd, tail, Math.max(head.length, bytes - tail.length));
  closeSync(fd);
  return file;
}

describe('journal retention as a run starts, on the built binary', () => {
  let sandbox: E2eSandbox;
  let fixtures: { apiKey: { key: string; secret: string } };
  let alive: ChildProcess;
  let created = 0;

  beforeAll(async () => {
    sandbox = await startE2eSandbox(root);
    fixtures = (await (await fetch(`${sandbox.url}/__sandbox/fixtures`)).json()) as typeof fixtures;
    // A live process to hold a run's lock, as a running bo does.
    alive = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  }, 60_000);
  afterAll(() => {
    alive.kill('SIGKILL');
    return sandbox.close();
  });

  /** A fresh state folder with its journal folder, and a change that opens a run there. */
  const setUp = () => {
    const env = testEnv({ url: sandbox.url, fixtures });
    const folder = join(env.BO_STATE_DIR!, 'journal');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const change = () => runBin(['lists', 'create', '--name', `Retention ${++created}`], { env });
    return { env, folder, change };
  };

  it('removes finished runs past 90 days; keeps recent ones, and running, killed and interrupted ones of any age', async () => {
    const { env, folder, change } = setUp();
    const oldFinished = plantRun(folder, '20250101T000000-aaaaaa', 'finished');
    const oldFinished2 = plantRun(folder, '20250301T120000-bbbbbb', 'finished');
    const oldInterrupted = plantRun(folder, '20250102T000000-cccccc', 'interrupted');
    const oldKilled = plantRun(folder, '20250103T000000-dddddd', 'none');
    writeFileSync(join(folder, '20250103T000000-dddddd.lock'), '999999999\n', { mode: 0o600 });
    const oldRunning = plantRun(folder, '20250104T000000-eeeeee', 'none');
    writeFileSync(join(folder, '20250104T000000-eeeeee.lock'), `${alive.pid}\n`, { mode: 0o600 });
    // 89 days before now: kept.
    const recentId = `${daysAgo(89)}-ffffff`;
    const recent = plantRun(folder, recentId, 'finished');

    const r = await change();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(oldFinished)).toBe(false);
    expect(existsSync(oldFinished2)).toBe(false);
    for (const kept of [oldInterrupted, oldKilled, oldRunning, recent]) expect(existsSync(kept), kept).toBe(true);

    const list = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string; state: string }>;
    expect(list.map((run) => [run.id.slice(0, 8), run.state])).toEqual([
      [expect.stringMatching(/^\d{8}$/), 'finished'],
      [recentId.slice(0, 8), 'finished'],
      ['20250104', 'running'],
      ['20250103', 'interrupted'],
      ['20250102', 'interrupted'],
    ]);
  });

  it('over 200 MB in all: the oldest finished runs go until it fits; an interrupted one stays', async () => {
    const { folder, change } = setUp();
    const oldest = plantRun(folder, `${daysAgo(30)}-aaaaaa`, 'finished', 90 * MB);
    const interrupted = plantRun(folder, `${daysAgo(29)}-bbbbbb`, 'interrupted', 90 * MB);
    const middle = plantRun(folder, `${daysAgo(20)}-cccccc`, 'finished', 60 * MB);
    const newest = plantRun(folder, `${daysAgo(10)}-dddddd`, 'finished', 40 * MB);

    const r = await change();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // 280 MB: without the oldest finished run 190 MB, which fits.
    expect(existsSync(oldest)).toBe(false);
    for (const kept of [interrupted, middle, newest]) expect(existsSync(kept), kept).toBe(true);
  });

  it('a finished run over 200 MB on its own is kept, with a warning; nothing else is removed', async () => {
    const { folder, change } = setUp();
    const id = `${daysAgo(5)}-gggggg`;
    const big = plantRun(folder, id, 'finished', 250 * MB);

    const r = await change();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`warning: journal run ${id} alone holds 250.0 MB, over the 200 MB kept in all; it is kept until it is 90 days old\n`);
    expect(existsSync(big)).toBe(true);
    expect(readdirSync(folder).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
  });

  it('is applied at most once an hour (a loop of single changes is not slowed by the runs it leaves); bo history prune applies it now', async () => {
    const { env, folder, change } = setUp();
    expect((await change()).code).toBe(0);
    // Within the hour after that run applied it: an old finished run planted now stays.
    const old = plantRun(folder, '20250105T000000-hhhhhh', 'finished');
    expect((await change()).code).toBe(0);
    expect(existsSync(old)).toBe(true);
    // An hour and more later (the mark's time set back): the next run applies it.
    const mark = join(folder, '.retained');
    expect(statSync(mark).mode & 0o777).toBe(0o600);
    const earlier = new Date(Date.now() - 61 * 60_000);
    utimesSync(mark, earlier, earlier);
    expect((await change()).code).toBe(0);
    expect(existsSync(old)).toBe(false);
    // And bo history prune whenever asked.
    const again = plantRun(folder, '20250106T000000-iiiiii', 'finished');
    const pruned = await runBin(['history', 'prune'], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(existsSync(again)).toBe(false);
  });
});
