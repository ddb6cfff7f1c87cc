#!/usr/bin/env node
// Paging benchmark: `bo sandbox serve --memory --accounts 100000` as a real process,
// then the time to serve a 100-record page of accounts and a `q` search over HTTP,
// each reported in milliseconds and as a ratio to `node -e 0` measured in this run
// (so numbers compare across machines). Reports only; never asserts a time.
//
//   npm run build && node test/bench/paging.mjs [--accounts N] [--runs N]
//
// NODE_EXTRA_CA_CERTS is unset in spawned processes: loading a CA bundle would add
// to every Node start and skew the baseline.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchEnv, serveSandbox, ensureBuilt, numberOption } from './serve-sandbox.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const accounts = numberOption('--accounts', 100_000);
const runs = numberOption('--runs', 50);
const env = benchEnv();

ensureBuilt(root);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

// Baseline: a bare Node start, measured here so ratios compare across machines.
const baseline = [];
for (let i = 0; i < 10; i++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  baseline.push(performance.now() - t);
}
const nodeMs = median(baseline);

const started = performance.now();
const { url, child } = await serveSandbox({ args: ['--accounts', String(accounts)], env, cwd: root });
const startupMs = performance.now() - started;

try {
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  const auth = `${fixtures.apiKey.scheme} ${fixtures.apiKey.key}:${fixtures.apiKey.secret}`;
  const time = async (path) => {
    const t = performance.now();
    const res = await fetch(`${url}/api/v1${path}`, { headers: { authorization: auth } });
    const body = await res.json();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms, body };
  };
  const measure = async (label, path) => {
    const first = await time(path);
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push((await time(path)).ms);
    const m = median(samples);
    return { label, path, items: first.body.items.length, total: first.body.metadata.total, firstMs: first.ms, medianMs: m };
  };
  const results = [
    await measure('page of 100 accounts (default depth)', '/crm/accounts?limit=100&offset=500&donotlog=1'),
    await measure('page of 100 accounts (fields=Name)', '/crm/accounts?limit=100&offset=999&fields=Name&donotlog=1'),
    await measure('q search over all accounts', '/crm/accounts?q=acme&limit=100&donotlog=1'),
    await measure('filter + orderBy over all accounts', '/crm/accounts?AccountStage=2&orderBy=Name%20desc&limit=100&donotlog=1'),
  ];
  const fmt = (x) => x.toFixed(2);
  console.log(`paging benchmark: ${accounts} seeded accounts, ${runs} runs each (NODE_EXTRA_CA_CERTS unset in spawned processes)`);
  console.log(`node -e 0: ${fmt(nodeMs)} ms (baseline, median of 10)`);
  console.log(`serve start incl. seeding: ${fmt(startupMs)} ms = ${fmt(startupMs / nodeMs)}× node -e 0`);
  for (const r of results) {
    console.log(`${r.label}: median ${fmt(r.medianMs)} ms = ${fmt(r.medianMs / nodeMs)}× node -e 0; first ${fmt(r.firstMs)} ms (${r.items} of ${r.total})`);
  }
} finally {
  child.kill('SIGINT');
}
