#!/usr/bin/env node
// The shim: the bundles of dist/ (in the single executable, the same files written out of its
// assets by bin/sea.cjs) with Node's compile cache where it exists (Node >= 22.8). `bo __complete`
// (every TAB), a lone `--version`/`--help` and `bo __keychain` (the keychain helper) skip bo.cjs.
'use strict';
const { join } = require('node:path');
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const dist = require('node:sea').isSea() ? require('./sea.cjs').bundles(cacheFolder) : { folder: join(__dirname, '../dist'), keyring: () => require('@napi-rs/keyring') };
const load = require('node:module').createRequire(join(dist.folder, '/'));
let help;
try {
  if (only === '--version' || only === '--help' || only === '-h') help = JSON.parse(require('node:fs').readFileSync(join(dist.folder, 'top-help.json'), 'utf8'));
} catch {} // not built by scripts/build.mjs: the bundle answers
if (argv[0] === '__complete') process.exitCode = load('./complete.cjs').runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
else if (argv[0] === '__keychain') load('./keychain-helper.cjs').runKeychainHelper(dist.keyring, process.stdin, process.stdout);
else if (help && only === '--version') print(`${help.version}\n`);
else if (help) print(load('./top-help.cjs').renderTopHelp(help, (require('node:tty').isatty(1) && process.stdout.columns) || 80)); // as commander: the terminal's width, else 80
else {
  require('node:module').enableCompileCache?.(cacheFolder('compile-cache'));
  load('./bo.cjs').run(argv).then((code) => (process.exitCode = code));
}

/** A folder of bo's in the user's cache folder (Node's default is the shared temporary folder); none under a missing HOME, which bo never creates. */
function cacheFolder(name, env = process.env, home = env.HOME && require('node:fs').statSync(env.HOME, { throwIfNoEntry: false })?.isDirectory() ? env.HOME : undefined) {
  const base = process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? home && `${home}/Library/Caches` : env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : home && `${home}/.cache`;
  return base && join(base, 'bo', name);
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
