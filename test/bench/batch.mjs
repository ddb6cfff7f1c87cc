#!/usr/bin/env node
// Batch benchmark: N `addons expire` as one `-` batch (journaled, and with BO_JOURNAL=off) against the same N as a shell loop
// (one `bo` process each), both on `bo sandbox serve --memory` as a real process, the
// sandbox reset before each. Prints both times and the ratio; with N >= 1000 exits 1
// when the batch is not at least 20 times faster, or when the journal costs 10 % or more.
//
//   npm run build && node test/bench/batch.mjs [--records N]
//
// The seed has fewer running add-ons than N, so the records cycle through them: the
// first expire of each ends it, the repeats answer "already ended" (expiring is
// idempotent); both runs send exactly the same N requests in the same order.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchEnv, serveSandbox } from './serve-sandbox.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const i = args.indexOf('--records');
const records = i >= 0 ? Number(args[i + 1]) : 1000;
if (!Number.isInteger(records) || records < 1) throw new Error('--records must be a positive whole number');
if (!existsSync(join(root, 'dist', 'bo.cjs'))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });

const env = benchEnv();
const { url, child } = await serveSandbox({ env, cwd: root });

const work = mkdtempSync(join(tmpdir(), 'bo-bench-batch-'));
try {
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  const addOns = fixtures.subscriptionAddOns;
  const uids = Array.from({ length: records }, (_, k) => addOns[k % addOns.length]);
  const list = join(work, 'uids.txt');
  writeFileSync(list, `${uids.join('\n')}\n`);
  const runEnv = { ...env, BO_CONFIG_DIR: join(work, 'config'), BO_STATE_DIR: join(work, 'state'), BO_BASE_URL: url, BO_API_KEY: fixtures.apiKey.key, BO_API_SECRET: fixtures.apiKey.secret };
  const bo = `"${process.execPath}" "${join(root, 'bin', 'bo.js')}"`;
  const reset = async () => {
    const r = await fetch(`${url}/__sandbox/reset`, { method: 'POST' });
    if (!r.ok) throw new Error(`reset: ${r.status}`);
  };
  const time = (script, extra = {}) => {
    const t = performance.now();
    const r = spawnSync('bash', ['-c', script], { env: { ...runEnv, ...extra }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${script}\n${r.stderr.slice(-2000)}`);
    return { ms, out: r.stdout };
  };

  // The journal's cost: the same batch with BO_JOURNAL=off (the one way to run
  // without it), in alternating pairs so neither side gets the warm caches; the medians
  // are compared, and with N >= 1000 must differ by under 10 %.
  const pairs = 5;
  const journaled = [];
  const unjournaledRuns = [];
  let batch;
  for (let k = 0; k < pairs; k++) {
    await reset();
    batch = time(`${bo} addons expire - --concurrency 8 < "${list}"`);
    journaled.push(batch.ms);
    await reset();
    unjournaledRuns.push(time(`${bo} addons expire - --concurrency 8 < "${list}"`, { BO_JOURNAL: 'off' }).ms);
  }
  const okLines = batch.out.split('\n').filter((l) => /\tok\t/.test(l)).length;
  if (okLines !== records) throw new Error(`the batch reported ${okLines} successes of ${records}`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  batch = { ...batch, ms: median(journaled) };
  const unjournaled = { ms: median(unjournaledRuns) };
  await reset();
  const loop = time(`while read -r uid; do out=$(${bo} addons expire "$uid" 2>&1 >/dev/null) || { echo "$uid: $out" >&2; exit 1; }; done < "${list}"`);

  const ratio = loop.ms / batch.ms;
  console.log(`records     ${records}`);
  console.log(`batch       ${Math.round(batch.ms)} ms (median of ${pairs}, journal on)`);
  console.log(`no journal  ${Math.round(unjournaled.ms)} ms (median of ${pairs}; journal cost ${(((batch.ms - unjournaled.ms) / unjournaled.ms) * 100).toFixed(0)} %)`);
  console.log(`shell loop  ${Math.round(loop.ms)} ms`);
  console.log(`ratio       ${ratio.toFixed(1)}x`);
  if (records >= 1000 && ratio < 20) {
    console.error(`the batch must be at least 20x faster than the loop; it was ${ratio.toFixed(1)}x`);
    process.exitCode = 1;
  }
  const cost = (batch.ms - unjournaled.ms) / unjournaled.ms;
  if (records >= 1000 && cost >= 0.1) {
    console.error(`the journal must cost under 10 % of a batch; it cost ${(cost * 100).toFixed(0)} %`);
    process.exitCode = 1;
  }
} finally {
  child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
