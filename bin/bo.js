#!/usr/bin/env node
// Tiny shim: load the bundled entry, run it, and hand its exit code to Node.
//
// `bo --version` and `bo --help` alone answer here, from dist/top-help.json (captured
// from the command tree at build time, scripts/top-help.mjs), without loading the
// bundle: they are most of what a shell or a CI job calls just to check `bo` is there.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
let help;
if (only === '--version' || only === '--help' || only === '-h') {
  try {
    help = JSON.parse(readFileSync(new URL('../dist/top-help.json', import.meta.url), 'utf8'));
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
    const { renderTopHelp } = await import('../dist/top-help.js');
    // As commander: the terminal's width, or 80 when stdout is not a terminal.
    process.stdout.write(renderTopHelp(help, (process.stdout.isTTY && process.stdout.columns) || 80));
  }
} else {
  const { run } = await import('../dist/bo.js');
  process.exitCode = await run(argv);
}
