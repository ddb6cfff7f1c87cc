#!/usr/bin/env node
// The shim: the bundles of dist/ (in the single executable, the same files written out of
// its assets by bin/sea.cjs) with Node's compile cache where it exists (Node >= 22.8).
// `bo __complete` (every TAB), a lone `--version`/`--help` (bin/fast-paths.cjs) and
// `bo __keychain` (the keychain helper) skip bo.cjs. The cache and the executable's folder
// are only ever folders the user alone can change (bin/private-folder.cjs); a
// NODE_COMPILE_CACHE that is not is checked before any bundle loads.
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
// process.stdin and stdout are made on first use (a pipe's costs ~3 ms): named only where used.
if (argv[0] === '__complete') {
  const { runComplete } = load('./complete.cjs');
  process.exitCode = runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
} else if (argv[0] === '__keychain') {
  load('./keychain-helper.cjs').runKeychainHelper(dist.keyring, process.stdin, process.stdout);
} else if (only === undefined || !require('./fast-paths.cjs').answer(only, dist.folder, load)) {
  folders().compileCache(sea, true);
  load('./bo.cjs').run(argv).then((code) => (process.exitCode = code));
}
