#!/usr/bin/env node
// The shim: Node's compile cache where it exists (Node >= 22.8), the bundle, its exit code.
// `bo __complete …` (every TAB) and a lone `--version`/`--help` answer without the bundle;
// `bo __keychain` is the keychain helper process (src/auth/stores/keychain-helper.ts).
//
// It is also the main script of the single executable (scripts/build-binary.mjs), where
// every file of dist/ is an asset: load() and readDist() below are the one place that
// finds a bundle, from dist/ beside bin/ under Node, from the assets in the executable.
'use strict';
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const sea = require('node:sea').isSea() ? require('node:sea') : undefined;
/** The bundles an executable has evaluated, by key (fromAsset). */
const loaded = new Map();
let help;
if (only === '--version' || only === '--help' || only === '-h') {
  try {
    help = JSON.parse(readDist('top-help.json'));
  } catch {
    help = undefined; // not built by scripts/build.mjs: the bundle answers
  }
}

if (argv[0] === '__complete') {
  process.exitCode = load('complete.cjs').runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
} else if (argv[0] === '__keychain') {
  load('keychain-helper.cjs').runKeychainHelper(keyring, process.stdin, process.stdout);
} else if (help && only === '--version') {
  print(`${help.version}\n`);
} else if (help) {
  // As commander: the terminal's width, or 80 when stdout is not a terminal.
  print(load('top-help.cjs').renderTopHelp(help, (require('node:tty').isatty(1) && process.stdout.columns) || 80));
} else {
  // Kept in the user's cache folder (Node's default is the shared temporary folder). An
  // executable's bundles are no files, which the cache does not cover.
  const base = cacheBase();
  if (!sea) require('node:module').enableCompileCache?.(base && require('node:path').join(base, 'bo', 'compile-cache'));
  load('bo.cjs').run(argv).then((code) => (process.exitCode = code));
}

/** The user's cache folder, or undefined without a home. */
function cacheBase() {
  const env = process.env;
  return process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? env.HOME && `${env.HOME}/Library/Caches` : env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : env.HOME && `${env.HOME}/.cache`;
}

/** The text of a file of dist/ (`key` relative to it). */
function readDist(key) {
  return sea ? sea.getAsset(key, 'utf8') : require('node:fs').readFileSync(`${__dirname}/../dist/${key}`, 'utf8');
}

/** The exports of a CommonJS bundle of dist/ (`key` relative to it). */
function load(key) {
  return sea ? fromAsset(key) : require(`../dist/${key}`);
}

/**
 * A bundle evaluated from the executable's assets, once, as Node evaluates a CommonJS
 * file: `require` of a relative path gives another asset, `@napi-rs/keyring` the
 * keyring library, any other name a Node built-in (nothing else is external in a binary
 * build). import() of a built-in goes to Node's own loader. Like Node's compile cache
 * for files (above), V8's code cache of each bundle is kept in the user's cache folder,
 * written at the first run's exit, under the build's id (asset `build-id`).
 */
function fromAsset(key) {
  if (loaded.has(key)) return loaded.get(key).exports;
  const { posix, join, dirname } = require('node:path');
  const fs = require('node:fs');
  const vm = require('node:vm');
  const module = { exports: {} };
  loaded.set(key, module);
  const base = cacheBase();
  const cacheFile = base && join(base, 'bo', 'code-cache', `${sea.getAsset('build-id', 'utf8')}-${key.replaceAll('/', '-')}`);
  let cachedData;
  try {
    cachedData = cacheFile && fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // the first run of this build
  }
  const filename = join(process.execPath, key); // for stack traces: no such file
  const source = `(function (exports, require, module, __filename, __dirname) {${sea.getAsset(key, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once('exit', () => keepCodeCache(cacheFile, script));
  const requireFrom = (id) => (id.startsWith('.') ? fromAsset(posix.join(posix.dirname(key), id)) : id === '@napi-rs/keyring' ? keyring() : require(id));
  script.runInThisContext().call(module.exports, module.exports, requireFrom, module, filename, dirname(filename));
  return module.exports;
}

/** Writes the script's code cache (what the run compiled), atomically; best effort. */
function keepCodeCache(file, script) {
  const fs = require('node:fs');
  try {
    fs.mkdirSync(require('node:path').dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // a read-only or full cache folder: the next run compiles again
  }
}

/**
 * The keyring library: from node_modules under Node; in an executable its native module,
 * an asset, written to a private (0700) folder of the user's cache, checked against the
 * asset's SHA-256 and loaded from there, as Node's documentation for native addons in a
 * single executable says.
 */
function keyring() {
  if (!sea) return require('@napi-rs/keyring');
  const fs = require('node:fs');
  const { join } = require('node:path');
  const bytes = new Uint8Array(sea.getRawAsset('native/keyring.node'));
  const hash = require('node:crypto').createHash('sha256').update(bytes).digest('hex');
  const base = cacheBase();
  const dir = base ? join(base, 'bo', 'native') : join(require('node:os').tmpdir(), `bo-native-${process.getuid?.() ?? 'user'}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) throw new Error(`${dir} is not a folder of this user`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  const file = join(dir, `keyring-${hash.slice(0, 16)}.node`);
  const sameHash = () => {
    try {
      return require('node:crypto').createHash('sha256').update(fs.readFileSync(file)).digest('hex') === hash;
    } catch {
      return false;
    }
  };
  if (!sameHash()) {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes, { mode: 0o600, flag: 'w' });
    fs.renameSync(temporary, file);
    if (!sameHash()) throw new Error(`${file} does not hold the keyring library this executable carries`);
  }
  const module = { exports: {} };
  process.dlopen(module, file);
  return module.exports;
}

/** Straight to fd 1: creating process.stdout for a pipe costs a few ms. */
function print(text) {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += require('node:fs').writeSync(1, bytes, done);
  } catch (err) {
    if (err.code === 'EAGAIN') process.stdout.write(bytes.subarray(done)); // a non-blocking stdout: let Node queue it
    else if (err.code !== 'EPIPE') throw err; // `bo --help | head -1`: the reader is done
  }
}
