// `bo sandbox serve --memory` as a real process for the benchmarks: resolves with its
// base URL once it prints it, or rejects with what it wrote on stderr if it exits first.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The environment of the bench's children: NODE_EXTRA_CA_CERTS adds ~70 ms to each Node start. */
export function benchEnv(base = process.env) {
  const env = { ...base };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Starts the sandbox: `args` go after `sandbox serve --memory --port 0` (e.g.
 * `['--accounts', '100000']`). Answers `{ url, child }`.
 */
export async function serveSandbox({ args = [], env = benchEnv(), cwd, node = process.execPath, bo = 'bin/bo.js' } = {}) {
  const child = spawn(node, [bo, 'sandbox', 'serve', '--memory', '--port', '0', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { url, child };
}

/** The repository's root. */
export const benchRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `--name N` of the script's arguments, as a number; `fallback` when absent. */
export function numberOption(name, fallback, args = process.argv.slice(2)) {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** Builds dist/ first when it is missing (a bench run on a fresh clone). */
export function ensureBuilt(root = benchRoot) {
  if (!existsSync(`${root}/dist/bo.cjs`)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
