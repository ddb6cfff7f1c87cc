// Many processes that find the same stale journal lock at the same moment: exactly one
// holds it afterwards (src/journal/run-lock.ts: a claim per stale lock, made by link(2),
// and the new lock renamed into place). Each process is the lock module itself, bundled
// for Node, started together against one folder; none lets go until all have answered.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ID = '20261128T050347-c3x7f3';
const TAKERS = 6;
const ROUNDS = 15;

describe('the stale lock of a journal run, found by many processes at once', () => {
  let work: string;
  let script: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'bo-lock-race-'));
    const entry = join(work, 'taker.ts');
    // Waits for the start time, takes the lock, says what it got, keeps it until told to end.
    writeFileSync(
      entry,
      `import { takeRunLock } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'src', 'journal', 'run-lock.ts'))};
       const [folder, id, at] = process.argv.slice(2);
       while (Date.now() < Number(at)) {}
       const got = takeRunLock(folder, id);
       process.stdout.write(('release' in got ? 'held ' + (got.tookOver ? got.tookOver.pid : '-') : 'refused ' + got.holder.pid) + '\\n');
       process.stdin.resume();
       process.stdin.on('end', () => process.exit(0));`,
    );
    script = join(work, 'taker.mjs');
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: script, logLevel: 'error' });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(`${TAKERS} processes, ${ROUNDS} rounds: exactly one holds the lock, the others name it`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const folder = mkdtempSync(join(work, 'journal-'));
      const dead = spawnSync('true').pid!;
      // A lock of today's format (a pid alone) in even rounds, of the new one in odd rounds.
      writeFileSync(join(folder, `${ID}.lock`), round % 2 === 0 ? `${dead}\n` : `${dead} 1 - deadbeef\n`);
      const at = Date.now() + 400;
      const takers = Array.from({ length: TAKERS }, () => spawn(process.execPath, [script, folder, ID, String(at)], { stdio: ['pipe', 'pipe', 'inherit'] }));
      const answers = await Promise.all(
        takers.map((child) => new Promise<{ pid: number; said: string }>((resolve) => child.stdout.once('data', (d: Buffer) => resolve({ pid: child.pid!, said: d.toString().trim() })))),
      );
      const holders = answers.filter((a) => a.said.startsWith('held'));
      expect(holders, `round ${round + 1}: ${JSON.stringify(answers)}`).toHaveLength(1);
      const holder = holders[0]!;
      expect(holder.said).toBe(`held ${dead}`);
      for (const a of answers.filter((x) => x !== holder)) expect(a.said).toBe(`refused ${holder.pid}`);
      expect(readFileSync(join(folder, `${ID}.lock`), 'utf8')).toMatch(new RegExp(`^${holder.pid} `));
      // Nothing left beside the lock: no claim, no draft.
      expect(readdirSync(folder)).toEqual([`${ID}.lock`]);
      for (const child of takers) child.stdin.end();
      await Promise.all(takers.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    }
  }, 180_000);
});
