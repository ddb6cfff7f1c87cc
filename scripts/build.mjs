// Bundles src/ into dist/ for a fast start: one entry chunk holding commander and the
// command tree, and lazy chunks for what only some commands need (HTTP, tables,
// prompts, keychain, sandbox). Native modules stay external.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { bo: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Native modules stay external; so does @inquirer/prompts (with iconv-lite, over half
  // of the bundle), loaded only when a prompt shows: a declared dependency that npm
  // installs, so the package does not ship a second copy of it.
  external: ['@napi-rs/keyring', '@inquirer/prompts'],
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __bo_cr } from 'node:module'; const require = __bo_cr(import.meta.url);" },
  logLevel: 'warning',
});

// dist/complete.cjs: `bo __complete` (src/completion/dynamic.ts), which bin/bo.js runs
// at every TAB without loading dist/bo.js. One self-contained file that shares no chunk
// with the main bundle, and CommonJS: require() of it starts ~4 ms sooner than an ESM
// import() on Node 20, which keeps it within the `bo --version` start-up target.
await build({
  entryPoints: ['src/completion/dynamic.ts'],
  outfile: 'dist/complete.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
});
