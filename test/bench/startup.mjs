// Startup benchmark: wall time of `bo` commands as ratios against `node -e 0`, all
// measured in this same run. NODE_EXTRA_CA_CERTS is unset in the children (it adds
// ~70 ms to every Node start on some machines) so the ratios are the ones users see.
// Run after `npm run build`: `node test/bench/startup.mjs [runs]`. Prints; asserts nothing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
const home = mkdtempSync(join(tmpdir(), 'bo-bench-'));
const env = { ...process.env, HOME: home, BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data'), NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.BO_SANDBOX;

const bo = [join(root, 'bin/bo.js')];
const cases = [
  ['node -e 0', ['-e', '0']],
  ['bo --version', [...bo, '--version']],
  // What the completion scripts run at TAB time: answered within the --version target.
  ['bo __complete profiles', [...bo, '__complete', 'profiles']],
  ['bo --help', [...bo, '--help']],
  ['bo accounts list --help', [...bo, 'accounts', 'list', '--help']],
  ['bo --sandbox accounts list (warm state)', [...bo, '--sandbox', 'accounts', 'list', '--limit', '20']],
  ['bo --sandbox accounts list --json', [...bo, '--sandbox', '--json', 'accounts', 'list', '--limit', '20']],
];

function time(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

// One untimed run of each: creates the sandbox state file and warms the disk cache.
for (const [, args] of cases) time(args);
const results = cases.map(([name, args]) => {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(time(args));
  return { name, median: median(samples), min: Math.min(...samples) };
});
const base = results[0].median;
console.log(`startup, ${runs} runs each, median (min); NODE_EXTRA_CA_CERTS unset; node ${process.version}`);
for (const r of results) {
  console.log(`${r.name.padEnd(44)} ${r.median.toFixed(1).padStart(7)} ms (${r.min.toFixed(1)})  x${(r.median / base).toFixed(2)}`);
}
rmSync(home, { recursive: true, force: true });
