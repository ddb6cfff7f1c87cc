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
  import('../dist/bo.js').then(async ({ run }) => {
    process.exitCode = await run(argv);
  });
}
