// Progress of long lists on stderr (--all, --paginate): shown on a terminal stderr
// while stdout is piped or another terminal, with the total, rate and time left;
// redrawn at most ten times a second; erased when done; never when stderr is piped,
// under BO_NO_PROGRESS=1, or when stdout is the same terminal (the table is its own
// progress). The list itself on stdout is untouched.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/context.js';
import { realClock } from '../../src/main.js';
import { duration, progressText, startProgress } from '../../src/output/progress.js';
import { symbolsFor } from '../../src/output/symbols.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ACCOUNTS = 250;
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ accounts: ACCOUNTS });
});
afterAll(() => sb.close());

const ERASE = '\r\u001b[K';
/** The lines drawn: every redraw starts with carriage return and erase-line. */
const draws = (stderr: string) => stderr.split(ERASE).filter(Boolean);

/** A clock that moves `stepMs` forward each time it is read. */
function steppingClock(stepMs: number): Clock & { elapsed: () => number } {
  const start = Date.parse('2026-11-23T10:00:00Z');
  let t = start;
  return { now: () => new Date((t += stepMs)), sleep: realClock.sleep, elapsed: () => t - start };
}

/** `bo` in-process with both terminals stated, as main.ts's processIo finds them. */
function runTerminals(argv: string[], io: { stdoutIsTTY: boolean; stdoutSharesStderr?: boolean }) {
  return runBo(argv, { stderrIsTTY: true, ...io, columns: 200, env: { ...testEnv(sb), NO_COLOR: '1' } });
}

describe('progress of a long list', () => {
  it('--all with stdout piped: done of total, rate and time left on stderr, erased at the end', async () => {
    // The count moves a page at a time (25 records); the clock 60 ms at each reading.
    const clock = steppingClock(60);
    const r = await runBo(['accounts', 'list', '--all', '--page-size', '25'], { env: testEnv(sb, { LANG: 'en_US.UTF-8' }), stderrIsTTY: true, clock });
    expect(r.code).toBe(0);
    // the data is whole and clean
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(ACCOUNTS);
    expect(r.stdout).not.toContain('\u001b');
    const lines = draws(r.stderr);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toMatch(new RegExp(`^\\[█{2}░{18}\\] 25 of ${ACCOUNTS} · [\\d,]+/s · \\S+ left$`));
    for (const line of lines) expect(line).toMatch(new RegExp(`^\\[[█░]{20}\\] [\\d,]+ of ${ACCOUNTS} · [\\d,]+/s( · \\S+ left)?$`));
    const counts = lines.map((l) => Number(/\] ([\d,]+) of/.exec(l)![1]!.replace(/,/g, '')));
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    // erased: the last thing on stderr is the erase, after the last drawing
    expect(r.stderr.endsWith(`${lines.at(-1)}${ERASE}`)).toBe(true);
  });

  it('redraws at most ten times a second', async () => {
    const clock = steppingClock(30);
    const r = await runBo(['accounts', 'list', '--all', '--page-size', '10', '--jsonl'], { env: testEnv(sb), stderrIsTTY: true, clock });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(ACCOUNTS);
    const n = draws(r.stderr).length;
    // every page reads the clock once (30 ms): 25 pages ≈ 750 ms → about 8 drawings
    expect(n).toBeGreaterThanOrEqual(2);
    expect(n).toBeLessThanOrEqual(Math.floor(clock.elapsed() / 100) + 1);
  });

  it('bo api --paginate shows it too', async () => {
    const r = await runBo(['api', '/crm/accounts', '--paginate', '-F', 'limit=100'], { env: testEnv(sb), stderrIsTTY: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(ACCOUNTS);
    expect(draws(r.stderr)[0]).toMatch(new RegExp(`^\\[█+░+\\] 100 of ${ACCOUNTS} · `));
    expect(r.stderr.endsWith(ERASE)).toBe(true);
  });

  it('none when stderr is piped, under BO_NO_PROGRESS=1, with --verbose, or for a list cut by --limit', async () => {
    const piped = await runBo(['accounts', 'list', '--all'], { env: testEnv(sb) });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    const quiet = await runBo(['accounts', 'list', '--all'], { env: testEnv(sb, { BO_NO_PROGRESS: '1' }), stderrIsTTY: true });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(piped.stdout);
    const verbose = await runBo(['accounts', 'list', '--all', '--verbose'], { env: testEnv(sb), stderrIsTTY: true });
    expect(verbose.stderr).not.toContain(ERASE);
    const limited = await runBo(['accounts', 'list', '--limit', '200'], { env: testEnv(sb), stderrIsTTY: true });
    expect(limited.stderr).toBe(`showing 200 of ${ACCOUNTS}; pass --all for every record\n`);
  });

  it('none when stdout is the same terminal (the table is the progress); shown beside a table on another terminal', async () => {
    const same = await runTerminals(['accounts', 'list', '--all'], { stdoutIsTTY: true });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^┌/);
    expect(same.stderr).toBe('');
    const sameKnown = await runTerminals(['accounts', 'list', '--all'], { stdoutIsTTY: true, stdoutSharesStderr: true });
    expect(sameKnown.stderr).toBe('');
    const other = await runTerminals(['accounts', 'list', '--all'], { stdoutIsTTY: true, stdoutSharesStderr: false });
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(/^┌/);
    expect(draws(other.stderr)[0]).toMatch(new RegExp(`^\\[░+\\] 1 of ${ACCOUNTS}`));
    expect(other.stderr.endsWith(ERASE)).toBe(true);
  });

  it('falls back to ASCII under LANG=C', async () => {
    const r = await runBo(['accounts', 'list', '--all'], { env: testEnv(sb, { LANG: 'C' }), stderrIsTTY: true });
    expect(r.code).toBe(0);
    expect(draws(r.stderr)[0]).toMatch(new RegExp(`^\\[#{8}-{12}\\] 100 of ${ACCOUNTS}, [\\d,]+/s`));
    expect(r.stderr).not.toMatch(/[^\x00-\x7f]/);
  });
});

describe('the progress line', () => {
  const unicode = symbolsFor(true);
  const ascii = symbolsFor(false);

  it('says done, rate and time left when the total is known; done and rate otherwise', () => {
    expect(progressText(unicode, 500, 2000, 1000)).toBe('[█████░░░░░░░░░░░░░░░] 500 of 2,000 · 500/s · 3s left');
    expect(progressText(ascii, 500, 2000, 1000)).toBe('[#####---------------] 500 of 2,000, 500/s, 3s left');
    expect(progressText(unicode, 2000, 2000, 4000)).toBe('[████████████████████] 2,000 of 2,000 · 500/s');
    expect(progressText(unicode, 12345, undefined, 2000)).toBe('12,345 done · 6,173/s');
    expect(progressText(ascii, 3, undefined, 0)).toBe('3 done, 0/s');
    expect([duration(7), duration(125), duration(3720)]).toEqual(['7s', '2m05s', '1h02m']);
  });

  it('draws at most once per 100 ms of the clock, and only erases what it drew', () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (d) => (text += d));
    const clock = steppingClock(1);
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: true, env: {} };
    const p = startProgress({ io, clock, verbose: false });
    for (let i = 1; i <= 2000; i++) p.update(i);
    p.end();
    const n = draws(text).length;
    expect(n).toBeGreaterThanOrEqual(19);
    expect(n).toBeLessThanOrEqual(21);
    expect(text.endsWith(ERASE)).toBe(true);

    let none = '';
    const quiet = new PassThrough();
    quiet.on('data', (d) => (none += d));
    const off = startProgress({ io: { ...io, stderr: quiet, env: { BO_NO_PROGRESS: '1' } }, clock, verbose: false });
    off.update(1);
    off.end();
    expect(none).toBe('');
  });
});
