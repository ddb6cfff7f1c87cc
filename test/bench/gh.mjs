// The single executable against a Go CLI (binary.mjs calls ghRows): one write,
// `bo addons expire <uid>` against `gh api -X PUT` of the same path, through the same
// nginx TLS front (tls-front.mjs) to the same served sandbox; `--version` and `--help`
// against `node -e 0` of the Node the executable embeds, gh's beside them, and a warm
// `--sandbox accounts list` against the same `node -e 0`. Every child
// has the same environment, the front's CA included (NODE_EXTRA_CA_CERTS for bo and
// node -e 0, SSL_CERT_FILE for gh). Without gh, nginx or openssl: one row saying so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontMissing, startTlsFront } from './tls-front.mjs';
import { serveSandbox } from './serve-sandbox.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, d = 2) => x.toFixed(d);

/**
 * One run: its wall time and its CPU time (user + system, from /usr/bin/time), in ms.
 * On a loaded machine the CPU time is the steadier figure (docs/performance.md).
 */
function time([cmd, ...args], env, cpuFile) {
  const start = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-o', cpuFile, '-f', '%U %S', cmd, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} exited ${r.status}: ${r.stderr}`);
  const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  return { wall, cpu: (user + sys) * 1000 };
}

/** Medians ({ wall, cpu }) of the cases timed alternately over `rounds`, after one untimed run each. */
function alternate(cases, rounds, env, cpuFile) {
  for (const c of cases) time(c, env, cpuFile);
  const samples = cases.map(() => []);
  for (let i = 0; i < rounds; i++) cases.forEach((c, j) => samples[j].push(time(c, env, cpuFile)));
  return samples.map((xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }));
}

/** Why gh cannot be compared here, or undefined. */
export function ghMissing() {
  if (spawnSync('gh', ['--version'], { stdio: 'ignore' }).status !== 0) return 'gh is not installed (Debian package gh)';
  if (spawnSync('/usr/bin/time', ['true'], { stdio: 'ignore' }).status !== 0) return '/usr/bin/time is not installed (Debian package time)';
  return frontMissing();
}

/**
 * Rows as binary.mjs's: { figure, value, target, ok, detail }. `exe`: the single
 * executable; `node`: the Node 24 it embeds; `env`: the bench's (its own HOME).
 */
export async function ghRows({ runs, exe, node, env: benchEnv }) {
  const missing = ghMissing();
  if (missing) return [{ figure: 'single executable against gh', value: `skipped: ${missing}`, target: 'reported', ok: true, detail: '' }];
  const dir = mkdtempSync(join(tmpdir(), 'bo-bench-gh-'));
  const { url, child } = await serveSandbox({ args: ['--accounts', '100'], env: benchEnv, node, bo: join(root, 'bin/bo.js') });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let front;
  try {
    const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
    const key = fixtures.apiKey;
    front = await startTlsFront({ dir, upstream: url, auth: `${key.scheme} ${key.key}:${key.secret}` });
    const env = {
      ...benchEnv,
      XDG_CACHE_HOME: join(benchEnv.HOME, 'binary-cache'),
      NODE_EXTRA_CA_CERTS: front.ca,
      SSL_CERT_FILE: front.ca,
      BO_BASE_URL: front.url,
      BO_API_KEY: key.key,
      BO_API_SECRET: key.secret,
      ...(key.scheme === 'bo' ? {} : { BO_API_KEY_SCHEME: key.scheme }),
      GH_HOST: front.host,
      GH_ENTERPRISE_TOKEN: 'bench',
      GH_NO_UPDATE_NOTIFIER: '1',
      GH_CONFIG_DIR: join(dir, 'gh'),
      GH_PROMPT_DISABLED: '1',
      NO_COLOR: '1',
    };
    // Expiring an add-on that has already ended succeeds too (D24), with the same round trip.
    const uid = fixtures.subscriptionAddOns[0];
    const nodeE0 = [node, '-e', '0'];
    const cpuFile = join(dir, 'cpu');
    const [n, g, b] = alternate([nodeE0, ['gh', 'api', '-X', 'PUT', `billing/subscriptionaddons/${uid}/expire`], [exe, 'addons', 'expire', uid]], runs, env, cpuFile);
    const [n2, gv, gh, v, h, l] = alternate([nodeE0, ['gh', '--version'], ['gh', '--help'], [exe, '--version'], [exe, '--help'], [exe, '--sandbox', 'accounts', 'list']], runs, env, cpuFile);
    const ghVersion = spawnSync('gh', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
    /** "wall ×, CPU ×" of a against b; the target is checked on the wall time. */
    const both = (a, of) => `${fmt(a.wall / of.wall)} × (CPU ${fmt(a.cpu / of.cpu)} ×)`;
    const ms = (x) => `${fmt(x.wall, 1)} ms, CPU ${fmt(x.cpu, 1)} ms`;
    return [
      { figure: 'single executable: `bo addons expire <uid>` over TLS', value: `${both(b, g)} gh api -X PUT`, target: '≤ 1.0 ×', ok: b.wall / g.wall <= 1.0,
        detail: `${ms(b)} = ${both(b, n)} node -e 0; ${ghVersion} ${ms(g)} = ${both(g, n)}` },
      { figure: 'single executable: `bo --version`, against node -e 0', value: both(v, n2), target: '≤ 1.1 ×', ok: v.wall / n2.wall <= 1.1,
        detail: `${ms(v)}; node -e 0 ${ms(n2)}; gh --version ${both(gv, n2)}` },
      { figure: 'single executable: `bo --help`, against node -e 0', value: both(h, n2), target: '≤ 1.1 ×', ok: h.wall / n2.wall <= 1.1, detail: `${ms(h)}; gh --help ${both(gh, n2)}` },
      { figure: 'single executable: `bo --sandbox accounts list`, warm, against node -e 0', value: both(l, n2), target: '≤ 1.5 ×', ok: l.wall / n2.wall <= 1.5, detail: ms(l) },
    ];
  } finally {
    await front?.close();
    child.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
