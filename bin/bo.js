#!/usr/bin/env node
// Tiny shim: load the bundled entry (dist/, ESM), run it, and hand its exit code to
// Node. This file is CommonJS (bin/package.json): measured on Node 20, an ESM entry
// costs ~4 ms more to start than a CommonJS one, a fifth of a bare `node -e 0`.
//
// `bo --version` and `bo --help` alone answer here, from dist/top-help.json (captured
// from the command tree at build time, scripts/top-help.mjs), without loading the
// bundle: they are most of what a shell or a CI job calls just to check `bo` is there.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);
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

if (help) {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  if (only === '--version') {
    process.stdout.write(`${help.version}\n`);
  } else {
    import('../dist/top-help.js').then(({ renderTopHelp }) => {
      // As commander: the terminal's width, or 80 when stdout is not a terminal.
      process.stdout.write(renderTopHelp(help, (process.stdout.isTTY && process.stdout.columns) || 80));
    });
  }
} else {
  import('../dist/bo.js').then(async ({ run }) => {
    process.exitCode = await run(argv);
  });
}
