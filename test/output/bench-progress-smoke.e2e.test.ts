// A cheap run of test/bench/progress.mjs (300 records), so the benchmark cannot rot: it
// exits 1 when the exports differ, when progress was not drawn, or was drawn under
// BO_NO_PROGRESS=1.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('test/bench/progress.mjs exports with and without progress and prints both times and the overhead', () => {
  const root = join(import.meta.dirname, '..', '..');
  const r = spawnSync(process.execPath, [join(root, 'test', 'bench', 'progress.mjs'), '--records', '300', '--runs', '1'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 110_000,
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^records {5}300\nprogress {4}\d+ ms, [1-9]\d* redraws\nno progress \d+ ms\noverhead {4}-?\d+\.\d%\n$/);
}, 120_000);
