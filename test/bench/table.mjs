#!/usr/bin/env node
// Table benchmark: `bo accounts list --all` on a pseudo-terminal (a streamed, fitted
// table) against the same export with `--jsonl`, over 100,000 accounts served by
// `bo sandbox serve --memory --accounts 100000` as a real process, with the built
// binary. Prints both times and their ratio (the target: the table takes at most 1.5×
// the --jsonl export). Reports only; never asserts a time.
//
//   node scripts/build.mjs && node test/bench/table.mjs [--accounts N] [--runs N]
//
// The pseudo-terminal comes from util-linux `script -qfc`; its own output (the table
// as the terminal received it) goes to /dev/null. NODE_EXTRA_CA_CERTS is unset in
// spawned processes so a CA bundle does not skew the times.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { ensureBuilt, numberOption } from './serve-sandbox.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const accounts = numberOption('--accounts', 100_000);
const runs = numberOption('--runs', 3);
// BO_PAGER=cat: the table is measured as written to the terminal, not through less.
const env = { ...process.env, COLUMNS: '160', LINES: '50', LANG: process.env.LANG || 'C.UTF-8', BO_PAGER: 'cat' };
delete env.NODE_EXTRA_CA_CERTS;

ensureBuilt(root);
try {
  execFileSync('script', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('table benchmark: needs `script` (util-linux) for a pseudo-terminal');
  process.exit(2);
}

const server = spawn(process.execPath, ['bin/bo.js', 'sandbox', 'serve', '--memory', '--port', '0', '--accounts', String(accounts)], {
  cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'],
});
const [line] = await once(createInterface({ input: server.stdout }), 'line');
const url = line.trim();

const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const bo = (extra) => [process.execPath, 'bin/bo.js', '--base-url', url, 'accounts', 'list', '--all', '--no-log', ...extra].map(shellQuote).join(' ');

/** Runs `command` on a pseudo-terminal (stdout a TTY), discarding what it draws. */
async function onTty(command) {
  const started = performance.now();
  const child = spawn('script', ['-qfec', `stty cols 160 rows 50; ${command}`, '/dev/null'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${command}: exit ${code}`);
  return performance.now() - started;
}

try {
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  env.BO_API_KEY = fixtures.apiKey.key;
  env.BO_API_SECRET = fixtures.apiKey.secret;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const table = [];
  const jsonl = [];
  for (let i = 0; i < runs; i++) {
    table.push(await onTty(bo([])));
    jsonl.push(await onTty(bo(['--jsonl'])));
  }
  const t = median(table);
  const j = median(jsonl);
  console.log(`table benchmark: ${accounts} accounts, median of ${runs} runs, both on a pseudo-terminal of 160 columns`);
  console.log(`TTY table: ${(t / 1000).toFixed(2)} s`);
  console.log(`--jsonl:   ${(j / 1000).toFixed(2)} s`);
  console.log(`ratio table / jsonl: ${(t / j).toFixed(2)} (target ≤ 1.5)`);
} finally {
  server.kill('SIGTERM');
}
