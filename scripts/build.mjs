// Bundles src/ into dist/ for a fast start.
//
// dist/bo.cjs is ONE file: commander, the command tree and every light module a command
// imports inside `run` (config, credentials, HTTP, paging, output). esbuild inlines
// those dynamic imports as lazily initialised modules, so they cost a parse, not an
// evaluation, until used. Measured on Node 20: each extra ESM file on the start-up path
// costs 1.5-2 ms to resolve and load, far more than scanning the same bytes in one file.
//
// It is CommonJS so that bin/bo.js can compile it with vm.Script and a V8 code cache
// (Node 20 has no module.enableCompileCache): measured, a request command spends
// ~14 ms less CPU with the cache. Two things differ from a plain CommonJS build, both
// so the same file also loads with require() or import() (scripts/completions.mjs):
// `import.meta.url` becomes the file's own URL, and the bundle's few dynamic imports
// (the lazy files below, node: built-ins) call `__bo_import`, which bin/bo.js passes
// in (code compiled by vm.Script has no import() of its own) and which is a plain
// import() otherwise. The first line names the build, the key of its code cache.
//
// What only some commands need and is big stays out of it, in dist/lazy/ (built in a
// second pass, one file per group): the sandbox server and @inquirer/prompts.
// The sandbox is dist/lazy/sandbox.cjs, CommonJS built like dist/bo.cjs (the same
// preamble, the same build id) so that bin/bo.js loads it the same way, with a code
// cache and without the ESM loader: measured on Node 20, importing it as ESM cost
// ~10 ms of a `bo --sandbox` run (the loader's own modules, fs/promises and readline,
// and compiling 123 KB without a cache). @inquirer/prompts is an ESM package and its
// group stays ESM (dist/lazy/inquirer.js). Nothing there may hand a project error
// class back to the main bundle (its copy of the class would differ); the sandbox
// talks HTTP, the libraries are third-party. Native modules stay external.
//
// Last, dist/top-help.txt: `bo --help` rendered from the command tree, which
// bin/bo.js prints without loading the bundle (scripts/top-help.mjs).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTopHelp } from './top-help.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Dynamic-import targets kept out of dist/bo.cjs, grouped by what loads together: each
 * group is one file in dist/lazy/ re-exporting its modules (their export names differ).
 */
const lazy = {
  inquirer: ['@inquirer/prompts'],
  sandbox: ['src/sandbox/embedded.ts', 'src/sandbox/seed.ts', 'src/sandbox/store.ts', 'src/sandbox/server.ts', 'src/sandbox/serve-banner.ts'],
};
/** Groups built as CommonJS (see above); the others are ESM. */
const cjsGroups = new Set(['sandbox']);
const groupOf = new Map(Object.entries(lazy).flatMap(([name, specs]) => specs.map((spec) => [spec, name])));
const lazyFile = (name) => `${name}${cjsGroups.has(name) ? '.cjs' : '.js'}`;

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Native modules stay external; so does @inquirer/prompts (with iconv-lite, over half
  // of the bundle), loaded only when a prompt shows: a declared dependency that npm
  // installs, so the package does not ship a second copy of it.
  external: ['@napi-rs/keyring', '@inquirer/prompts'],
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __bo_cr } from 'node:module'; const require = __bo_cr(import.meta.url);" },
  logLevel: 'warning',
};

/** Points the lazy targets' dynamic imports at their dist/lazy/ file (from `dir`). */
const keepLazy = (dir) => ({
  name: 'keep-lazy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'keep-lazy') return undefined;
      let key = args.path;
      if (args.path.startsWith('.')) {
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'keep-lazy' });
        key = resolved.path.slice(root.length).replaceAll('\\', '/');
      }
      const name = groupOf.get(key);
      return name ? { path: `${dir}${lazyFile(name)}`, external: true } : undefined;
    });
  },
});

/** `lazy:<group>` entry points: a module re-exporting the group's modules. */
const lazyEntries = {
  name: 'lazy-entries',
  setup(b) {
    b.onResolve({ filter: /^lazy:/ }, (args) => ({ path: args.path.slice(5), namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
      const specs = lazy[args.path].map((spec) => (spec.startsWith('src/') ? `./${spec}` : spec));
      const contents = specs
        .map((spec) => `export * from '${spec}';`)
        .join('\n');
      return { contents, resolveDir: root, loader: 'js' };
    });
  },
};

/**
 * A CommonJS bundle as bin/bo.js runs it (dist/bo.cjs, dist/lazy/sandbox.cjs): each
 * dynamic import() esbuild left (metafile) made a call of `__bo_import`, and the
 * preamble defining it and `__bo_url`. Returns the text; `writeCjs` adds the first line.
 */
function finishCjs(out, metafile) {
  const file = join(root, out);
  const dynamic = new Set(metafile.outputs[out].imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
  let text = readFileSync(file, 'utf8');
  for (const spec of dynamic) {
    const call = `import(${JSON.stringify(spec)})`;
    if (!text.includes(call)) throw new Error(`build: ${out} does not hold ${call} as printed by esbuild`);
    text = text.replaceAll(call, `__bo_import(${JSON.stringify(spec)})`);
  }
  const preamble =
    'var __bo_url = require("node:url").pathToFileURL(__filename).href;\n' +
    'var __bo_import = typeof __bo_import_from_bin === "function" ? __bo_import_from_bin : (spec) => import(spec);\n';
  // After "use strict", which must stay the first statement. esbuild writes it for
  // src/main.ts but not for a lazy group's generated entry; its modules are ESM, strict
  // by definition, so the group's file is made strict like dist/bo.cjs.
  const strict = '"use strict";';
  const body = text.startsWith(strict) ? text.slice(strict.length).replace(/^\n/, '') : text;
  return { file, text: `${strict}\n${preamble}${body}` };
}

/**
 * Writes the CommonJS bundles, each with a first line naming the build: a hash of them
 * all, the key of their code caches, so a cache of one never meets another build's file.
 */
function writeCjs(bundles) {
  const hash = createHash('sha256');
  for (const b of bundles) hash.update(b.text);
  const id = hash.digest('hex').slice(0, 20);
  for (const b of bundles) {
    // bin/bo.js reads them as latin1, ~0.6 ms sooner than as UTF-8 for dist/bo.cjs
    // (measured, Node 20): esbuild escapes every non-ASCII character (charset: ascii).
    // bin/bo.js hands them its own require(), which resolves from bin/: only built-ins.
    const foreign = /\brequire\(["'`](?!node:)[^)]*\)/.exec(b.text);
    if (foreign) throw new Error(`build: ${b.file} requires ${foreign[0]}; only node: built-ins are required from bin/bo.js`);
    const at = b.text.search(/[^\x00-\x7f]/);
    if (at >= 0) throw new Error(`build: ${b.file} holds a non-ASCII character at ${at}: ${JSON.stringify(b.text.slice(at - 20, at + 20))}`);
    writeFileSync(b.file, `// bo build ${id}\n${b.text}`);
  }
}

/**
 * Built-ins the main bundle names at load time but uses only on some paths: commander
 * requires child_process (for executable subcommands, which bo has none of), and the
 * HTTP client http (not under `bo --sandbox`, which calls the sandbox directly), https
 * and tls (for https:// and proxies). Loading http costs ~1.5 ms, https with tls and
 * crypto ~2 ms, child_process ~0.7 ms, fs/promises ~0.8 ms (measured on Node 20,
 * with timers/promises for retries); here each becomes
 * an object of getters, built from the module's own keys at build time, that requires
 * the real module on first use.
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
const mainDeferred = ['http', 'https', 'tls', 'child_process', 'fs/promises', 'timers/promises'];

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const cjs = {
  ...common,
  format: 'cjs',
  banner: {},
  define: { 'import.meta.url': '__bo_url' },
  metafile: true,
  // Without comments and indentation (names stay): dist/bo.cjs is 360 KB instead of
  // 540, read at every start (~0.3 ms less, measured on Node 20).
  minifyWhitespace: true,
  minifySyntax: true,
};
const main = await build({
  ...cjs,
  entryPoints: { bo: 'src/main.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  plugins: [keepLazy('./lazy/'), deferBuiltins(mainDeferred)],
});
const lazyEntriesOf = (cjsOnly) => Object.fromEntries(Object.keys(lazy).filter((n) => cjsGroups.has(n) === cjsOnly).map((name) => [name, `lazy:${name}`]));
// The sandbox defers as well what only its writes and sign-ins use: crypto (ids,
// tokens, TOTP), zlib (QR PNGs) and os (a home folder when HOME is unset). Measured on
// Node 20, loading crypto costs ~3 ms of a `bo --sandbox accounts list`, which needs none.
const lazyCjs = await build({
  ...cjs,
  entryPoints: lazyEntriesOf(true),
  outExtension: { '.js': '.cjs' },
  outdir: 'dist/lazy',
  plugins: [lazyEntries, keepLazy('./'), deferBuiltins([...mainDeferred, 'crypto', 'zlib', 'os'])],
});
writeCjs([
  finishCjs('dist/bo.cjs', main.metafile),
  ...Object.keys(lazyEntriesOf(true)).map((name) => finishCjs(`dist/lazy/${name}.cjs`, lazyCjs.metafile)),
]);
await build({
  ...common,
  entryPoints: lazyEntriesOf(false),
  outdir: 'dist/lazy',
  plugins: [lazyEntries, keepLazy('./')],
});
await writeTopHelp();

// dist/complete.cjs: `bo __complete` (src/completion/dynamic.ts), which bin/bo.js runs
// at every TAB without loading dist/bo.cjs. One self-contained file that shares no chunk
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

