#!/usr/bin/env node
// The shim: Node's compile cache where it exists (Node >= 22.8), the bundle, its exit code.
// `bo __complete …` (every TAB) and a lone `--version`/`--help` answer without the bundle.
'use strict';
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
let help;
if (only === '--version' || only === '--help' || only === '-h') {
  try {
    help = JSON.parse(require('node:fs').readFileSync(`${__dirname}/../dist/top-help.json`, 'utf8'));
  } catch {
    help = undefined; // not built by scripts/build.mjs: the bundle answers
  }
}

if (argv[0] === '__complete') {
  process.exitCode = require('../dist/complete.cjs').runComplete(argv.slice(1), process.env, process.stdout, process.stderr);
} else if (help && only === '--version') {
  print(`${help.version}\n`);
} else if (help) {
  // As commander: the terminal's width, or 80 when stdout is not a terminal.
  import('../dist/top-help.js').then(({ renderTopHelp }) => print(renderTopHelp(help, (require('node:tty').isatty(1) && process.stdout.columns) || 80)));
} else {
  // Kept in the user's cache folder (Node's default is the shared temporary folder).
  const env = process.env;
  const base = process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? env.HOME && `${env.HOME}/Library/Caches` : env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : env.HOME && `${env.HOME}/.cache`;
  require('node:module').enableCompileCache?.(base && require('node:path').join(base, 'bo', 'compile-cache'));
  require('../dist/bo.cjs').run(argv).then((code) => (process.exitCode = code));
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
