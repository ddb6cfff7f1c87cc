#!/usr/bin/env node
// The shim: Node's compile cache where it exists (Node >= 22.8), the bundle, its exit code.
// `bo __complete …` (every TAB) and a lone `--version`/`--help` answer without the bundle;
// `bo __keychain` is the keychain helper process (src/auth/stores/keychain-helper.ts).
// The bundles are dist/ beside bin/, or in the single executable its assets (bin/sea.cjs).
'use strict';
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const sea = require('node:sea').isSea();
/** A file of dist/ as text (read), a bundle's exports (load), the keyring library. */
const dist = sea
  ? require('./sea.cjs').assets(cacheFolder)
  : {
      read: (key) => require('node:fs').readFileSync(`${__dirname}/../dist/${key}`, 'utf8'),
      load: (key) => require(require('node:path').join(__dirname, '../dist', key)),
      keyring: () => require('@napi-rs/keyring'),
    };
let help;
if (only === '--version' || only === '--help' || only === '-h') {
  try {
    help = JSON.parse(dist.read('top-help.json'));
  } catch {
    help = undefined; // not built by scripts/build.mjs: the bundle answers
  }
}

if (argv[0] === '__complete') {
  process.exitCode = dist.load('complete.cjs').runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
} else if (argv[0] === '__keychain') {
  dist.load('keychain-helper.cjs').runKeychainHelper(dist.keyring, process.stdin, process.stdout);
} else if (help && only === '--version') {
  print(`${help.version}\n`);
} else if (help) {
  // As commander: the terminal's width, or 80 when stdout is not a terminal.
  print(dist.load('top-help.cjs').renderTopHelp(help, (require('node:tty').isatty(1) && process.stdout.columns) || 80));
} else {
  if (!sea) require('node:module').enableCompileCache?.(cacheFolder('compile-cache'));
  dist.load('bo.cjs').run(argv).then((code) => (process.exitCode = code));
}

/** A folder of bo's in the user's cache folder (Node's default is the shared temporary folder). */
function cacheFolder(name) {
  const env = process.env;
  const base = process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? env.HOME && `${env.HOME}/Library/Caches` : env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : env.HOME && `${env.HOME}/.cache`;
  return base && require('node:path').join(base, 'bo', name);
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
