#!/usr/bin/env node
// `npm run bench`: every figure of the performance table, each with its target, as
// ratios measured in this one run: each `bo` command is timed alternately with
// `node -e 0` (and with the floor client, where the target names it), medians over
// --runs rounds (default 10). Public tools only: Node, /usr/bin/time -v for peak RSS.
// NODE_EXTRA_CA_CERTS is unset in every child (on some machines it adds ~70 ms to each
// Node start). Needs a Secret Service for the keychain figure: without one it re-runs
// itself under .ci/keyring.sh (a private D-Bus and gnome-keyring).
//
// Both Node versions in one table: the figures are measured on the Node that runs this
// script, then the script runs itself again under the other one (Node 20 when this is
// 24 or later, else Node 24, from `npx -y -p node@…`) and prints one table. The targets
// are stated and checked on Node 24; Node 20's figures are reported beside them.
// `--other-node <path>` names the other Node's binary instead, `--other-node none` skips it.
//
//   node test/bench/run.mjs [--runs 10] [--loop 200] [--accounts 100000]
//                           [--large 300000] [--export-runs 3] [--only name,name]
//                           [--other-node <path>|none]
//
// `binary` (test/bench/binary.mjs) times the single executable of `npm run build:binary`,
// and against gh over an nginx TLS front (test/bench/gh.mjs) where gh and nginx are installed.
//
// Reports; asserts nothing (test/bench/smoke.test.ts runs it tiny so it cannot rot).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSandbox } from './serve-sandbox.mjs';
import { binaryRows } from './binary.mjs';
import { mcpRows } from './mcp.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const runs = Number(opt('--runs', 10));
const loop = Number(opt('--loop', 200));
const accounts = Number(opt('--accounts', 100_000));
const large = Number(opt('--large', 300_000));
const exportRuns = Number(opt('--export-runs', Math.min(runs, 3)));
const otherNode = opt('--other-node', undefined);
// Internal: the run under the other Node prints its rows as JSON for the first to merge.
const rowsJson = argv.includes('--rows-json');
const only = opt('--only', '') ? new Set(opt('--only', '').split(',')) : undefined;
const want = (name) => !only || only.has(name);

// The keychain figure needs a Secret Service: re-enter under .ci/keyring.sh once.
if (want('keychain') && !process.env.BO_KEYRING_SESSION && process.platform === 'linux') {
  const r = spawnSync('bash', [join(root, '.ci/keyring.sh'), process.execPath, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

if (!existsSync(join(root, 'dist/bo.cjs')) || !existsSync(join(root, 'dist/top-help.json'))) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

const home = mkdtempSync(join(tmpdir(), 'bo-bench-'));
const baseEnv = { ...process.env, HOME: home, BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data'), NO_COLOR: '1' };
for (const name of ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'BO_SANDBOX', 'BO_PROFILE', 'BO_BASE_URL', 'BO_TOKEN', 'BO_API_KEY', 'BO_API_SECRET', 'BO_DEBUG']) {
  delete baseEnv[name];
}
const bo = join(root, 'bin/bo.js');
const node = process.execPath;
const floorClient = join(root, 'test/bench/floor-client.mjs');
const floorExport = join(root, 'test/bench/floor-export.mjs');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time of one child, in ms; the output goes to a pipe and is dropped. */
function time([cmd, ...args], env = baseEnv, prepare) {
  prepare?.();
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Times the cases alternately, `rounds` times; returns the median of each. */
function alternate(cases, rounds) {
  for (const c of cases) time(c.argv, c.env, c.prepare); // warm the disk cache (and state files)
  const samples = cases.map(() => []);
  for (let i = 0; i < rounds; i++) cases.forEach((c, j) => samples[j].push(time(c.argv, c.env, c.prepare)));
  return samples.map(median);
}

const rows = [];
const fmt = (x, d = 2) => x.toFixed(d);
function row(figure, value, target, ok, detail = '') {
  rows.push({ figure, value, target, ok, detail });
  console.error(`  ${figure}: ${value}${detail ? ` (${detail})` : ''}`);
}

/** `bo sandbox serve` as a real process over an in-memory world of `n` accounts. */
async function serve(n) {
  const { url, child } = await serveSandbox({ args: ['--accounts', String(n)], env: baseEnv, node, bo });
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  // Waits for the exit: the server writes its code cache as it ends, in the bench's HOME.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { url, fixtures, close: () => (child.kill('SIGINT'), exited) };
}

/** Peak RSS (KiB) and wall time of one run, from /usr/bin/time -v. */
function measured(args, env) {
  const r = spawnSync('/usr/bin/time', ['-v', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  const text = String(r.stderr);
  const kib = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1]);
  const m = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  const seconds = m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
  return { kib, seconds, lines: countLines(r.stdout) };
}

/** Lines of a large output, counted in its bytes (300,000 records are more text than one string holds). */
function countLines(bytes) {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}

const nodeE0 = [node, '-e', '0'];
const boIn = (...args) => [node, bo, ...args];

console.error(`bo bench: ${runs} rounds, ${cpus().length} cores, node ${process.version}, NODE_EXTRA_CA_CERTS unset`);
try {
  if (want('version') || want('help')) {
    const [n, v, h] = alternate([{ argv: nodeE0 }, { argv: boIn('--version') }, { argv: boIn('--help') }], runs);
    if (want('version')) row('`bo --version`', `${fmt(v / n)} ×`, '≤ 1.3 ×', v / n <= 1.3, `${fmt(v, 1)} ms; node -e 0 ${fmt(n, 1)} ms`);
    if (want('help')) row('`bo --help`', `${fmt(h / n)} ×`, '≤ 1.8 ×', h / n <= 1.8, `${fmt(h, 1)} ms`);
  }

  let served;
  const needServe = ['list', 'keychain', 'loop', 'export'].some(want);
  if (needServe) served = await serve(accounts);
  try {
    const keyEnv = served && {
      ...baseEnv,
      BO_BASE_URL: served.url,
      BO_API_KEY: served.fixtures.apiKey.key,
      BO_API_SECRET: served.fixtures.apiKey.secret,
    };
    const floorEnv = served && {
      ...baseEnv,
      FLOOR_URL: `${served.url}/api/v1/crm/accounts?limit=100`,
      FLOOR_AUTH: `${served.fixtures.apiKey.scheme} ${served.fixtures.apiKey.key}:${served.fixtures.apiKey.secret}`,
    };
    if (served && served.fixtures.apiKey.scheme !== 'bo') keyEnv.BO_API_KEY_SCHEME = served.fixtures.apiKey.scheme;

    if (want('list')) {
      const [n, f, b] = alternate([{ argv: nodeE0 }, { argv: [node, floorClient], env: floorEnv }, { argv: boIn('accounts', 'list', '--json'), env: keyEnv }], runs);
      row('`accounts list --json`, key from env, served sandbox', `${fmt(b / f)} × the floor client`, '≤ 1.25 × the floor client', b / f <= 1.25,
        `${fmt(b / n)} × node -e 0; floor client ${fmt(f / n)} ×`);
    }

    if (want('keychain')) {
      // A profile whose API key lives in the keychain (the Secret Service of keyring.sh).
      const kcEnv = { ...baseEnv, BO_CONFIG_DIR: join(home, 'config-keychain') };
      execFileSync(node, [bo, 'config', 'set', 'base-url', served.url], { env: kcEnv, stdio: 'pipe' });
      execFileSync(node, [bo, 'auth', 'set-key', '--key', served.fixtures.apiKey.key, '--secret-stdin'], { env: kcEnv, input: `${served.fixtures.apiKey.secret}\n`, stdio: 'pipe' });
      const [n, f, b] = alternate([{ argv: nodeE0 }, { argv: [node, floorClient], env: floorEnv }, { argv: boIn('accounts', 'list', '--json'), env: kcEnv }], runs);
      row('the same, key from a real keychain', `${fmt(b / f)} × the floor client`, '≤ 1.4 × the floor client', b / f <= 1.4, `${fmt(b / n)} × node -e 0`);
    }

    if (want('loop')) {
      // Seeded subscription add-ons, one per call (up to 20, then again): expiring an
      // add-on that has already ended succeeds too (D24) with the same round trip, so
      // every call must exit 0.
      const uids = served.fixtures.subscriptionAddOns;
      if (uids.length === 0) throw new Error('no subscription add-ons in the served sandbox');
      const argsFor = (i) => ['addons', 'expire', uids[i % uids.length]];
      const what = '`bo addons expire <uid>`';
      // One shell loop of `loop` calls per sample, alternating with a loop of `node -e 0`.
      const script = (cmd) => `for i in $(seq ${loop}); do ${cmd} >/dev/null || exit 1; done`;
      const boCmds = Array.from({ length: Math.min(loop, 20) }, (_, i) => argsFor(i).map((a) => `'${a}'`).join(' '));
      const boLoop = `for i in $(seq ${loop}); do case $((i % ${boCmds.length})) in ${boCmds.map((c, i) => `${i}) '${node}' '${bo}' ${c} >/dev/null || exit 1;;`).join(' ')} esac; done`;
      const [n, b] = alternate([{ argv: ['bash', '-c', script(`'${node}' -e 0`)] }, { argv: ['bash', '-c', boLoop], env: keyEnv }], runs);
      // 2.5 × with the journal on (every single change writes its run file before its
      // request): the 2.2 × of before the journal did not count that work.
      row(`${loop} × ${what} in a shell loop`, `${fmt(b / n)} × per call`, '≤ 2.5 ×', b / n <= 2.5, `${fmt(b / loop, 1)} ms per call`);
    }

    if (want('export')) {
      const expEnv = { ...keyEnv };
      const floorExpEnv = { ...floorEnv, FLOOR_URL: `${served.url}/api/v1/crm/accounts` };
      const boRate = [];
      const floorRate = [];
      let rss100;
      for (let i = 0; i < exportRuns; i++) {
        const f = measured([node, floorExport], floorExpEnv);
        const b = measured([node, bo, 'accounts', 'list', '--all', '--jsonl'], expEnv);
        if (b.lines !== accounts) throw new Error(`export printed ${b.lines} records of ${accounts}`);
        floorRate.push(f.lines / f.seconds);
        boRate.push(b.lines / b.seconds);
        rss100 = Math.max(rss100 ?? 0, b.kib);
      }
      const bo100 = median(boRate);
      const fl = median(floorRate);
      row(`\`accounts list --all --jsonl\`, ${accounts.toLocaleString('en-US')} accounts`, `${fmt(bo100 / 1000, 1)} k records/s = ${fmt(bo100 / fl)} × the 4-way client`,
        '≥ 0.8 × a 4-way concurrent `node:http` client', bo100 / fl >= 0.8, `4-way node:http client ${fmt(fl / 1000, 1)} k/s`);
      await served.close();
      served = await serve(large);
      const largeEnv = { ...expEnv, BO_BASE_URL: served.url, BO_API_KEY: served.fixtures.apiKey.key, BO_API_SECRET: served.fixtures.apiKey.secret };
      // The larger export's highest peak, of as many runs as the first size's (the growth
      // between the two is reported beside the bound).
      let rssLarge = 0;
      for (let i = 0; i < exportRuns; i++) {
        const big = measured([node, bo, 'accounts', 'list', '--all', '--jsonl'], largeEnv);
        if (big.lines !== large) throw new Error(`export printed ${big.lines} records of ${large}`);
        rssLarge = Math.max(rssLarge, big.kib);
      }
      const grow = rssLarge / rss100 - 1;
      // Each size within the bound; the growth between them is reported, not targeted.
      row('peak RSS of that export', `${fmt(rss100 / 1024, 0)} MiB at ${accounts.toLocaleString('en-US')}, ${fmt(rssLarge / 1024, 0)} MiB at ${large.toLocaleString('en-US')} (highest of ${exportRuns} runs each)`,
        '≤ 160 MiB at each', rss100 / 1024 <= 160 && rssLarge / 1024 <= 160, `${grow >= 0 ? '+' : ''}${fmt(grow * 100, 1)} %`);
    }
  } finally {
    await served?.close();
  }

  if (want('sandbox')) {
    const sbEnv = { ...baseEnv, BO_DATA_DIR: join(home, 'sandbox-data') };
    const wipe = () => rmSync(sbEnv.BO_DATA_DIR, { recursive: true, force: true });
    const list = boIn('--sandbox', 'accounts', 'list');
    const [n, cold] = alternate([{ argv: nodeE0 }, { argv: list, env: sbEnv, prepare: wipe }], runs);
    row('`bo --sandbox accounts list`, first run (cold)', `${fmt(cold / n)} ×`, '≤ 3.0 ×', cold / n <= 3.0, `${fmt(cold, 1)} ms`);
    const [n2, warm] = alternate([{ argv: nodeE0 }, { argv: list, env: sbEnv }], runs);
    row('the same, warm', `${fmt(warm / n2)} ×`, '≤ 2.4 ×', warm / n2 <= 2.4, `${fmt(warm, 1)} ms`);
  }

  if (want('mcp')) {
    const mcpEnv = { ...baseEnv, BO_DATA_DIR: join(home, 'mcp-data') };
    for (const r of await mcpRows({ runs, env: mcpEnv, node, bo })) row(r.figure, r.value, r.target, r.ok, r.detail);
  }

  // The single executable against node bin/bo.js on the Node 24 it embeds (binary.mjs):
  // the same whichever Node runs this, so measured once, by the first run.
  if (want('binary') && !rowsJson) for (const r of await binaryRows({ runs, env: baseEnv, log: () => {} })) row(r.figure, r.value, r.target, r.ok, r.detail);
} finally {
  rmSync(home, { recursive: true, force: true, maxRetries: 3 });
}

if (rowsJson) {
  console.log(JSON.stringify({ version: process.version, rows }));
  process.exit(0);
}

/** The other Node's binary: --other-node, else Node 20 from npx when this is 24 or later, else Node 24. */
function otherNodePath() {
  if (otherNode === 'none') return undefined;
  if (otherNode) return otherNode;
  const wanted = major(process.version) >= 24 ? '20' : '24';
  return execFileSync('npx', ['-y', '-p', `node@${wanted}`, 'node', '-p', 'process.execPath'], { encoding: 'utf8', env: baseEnvForNpx() }).trim();
}

function major(version) {
  return Number(/^v?(\d+)/.exec(version)?.[1]);
}

function baseEnvForNpx() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return env;
}

/** This script under the other Node, with the same options; its rows. */
function otherRun(path) {
  const args = argv.filter((a, i) => a !== '--rows-json' && a !== '--other-node' && argv[i - 1] !== '--other-node');
  const r = spawnSync(path, [fileURLToPath(import.meta.url), ...args, '--rows-json', '--other-node', 'none'], {
    env: baseEnvForNpx(),
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`the bench under ${path} exited ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const otherPath = otherNodePath();
const other = otherPath ? otherRun(otherPath) : undefined;
// The targets are Node 24's: the run on the higher major (this one when both are alike) states them.
const here = { version: process.version, rows };
const [stated, reported] = other && major(other.version) > major(here.version) ? [other, here] : [here, other];

const date = new Date().toISOString().slice(0, 10);
const name = (run) => `Node ${major(run.version)}`;
console.log(
  `bo performance, ${date}, ${cpus().length} cores, NODE_EXTRA_CA_CERTS unset; medians of ${runs} alternating rounds; ` +
    `${name(stated)} (${stated.version}) stated with its targets${reported ? `, ${name(reported)} (${reported.version}) reported` : ''}`,
);
console.log('');
console.log(`| figure | ${name(stated)} | target (${name(stated)}) | within |${reported ? ` ${name(reported)} |` : ''}`);
console.log(`|---|---|---|---|${reported ? '---|' : ''}`);
// Figures measured by one run only (the single executable's) go in the stated column.
const once = (reported?.rows ?? []).filter((o) => !stated.rows.some((r) => r.figure === o.figure));
const cell = (x) => `${x.value}${x.detail ? ` (${x.detail})` : ''}`;
for (const r of [...stated.rows, ...once]) {
  const beside = once.includes(r) ? undefined : reported?.rows.find((o) => o.figure === r.figure);
  console.log(`| ${r.figure} | ${cell(r)} | ${r.target} | ${r.ok ? 'yes' : 'NO'} |${reported ? ` ${beside ? cell(beside) : '-'} |` : ''}`);
}
