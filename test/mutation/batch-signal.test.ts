// Ctrl-C (SIGINT) in the middle of a batch, on the built binary: sending stops, what was
// in flight is reported, the summary follows, exit 130, and no record the server
// received is left unreported.
import { afterEach, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';
import { startBatchServer, type BatchServer } from './batch-server.js';

let server: BatchServer | undefined;
afterEach(() => server?.close());

it('SIGINT mid-batch: exit 130, every request sent is reported, the rest is never sent', async () => {
  // The first 10 answer at once, the others never: the batch is mid-way when the signal comes.
  server = await startBatchServer((uid) => (Number(uid.split('_')[1]) <= 10 ? { status: 200 } : { status: 200, hang: true }));
  const s = server;
  const stdin = `${Array.from({ length: 500 }, (_, i) => `sa_${i + 1}`).join('\n')}\n`;
  const r = await runBin(['addons', 'expire', '-', '--concurrency', '4'], {
    env: { ...tempConfig().env, BO_BASE_URL: s.url, BO_API_KEY: 'k', BO_API_SECRET: 's' },
    stdin,
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (s.received.length >= 14) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 20);
    },
  });
  expect(r.code).toBe(130);
  const lines = r.stdout.trimEnd().split('\n');
  const reported = new Map(lines.map((l) => [l.split('\t')[0], l]));
  for (const uid of s.received) expect(reported.has(uid), `${uid} was sent but not reported`).toBe(true);
  expect(s.received.length).toBe(14);
  expect(lines.filter((l) => l.endsWith('\tok\texpired'))).toHaveLength(10);
  expect(lines.filter((l) => l.endsWith('\tinterrupted\tinterrupted: outcome unknown'))).toHaveLength(4);
  expect(r.stderr).toContain(`10 expired, 4 interrupted (outcome unknown) on ${s.url} (profile default)\n`);
  expect(r.stderr).toMatch(/error: interrupted; .*\n$/);
}, 30_000);
