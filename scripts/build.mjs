// Bundles src/ into dist/ for a fast start.
//
// dist/bo.cjs is ONE file: commander, every verb and every light module a verb imports
// (config, credentials, HTTP, paging, output). The registry (src/commands/index.ts)
// loads each verb with import(), which esbuild inlines as a lazily initialised module:
// a verb and its imports cost a parse, not an evaluation, until the verb is used: each extra file on the start-up path costs more to resolve
// and load than scanning the same bytes in one file. It is CommonJS, which Node loads
// without the ESM loader and keeps in its compile cache (bin/bo.js).
//
// What only some commands need and is big stays out of it, in dist/lazy/ (built in a
// second pass, one file per group): the sandbox server, inquirer's prompts, bo's side of
// the MCP SDK (dist/lazy/mcp.cjs: src/mcp/sdk.ts, for `bo mcp` only), and jq
// (dist/lazy/jq.cjs, CommonJS too, with jq.wasm copied beside it: it reads the file
// from its own folder, so nothing at run time needs node_modules).
// The sandbox is dist/lazy/sandbox.cjs, CommonJS like dist/bo.cjs, which loads it with
// a plain require() when a command first needs it (the ESM loader would cost a
// `--sandbox` run ~10 ms). Inquirer's prompts (src/auth/prompts.ts: @inquirer/input,
// password, confirm, select) are ESM packages and their group stays ESM
// (dist/lazy/inquirer.js, loaded with import()). Nothing there may hand a project error
// class back to the main bundle (its copy of the class would differ); the sandbox
// talks HTTP, the libraries are third-party. Native modules stay external.
//
// Last, dist/top-help.json: `bo --help` captured from the command tree, which
// bin/bo.js prints without loading the bundle (scripts/top-help.mjs).
//
// `node scripts/build.mjs --binary DIR` builds the same files into DIR for the single
// executable (scripts/build-binary.mjs), where every file becomes an asset, written out
// to a folder of the user's cache and required from there (bin/sea.cjs), with no
// node_modules beside it: every lazy group is CommonJS, required like the main bundle,
// and nothing is external but the keyring's native module.
//
// `--metafile FILE` writes esbuild's record of every build's inputs and outputs there,
// merged (scripts/sbom.mjs lists the npm packages the bundles hold from it).
import { build as esbuild } from 'esbuild';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTopHelp } from './top-help.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const binaryAt = process.argv.indexOf('--binary');
const binary = binaryAt >= 0;
/** Where the files go: dist/, or the folder after --binary. */
const out = binary ? resolve(process.argv[binaryAt + 1] ?? '') : resolve(root, 'dist');
if (binary && !process.argv[binaryAt + 1]) throw new Error('usage: node scripts/build.mjs [--binary DIR] [--metafile FILE]');
const metafileAt = process.argv.indexOf('--metafile');
const metafileOut = metafileAt >= 0 ? resolve(process.argv[metafileAt + 1] ?? '') : undefined;
/** Every build's metafile, merged. */
const metafile = { inputs: {}, outputs: {} };
const record = (meta) => {
  Object.assign(metafile.inputs, meta.inputs);
  Object.assign(metafile.outputs, meta.outputs);
};
/** esbuild's build(), its metafile recorded. */
const build = async (options) => {
  const result = await esbuild({ ...options, metafile: true });
  record(result.metafile);
  return result;
};

/**
 * Dynamic-import targets kept out of dist/bo.cjs, grouped by what loads together: each
 * group is one file in dist/lazy/ re-exporting its modules (their export names differ).
 */
const lazy = {
  inquirer: ['src/auth/prompts.ts'],
  sandbox: ['src/sandbox/embedded.ts', 'src/sandbox/seed.ts', 'src/sandbox/store.ts', 'src/sandbox/server.ts', 'src/sandbox/serve-banner.ts'],
  jq: ['src/output/jq-engine.ts'],
  mcp: ['src/mcp/sdk.ts'],
  // The terminal QR of a two-factor enrolment with its encoder (qrcode-generator).
  qr: ['src/auth/qr.ts'],
};
/** Groups built as CommonJS (see above); the others are ESM. In a binary: all of them. */
const cjsGroups = new Set(binary ? Object.keys(lazy) : ['sandbox', 'jq', 'mcp', 'qr']);
const groupOf = new Map(Object.entries(lazy).flatMap(([name, specs]) => specs.map((spec) => [spec, name])));
const lazyFile = (name) => `${name}${cjsGroups.has(name) ? '.cjs' : '.js'}`;

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Native modules stay external; so do inquirer's prompts (@inquirer/*), loaded only
  // when a prompt shows: declared dependencies that npm installs, so the package does
  // not ship a second copy of them.
  // A binary has no node_modules: there it is bundled like the rest.
  // The MCP SDK likewise (`bo mcp` only): dist/lazy/mcp.cjs holds src/mcp/sdk.ts and
  // requires the installed SDK (its CommonJS build).
  external: binary ? ['@napi-rs/keyring'] : ['@napi-rs/keyring', '@inquirer/*', '@modelcontextprotocol/server'],
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __bo_cr } from 'node:module'; const require = __bo_cr(import.meta.url);" },
  logLevel: 'warning',
};

/**
 * Points the lazy targets' dynamic imports at their dist/lazy/ file (from `dir`): an
 * ESM group stays an import(), a CommonJS group becomes a require() of its file, which
 * esbuild wraps as a lazily initialised module of the bundle.
 */
const keepLazy = (dir) => ({
  name: 'keep-lazy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.namespace === 'lazy-cjs') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import' || args.pluginData === 'keep-lazy') return undefined;
      let key = args.path;
      if (args.path.startsWith('.')) {
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'keep-lazy' });
        key = resolved.path.slice(root.length).replaceAll('\\', '/');
      }
      const name = groupOf.get(key);
      if (!name) return undefined;
      return cjsGroups.has(name) ? { path: `${dir}${lazyFile(name)}`, namespace: 'lazy-cjs' } : { path: `${dir}${lazyFile(name)}`, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-cjs' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
});

/** `lazy:<group>` entry points: a module re-exporting the group's modules. */
const lazyEntries = {
  name: 'lazy-entries',
  setup(b) {
    b.onResolve({ filter: /^lazy:/ }, (args) => ({ path: args.path.slice(5), namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
      const specs = lazy[args.path].map((spec) => (spec.startsWith('src/') ? `./${spec}` : spec));
      // Strict like the ESM modules it re-exports (esbuild writes it for src/main.ts).
      const contents = ['"use strict";', ...specs.map((spec) => `export * from '${spec}';`)].join('\n');
      return { contents, resolveDir: root, loader: 'js' };
    });
  },
};

/**
 * Built-ins the main bundle names at load time but uses only on some paths (commander's
 * child_process, the HTTP client's http, https and tls, fs/promises, timers/promises,
 * os: the data folder's path needs a home folder only when HOME is unset, and crypto:
 * the journal's digests, a CA file's check, ids and tokens):
 * each becomes an object of getters, built from the module's own keys at build time,
 * that requires the real module on first use (~4 ms of a start together, Node 20;
 * docs/performance-notes.md).
 */
const deferBuiltins = (names) => ({
  name: 'defer-builtins',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(node:)?(${names.map((n) => n.replace('/', '\\/')).join('|')})$`) }, (args) =>
      args.namespace === 'defer-builtins' ? undefined : { path: args.path.replace(/^(node:)?/, 'node:'), namespace: 'defer-builtins' },
    );
    b.onLoad({ filter: /.*/, namespace: 'defer-builtins' }, async (args) => {
      const keys = Object.keys(await import(args.path)).filter((k) => k !== 'default');
      const getters = keys.map((k) => `  get ${JSON.stringify(k)}() { return load()[${JSON.stringify(k)}]; },`).join('\n');
      return {
        contents: `let real;\nconst load = () => (real ??= require(${JSON.stringify(args.path)}));\nmodule.exports = {\n${getters}\n};\n`,
        loader: 'js',
      };
    });
  },
});
const mainDeferred = ['http', 'https', 'tls', 'child_process', 'fs/promises', 'timers/promises', 'os', 'crypto'];

rmSync(out, { recursive: true, force: true });
const cjs = {
  ...common,
  format: 'cjs',
  banner: {},
  // import.meta.url (keychain.ts, the sandbox's QR) as the file's own URL.
  inject: ['scripts/import-meta-url.js'],
  define: { 'import.meta.url': 'importMeta.url' },
  // Without comments and indentation (names stay): dist/bo.cjs is 360 KB instead of
  // 540, read at every start (~0.3 ms less, measured on Node 20).
  minifyWhitespace: true,
  minifySyntax: true,
};
await build({
  ...cjs,
  entryPoints: { bo: 'src/main.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: out,
  plugins: [keepLazy('./lazy/'), deferBuiltins(mainDeferred)],
});
const lazyEntriesOf = (cjsOnly) => Object.fromEntries(Object.keys(lazy).filter((n) => cjsGroups.has(n) === cjsOnly).map((name) => [name, `lazy:${name}`]));
// The sandbox defers as well what only its sign-ins use: zlib (QR PNGs). Measured on
// Node 20, loading crypto (deferred in both) costs ~3 ms of a `bo --sandbox accounts
// list`, which needs none.
await build({
  ...cjs,
  entryPoints: lazyEntriesOf(true),
  outExtension: { '.js': '.cjs' },
  outdir: `${out}/lazy`,
  plugins: [lazyEntries, keepLazy('./'), deferBuiltins([...mainDeferred, 'zlib'])],
});
await build({
  ...common,
  entryPoints: lazyEntriesOf(false),
  outdir: `${out}/lazy`,
  plugins: [lazyEntries, keepLazy('./')],
});
// jq 1.8.2 itself, beside the chunk that loads it (src/output/jq-engine.ts).
copyFileSync(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'), `${out}/lazy/jq.wasm`);
record(await writeTopHelp(out));

// dist/complete.cjs: `bo __complete` (src/completion/dynamic.ts), which bin/bo.js runs
// at every TAB without loading dist/bo.cjs. One self-contained file that shares no chunk
// with the main bundle, and CommonJS: require() of it starts ~4 ms sooner than an ESM
// import() on Node 20, which keeps it within the `bo --version` start-up target.
//
// dist/keychain-helper.cjs: the keychain helper process, `bo __keychain`
// (src/auth/stores/keychain-helper.ts), which bin/bo.js runs without the main bundle
// and hands the keyring library. Both are self-contained CommonJS files.
const standalone = { complete: 'src/completion/dynamic.ts', 'keychain-helper': 'src/auth/stores/keychain-helper.ts' };
for (const [name, entry] of Object.entries(standalone)) {
  await build({
    entryPoints: [entry],
    outfile: `${out}/${name}.cjs`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
  });
}
if (metafileOut) writeFileSync(metafileOut, `${JSON.stringify(metafile, null, 1)}\n`);
