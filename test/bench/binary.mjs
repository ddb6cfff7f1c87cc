// The single executable's figures for `npm run bench` (test/bench/run.mjs calls
// binaryRows): its `--version` and warm `--sandbox accounts list` against
// `node bin/bo.js` on the Node 24 it embeds (the one scripts/build-binary.mjs fetched),
// timed alternately, medians; then against `node -e 0` and gh (gh.mjs). Uses the executable BO_BINARY names (CI builds one), else
// dist/bo-<os>-<arch> from `npm run build:binary`, else builds one (without the archive)
// into a temporary folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ghRows } from './gh.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const os = process.platform === 'win32' ? 'win' : process.platform;
const target = `bo-${os}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(argv, env, prepare) {
  prepare?.();
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Medians of [a, b] over `rounds` alternating rounds, after one warm-up each; `prepare` runs before each of a. */
function pair(a, b, rounds, env, prepare) {
  time(a, env, prepare);
  time(b, env);
  const ta = [];
  const tb = [];
  for (let i = 0; i < rounds; i++) {
    ta.push(time(a, env, prepare));
    tb.push(time(b, env));
  }
  return [median(ta), median(tb)];
}

/** The Node build-binary.mjs embeds (scripts/sea-node-version), from the npm cache folder of the project. */
function embeddedNode() {
  const cache = join(root, 'node_modules/.cache/bo-binary');
  const pinned = readFileSync(join(root, 'scripts/sea-node-version'), 'utf8').trim();
  const dir = existsSync(cache) ? readdirSync(cache).find((d) => /^node(-bin)?-[a-z]+-[a-z0-9]+-\d+\.\d+\.\d+$/.test(d) && d.endsWith(`-${pinned}`)) : undefined;
  if (!dir) return undefined;
  const bin = join(cache, dir, 'package', process.platform === 'win32' ? 'node.exe' : 'bin/node');
  return existsSync(bin) ? bin : undefined;
}

/**
 * Rows for run.mjs's table: { figure, value, target, ok, detail }. `env` is the bench's
 * environment (its own HOME); `log` prints a row as it is measured.
 */
export async function binaryRows({ runs, env: benchEnv, log = (row) => console.error(`  ${row.figure}: ${row.value} (${row.detail})`) }) {
  let exe = process.env.BO_BINARY || join(root, 'dist', target);
  let built;
  if (!existsSync(exe) || !embeddedNode()) {
    built = mkdtempSync(join(tmpdir(), 'bo-bench-binary-'));
    execFileSync(process.execPath, [join(root, 'scripts/build-binary.mjs'), '--out', built, '--no-archive'], { cwd: root, stdio: 'inherit' });
    exe = join(built, target);
  }
  try {
    const node = embeddedNode();
    // Its own cache folder: the executable's files (bin/sea.cjs) and Node's compile cache.
    const cache = join(benchEnv.HOME, 'binary-cache');
    const env = { ...benchEnv, XDG_CACHE_HOME: cache };
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const shim = join(root, 'bin/bo.js');
    const rows = [];
    const add = (row) => {
      rows.push(row);
      log(row);
    };
    const fmt = (x) => x.toFixed(2);
    const [v, nv] = pair([exe, '--version'], [node, shim, '--version'], runs, env);
    add({ figure: 'single executable: `bo --version`', value: `${fmt(v / nv)} × node bin/bo.js`, target: '≤ 1.0 ×', ok: v / nv <= 1.0, detail: `${v.toFixed(1)} ms; node ${version} bin/bo.js ${nv.toFixed(1)} ms` });
    const sbEnv = { ...env, BO_DATA_DIR: join(env.HOME, 'binary-sandbox-data') };
    const [s, ns] = pair([exe, '--sandbox', 'accounts', 'list'], [node, shim, '--sandbox', 'accounts', 'list'], runs, sbEnv);
    add({ figure: 'single executable: `bo --sandbox accounts list`, warm', value: `${fmt(s / ns)} × node bin/bo.js`, target: '≤ 1.0 ×', ok: s / ns <= 1.0, detail: `${s.toFixed(1)} ms; node ${version} bin/bo.js ${ns.toFixed(1)} ms` });
    // The first run of a build writes its files out of the executable: `--version` with
    // the cache folder emptied before each run, against the same warm.
    const wipe = () => rmSync(cache, { recursive: true, force: true });
    const [first, warm] = pair([exe, '--version'], [exe, '--version'], runs, env, wipe);
    add({ figure: 'single executable: first run of a build (writes its files), `bo --version`', value: `+${(first - warm).toFixed(1)} ms`, target: 'reported', ok: true, detail: `${first.toFixed(1)} ms; warm ${warm.toFixed(1)} ms` });
    const archive = `${exe.replace(/\.exe$/, '')}.tar.xz`;
    const mib = (file) => (statSync(file).size / 1024 / 1024).toFixed(1);
    console.error(`  single executable: ${mib(exe)} MiB${existsSync(archive) ? `, ${mib(archive)} MiB as .tar.xz` : ''}`);
    for (const row of await ghRows({ runs, exe, node, env })) add(row);
    return rows;
  } finally {
    if (built) rmSync(built, { recursive: true, force: true });
  }
}
