// The TTY table at 100,000 accounts: memory stays flat while it streams, and Ctrl-C
// ends it within a second while rows are being printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runTty } from './tty-run.js';

const ACCOUNTS = 100_000;
// A full collection before each sample, so the samples show what is held, not garbage.
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const heldHeap = () => (gc(), process.memoryUsage().heapUsed);

// The sandbox runs as its own process (the built `bo sandbox serve`), so the heap
// measured here is the client's alone.
let server: ChildProcess;
let url: string;
let apiKey: { key: string; secret: string };
beforeAll(async () => {
  const bin = fileURLToPath(new URL('../../bin/bo.js', import.meta.url));
  server = spawn(process.execPath, [bin, 'sandbox', 'serve', '--memory', '--port', '0', '--accounts', String(ACCOUNTS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
  url = line.trim();
  apiKey = ((await (await fetch(`${url}/__sandbox/fixtures`)).json()) as { apiKey: typeof apiKey }).apiKey;
}, 180_000);
afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});

/** A terminal that reads everything and keeps only a count of the rows. */
function countingStdout(onRows?: (rows: number) => void) {
  let rows = 0;
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      const text = chunk.toString();
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) rows++;
      onRows?.(rows);
      cb();
    },
  });
  return { stdout, rows: () => rows };
}

describe('a TTY table of 100,000 accounts', () => {
  it('streams every row in flat memory', async () => {
    // Four samples of what is held (after a full collection), as the rows go by.
    const samples: number[] = [];
    const { stdout, rows } = countingStdout((n) => {
      if (n >= (samples.length + 1) * (ACCOUNTS / 4) && samples.length < 4) samples.push(heldHeap());
    });
    const baseline = heldHeap();
    const started = performance.now();
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], { env: testEnv(url, { BO_API_KEY: apiKey.key, BO_API_SECRET: apiKey.secret }), stdout, columns: 120 });
    const seconds = (performance.now() - started) / 1000;
    const growthMb = samples.map((s) => ((s - baseline) / 1e6).toFixed(1));
    console.log(`100,000-row TTY table: ${seconds.toFixed(1)} s, held heap growth at 25/50/75/100 %: ${growthMb.join(', ')} MB`);
    expect(r.code).toBe(0);
    // Top rule, header, rule, 100,000 rows, bottom rule.
    expect(rows()).toBe(ACCOUNTS + 4);
    expect(samples).toHaveLength(4);
    // Holding every row would grow with the list (tens of MB by the end); streaming
    // holds about a page, whatever the row count.
    for (const s of samples) expect(s - baseline).toBeLessThan(20e6);
  }, 120_000);

  it('ends with exit 130 within a second of Ctrl-C while rows are printing', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const { stdout } = countingStdout((n) => {
      if (n > 20_000 && !abortedAt) {
        abortedAt = performance.now();
        controller.abort();
      }
    });
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], { env: testEnv(url, { BO_API_KEY: apiKey.key, BO_API_SECRET: apiKey.secret }), stdout, signal: controller.signal });
    const tookMs = performance.now() - abortedAt;
    expect(abortedAt).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    // Far under the 30 s a missed abort would take (the request timeout), generous under load.
    expect(tookMs).toBeLessThan(10_000);
    expect(r.stderr).toContain('interrupted');
  }, 300_000);

  it('the built binary on a pseudo-terminal: SIGINT while rows print ends it with exit 130 within a second', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const childEnv: Record<string, string | undefined> = { ...process.env, ...testEnv(url, { BO_API_KEY: apiKey.key, BO_API_SECRET: apiKey.secret }) };
    delete childEnv.NODE_EXTRA_CA_CERTS;
    // The table as written to the terminal, not through a pager (test/e2e/pager-tmux.test.ts has those).
    childEnv.BO_PAGER = 'cat';
    // `exec` makes the shell's pid the one of bo, which the first line reports.
    const command = `stty cols 120; echo PID:$$; exec '${process.execPath}' bin/bo.js --no-color accounts list --all`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const rowsShown = new Promise<number>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const pid = /PID:(\d+)/.exec(out)?.[1];
        if (pid && out.length > 200_000) resolve(Number(pid));
      });
    });
    const pid = await rowsShown;
    const sent = performance.now();
    process.kill(pid, 'SIGINT');
    const [code] = (await once(child, 'exit')) as [number];
    expect(performance.now() - sent).toBeLessThan(10_000);
    expect(code).toBe(130);
    expect(out).toContain('│ Uid');
  }, 120_000);
});
