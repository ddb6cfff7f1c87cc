#!/usr/bin/env node
// The shim: the bundles of dist/ (in the single executable, the same files written out of its
// assets by bin/sea.cjs) with Node's compile cache where it exists (Node >= 22.8). `bo __complete`
// (every TAB), a lone `--version`/`--help` and `bo __keychain` (the keychain helper) skip bo.cjs.
// The cache and the executable's folder are only ever folders the user alone can change
// (bin/private-folder.cjs); a NODE_COMPILE_CACHE that is not is checked before any bundle loads.
'use strict';
const { join } = require('node:path');
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const sea = require('node:sea').isSea();
const folders = () => require('./private-folder.cjs');
if (require('node:module').getCompileCacheDir?.()) folders().compileCache(sea, false);
const keyring = () => require('@napi-rs/keyring');
const dist = sea ? require('./sea.cjs').bundles() : { folder: join(__dirname, '../dist'), keyring };
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
  folders().compileCache(sea, true);
  load('./bo.cjs').run(argv).then((code) => (process.exitCode = code));
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
