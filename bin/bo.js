#!/usr/bin/env node
// Tiny shim: load the bundled entry (dist/, ESM), run it, and hand its exit code to
// Node. This file is CommonJS (bin/package.json): measured on Node 20, an ESM entry
// costs ~4 ms more to start than a CommonJS one, a fifth of a bare `node -e 0`.
//
// `bo --version` and `bo --help` alone answer here, from dist/top-help.json (captured
// from the command tree at build time, scripts/top-help.mjs), without loading the
// bundle: they are most of what a shell or a CI job calls just to check `bo` is there.
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);

// `bo __complete …` (profile names and setting keys for the completion scripts, asked
// at every TAB) answers from the small dist/complete.cjs, without loading the bundle.
if (argv[0] === '__complete') {
  process.exitCode = require('../dist/complete.cjs').runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
  return;
}

const only = argv.length === 1 ? argv[0] : undefined;
const dist = join(__dirname, '..', 'dist');
/** Files of dist/ loaded by loadBundle, by name: { exports, id, script, cacheFile, cachedData }. */
const loaded = new Map();
let help;
if (only === '--version' || only === '--help' || only === '-h') {
  try {
    help = JSON.parse(readFileSync(join(dist, 'top-help.json'), 'utf8'));
  } catch {
    help = undefined; // not built by scripts/build.mjs: the bundle answers
  }
}

// Straight to fd 1: creating process.stdout for a pipe costs ~3 ms (measured).
function print(text) {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    if (err.code === 'EPIPE') return; // `bo --help | head -1`: the reader is done
    if (err.code !== 'EAGAIN') throw err;
    process.stdout.write(bytes.subarray(done)); // a non-blocking stdout: let Node queue it
  }
}

if (help) {
  if (only === '--version') {
    print(`${help.version}\n`);
  } else {
    import('../dist/top-help.js').then(({ renderTopHelp }) => {
      // As commander: the terminal's width, or 80 when stdout is not a terminal.
      const { isatty } = require('node:tty');
      print(renderTopHelp(help, (isatty(1) && process.stdout.columns) || 80));
    });
  }
} else {
  loadBundle('bo.cjs').run(argv).then((code) => {
    process.exitCode = code;
    saveCodeCaches();
  });
}

/**
 * dist/bo.cjs (and the CommonJS lazy files it imports, dist/lazy/*.cjs), loaded as
 * require() would load them but compiled by vm.Script with a V8 code cache: Node 20
 * has no module.enableCompileCache, and compiling the bundle's functions is a large
 * part of a command's start-up (scripts/build.mjs). Each cache is a file in the user's
 * cache folder named by the Node version and the build (the files' first line); V8
 * checks it too and rejects one made by another V8 or with other flags, and then the
 * file simply compiles. Every failure to read or write it is silent: it only ever
 * makes `bo` start sooner.
 */
function loadBundle(name) {
  const known = loaded.get(name);
  if (known) return known.exports;
  const vm = require('node:vm');
  const file = join(dist, name);
  const dir = join(file, '..');
  const source = readFileSync(file, 'latin1'); // ASCII, as scripts/build.mjs checks: no UTF-8 decoding
  const id = /^\/\/ bo build ([0-9a-f]+)\n/.exec(source)?.[1];
  // dist/bo.cjs: code-…-<group>.v8; dist/lazy/sandbox.cjs: code-…-<group>.sandbox.v8.
  const cacheFile = codeCacheFile(id, name === 'bo.cjs' ? '' : `.${name.replace(/^.*\//, '').replace(/\.cjs$/, '')}`);
  let cachedData;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined; // not made yet
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname, __bo_import_from_bin) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const mod = { exports: {} };
  loaded.set(name, { exports: mod.exports, id, script, cacheFile, cachedData });
  // Its import() of other dist/ files and of node: built-ins, made here (see
  // scripts/build.mjs): a CommonJS file loads as this one, a built-in is required
  // (import() of node:zlib takes ~2.5 ms more, the ESM loader; measured on Node 20),
  // the rest (ESM) is imported.
  const importFromBundle = (spec) => {
    if (spec.startsWith('./')) {
      const target = require('node:path').relative(dist, join(dir, spec)).replaceAll('\\', '/');
      if (target.endsWith('.cjs')) return Promise.resolve().then(() => loadBundle(target));
      return import(require('node:url').pathToFileURL(join(dist, target)).href);
    }
    return spec.startsWith('node:') ? Promise.resolve().then(() => require(spec)) : import(spec);
  };
  // This file's own require(): the bundles require only node: built-ins (scripts/build.mjs
  // leaves no other), and node:module's createRequire costs ~0.4 ms to load (Node 20).
  script.runInThisContext()(mod.exports, require, mod, file, dir, importFromBundle);
  loaded.get(name).exports = mod.exports;
  return mod.exports;
}

/** After the run, for each file loaded without a usable cache: its functions compiled so far. */
function saveCodeCaches() {
  const made = [];
  let id;
  for (const file of loaded.values()) {
    const { script, cacheFile, cachedData } = file;
    id = file.id; // one build: the same in every file (scripts/build.mjs)
    if (!cacheFile || (cachedData && !script.cachedDataRejected)) continue;
    try {
      const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
      mkdirSync(join(cacheFile, '..'), { recursive: true, mode: 0o700 });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, cacheFile); // whole or not at all, even with runs in parallel
      made.push(cacheFile);
    } catch {
      // a read-only or missing home: `bo` works the same, only without the cache
    }
  }
  if (made.length === 0) return;
  try {
    // Caches of earlier builds (for this Node) would only pile up.
    const { readdirSync, rmSync } = require('node:fs');
    const folder = join(made[0], '..');
    const node = `code-${process.version}-${process.arch}-`;
    for (const name of readdirSync(folder)) {
      if (name.startsWith(node) && name.endsWith('.v8') && !name.startsWith(`${node}${id}-`)) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // as above
  }
}

/** Where the code cache of build `id` lives: the platform's per-user cache folder. */
function codeCacheFile(id, suffix) {
  if (!id) return undefined;
  const env = process.env;
  let base;
  if (process.platform === 'win32') base = env.LOCALAPPDATA && join(env.LOCALAPPDATA, 'bo', 'Cache');
  else if (process.platform === 'darwin') base = env.HOME && join(env.HOME, 'Library', 'Caches', 'bo');
  else base = env.XDG_CACHE_HOME?.startsWith('/') ? join(env.XDG_CACHE_HOME, 'bo') : env.HOME && join(env.HOME, '.cache', 'bo');
  // One cache per first word (the command group, mostly): a cache holds what its first
  // run compiled, so `bo config set` first must not leave `bo accounts list` uncached.
  const word = argv.find((a) => !a.startsWith('-'));
  const group = word && /^[a-z][a-z0-9-]{0,30}$/.test(word) ? word : '-';
  return base && join(base, `code-${process.version}-${process.arch}-${id}-${group}${suffix}.v8`);
}
