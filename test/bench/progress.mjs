#!/usr/bin/env node
// Progress benchmark: the same export, `bo accounts list --all --jsonl` over N accounts
// of `bo sandbox serve --memory` (a real process), run in-process from dist/ with a
// terminal stderr and piped stdout, alternately with progress on and under
// BO_NO_PROGRESS=1. Prints the median of each, the redraws, and the overhead. Exits 1
// when the output differs, when progress was not drawn (a stale dist/), or was drawn
// under BO_NO_PROGRESS=1; reports the time, never asserts it (the machine is shared).
//
//   npm run build && node test/bench/progress.mjs [--records N] [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchEnv, serveSandbox, ensureBuilt, numberOption } from './serve-sandbox.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const records = numberOption('--records', 20_000);
const runs = numberOption('--runs', 5);
if (!Number.isInteger(records) || records < 1) throw new Error('--records must be a positive whole number');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive whole number');
ensureBuilt(root);
const { run } = await import(pathToFileURL(join(root, 'dist', 'bo.cjs')).href);

const env = benchEnv();
const { url, child } = await serveSandbox({ args: ['--accounts', String(records)], env, cwd: root });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const work = mkdtempSync(join(tmpdir(), 'bo-bench-progress-'));
let failed = false;
try {
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  const baseEnv = {
    HOME: process.env.HOME,
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    BO_CONFIG_DIR: join(work, 'config'),
    BO_STATE_DIR: join(work, 'state'),
    BO_BASE_URL: url,
    BO_API_KEY: fixtures.apiKey.key,
    BO_API_SECRET: fixtures.apiKey.secret,
  };

  /** One export; stdout and stderr are counted, not kept. */
  const exportOnce = async (progress) => {
    let lines = 0;
    let bytes = 0;
    let redraws = 0;
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        cb();
      },
    });
    const stderr = new Writable({
      write(chunk, _enc, cb) {
        const text = chunk.toString();
        // a drawing is an erase followed by text; the final erase alone is not one
        if (text.startsWith('\r\u001b[K') && text.length > 4) redraws++;
        cb();
      },
    });
    const stdin = new PassThrough();
    stdin.end();
    const io = {
      stdin,
      stdout,
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: true,
      env: progress ? baseEnv : { ...baseEnv, BO_NO_PROGRESS: '1' },
    };
    const t = performance.now();
    const code = await run(['accounts', 'list', '--all', '--jsonl'], { io });
    const ms = performance.now() - t;
    if (code !== 0) throw new Error(`export exited ${code}`);
    return { ms, lines, bytes, redraws };
  };

  await exportOnce(false); // warm-up: the sandbox's first walk, the lazy chunks
  const on = [];
  const off = [];
  for (let i = 0; i < runs; i++) {
    // alternate, so drift on a shared machine falls on both sides
    on.push(await exportOnce(true));
    off.push(await exportOnce(false));
  }
  for (const r of [...on, ...off]) {
    if (r.lines !== records || r.bytes !== off[0].bytes) {
      console.error(`an export printed ${r.lines} lines (${r.bytes} bytes), expected ${records} (${off[0].bytes} bytes)`);
      failed = true;
    }
  }
  if (on.some((r) => r.redraws === 0)) {
    console.error('no progress was drawn with progress on: rebuild dist/ (npm run build)');
    failed = true;
  }
  if (off.some((r) => r.redraws !== 0)) {
    console.error('progress was drawn under BO_NO_PROGRESS=1');
    failed = true;
  }
  const onMs = median(on.map((r) => r.ms));
  const offMs = median(off.map((r) => r.ms));
  const pad = (s) => s.padEnd(12);
  console.log(`${pad('records')}${records}`);
  console.log(`${pad('progress')}${Math.round(onMs)} ms, ${median(on.map((r) => r.redraws))} redraws`);
  console.log(`${pad('no progress')}${Math.round(offMs)} ms`);
  console.log(`${pad('overhead')}${(((onMs - offMs) / offMs) * 100).toFixed(1)}%`);
} finally {
  child.kill();
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
