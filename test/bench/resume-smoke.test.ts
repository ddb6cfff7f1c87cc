// A cheap run of test/bench/resume.mjs (2,000 records), so the benchmark cannot rot; the
// bench itself resumes 1,000,000 and gates its peak memory.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('test/bench/resume.mjs resumes a small interrupted batch from a journal it writes and prints its time and peak memory', () => {
  const root = join(import.meta.dirname, '..', '..');
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const r = spawnSync(process.execPath, [join(root, 'test', 'bench', 'resume.mjs'), '--records', '2000'], { cwd: root, env, encoding: 'utf8', timeout: 110_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^records {5}2000\njournal {5}\d+ MiB\nresume {6}\d+ ms \(10 sent, 1990 not sent again\)\npeak RSS {4}\d+ MiB\n$/);
}, 120_000);
