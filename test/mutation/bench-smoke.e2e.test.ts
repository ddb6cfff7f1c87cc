// A cheap run of test/bench/batch.mjs (20 records), so the benchmark cannot rot.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('test/bench/batch.mjs runs a small batch (journaled and not) against a shell loop and prints the times, the journal cost and the ratio', () => {
  const root = join(import.meta.dirname, '..', '..');
  const r = spawnSync(process.execPath, [join(root, 'test', 'bench', 'batch.mjs'), '--records', '20'], { cwd: root, encoding: 'utf8', timeout: 110_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^records {5}20\nbatch {7}\d+ ms \(median of 5, journal on\)\nno journal {2}\d+ ms \(median of 5; journal cost -?\d+ %\)\nshell loop {2}\d+ ms\nratio {7}\d+\.\dx\n$/);
}, 120_000);
