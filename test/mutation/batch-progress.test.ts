// A batch's progress comes from the one progress module lists use (output/progress.ts):
// records done and the rate (stdin has no total), on a terminal stderr while stdout is
// piped, at most ten redraws a second, erased before the summary; none when stdout is
// the same terminal. Outcome marks and the progress line fall back to ASCII under a
// locale that is not UTF-8.
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/context.js';
import { realClock } from '../../src/main.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startBatchServer, type BatchServer } from './batch-server.js';

let server: BatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const uids = (n: number) => Array.from({ length: n }, (_, i) => `sa_${i + 1}`).join('\n');
const ERASE = '\r\u001b[K';
const draws = (stderr: string) => stderr.split(ERASE).filter(Boolean).filter((l) => !l.endsWith('\n'));

function steppingClock(stepMs: number): Clock & { elapsed: () => number } {
  const start = Date.parse('2026-11-23T10:00:00Z');
  let t = start;
  return { now: () => new Date((t += stepMs)), sleep: realClock.sleep, elapsed: () => t - start };
}

describe('batch progress', () => {
  it('counts records done with the rate, redraws at most ten times a second, and is erased before the summary', async () => {
    const s = (server = await startBatchServer(() => ({ status: 200 })));
    const clock = steppingClock(4);
    const r = await runBo(['addons', 'expire', '-', '--concurrency', '4'], { env: testEnv(s), stdin: uids(300), stderrIsTTY: true, clock });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(300);
    const lines = draws(r.stderr);
    for (const line of lines) expect(line).toMatch(/^[\d,]+ done · [\d,]+\/s$/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(Math.floor(clock.elapsed() / 100) + 1);
    expect(r.stderr.endsWith(`${lines.at(-1)}${ERASE}300 expired on ${s.url} (profile default)\n`)).toBe(true);
  });

  it('none when stdout is the same terminal as stderr (the outcome lines are the progress)', async () => {
    const s = (server = await startBatchServer(() => ({ status: 200 })));
    const r = await runBo(['addons', 'expire', '-', '--concurrency', '1'], { stdin: 'sa_1\nsa_2\n', stdoutIsTTY: true, stderrIsTTY: true, env: { ...testEnv(s), NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ Subscription add-on sa_1 expired\n✔ Subscription add-on sa_2 expired\n');
    expect(r.stderr).toBe(`2 expired on ${s.url} (profile default)\n`);
  });
});

describe('batch output under the locale', () => {
  it('LANG=C: + and x outcome marks and an ASCII progress line', async () => {
    const s = (server = await startBatchServer((uid) => (uid === 'sa_2' ? { status: 404 } : { status: 200 })));
    const r = await runBo(['--no-color', 'addons', 'expire', '-', '--concurrency', '1'], { env: testEnv(s, { LANG: 'C' }), stdin: 'sa_1\nsa_2\n', stdoutIsTTY: true });
    expect(r.stdout).toBe('+ Subscription add-on sa_1 expired\nx sa_2 not found\n');
    const p = await runBo(['addons', 'expire', '-'], { env: testEnv(s, { LANG: 'C' }), stdin: 'sa_1\n', stderrIsTTY: true });
    expect(draws(p.stderr)[0]).toMatch(/^1 done, [\d,]+\/s$/);
    expect(p.stderr).not.toMatch(/[^\x00-\x7f]/);
  });

  it('LANG=C: the confirmation a batch needs names it with ... rather than …', async () => {
    const s = (server = await startBatchServer(() => ({ status: 200 })));
    const ascii = await runBo(['drips', 'delete', '-'], { env: testEnv(s, { LANG: 'C' }), stdin: 'drip_1\n' });
    expect(ascii.code).toBe(2);
    expect(ascii.stderr).toMatch(/^error: Delete drip campaign \.\.\. [^\n]*for every record on stdin/);
    expect(ascii.stderr).not.toMatch(/[^\x00-\x7f]/);
    const utf8 = await runBo(['drips', 'delete', '-'], { env: testEnv(s, { LANG: 'en_US.UTF-8' }), stdin: 'drip_1\n' });
    expect(utf8.stderr).toMatch(/^error: Delete drip campaign … [^\n]*for every record on stdin/);
    expect(s.received).toEqual([]);
  });

  it('LC_ALL wins over LANG, LC_CTYPE over LANG; a UTF-8 locale keeps ✔ and ✘', async () => {
    const s = (server = await startBatchServer((uid) => (uid === 'sa_2' ? { status: 404 } : { status: 200 })));
    const run1 = (extra: Record<string, string>) =>
      runBo(['--no-color', 'addons', 'expire', '-', '--concurrency', '1'], { env: testEnv(s, extra), stdin: 'sa_1\nsa_2\n', stdoutIsTTY: true });
    expect((await run1({ LANG: 'en_US.UTF-8' })).stdout).toBe('✔ Subscription add-on sa_1 expired\n✘ sa_2 not found\n');
    expect((await run1({ LC_ALL: 'en_US.UTF-8', LANG: 'C' })).stdout).toBe('✔ Subscription add-on sa_1 expired\n✘ sa_2 not found\n');
    expect((await run1({ LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8' })).stdout).toBe('+ Subscription add-on sa_1 expired\nx sa_2 not found\n');
    expect((await run1({ LC_ALL: '', LC_CTYPE: 'de_DE.ISO-8859-1', LANG: 'en_US.UTF-8' })).stdout).toBe('+ Subscription add-on sa_1 expired\nx sa_2 not found\n');
  });
});
