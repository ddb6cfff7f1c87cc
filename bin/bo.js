#!/usr/bin/env node
// Tiny shim: load the bundled entry, run it, and hand its exit code to Node.
import { createRequire } from 'node:module';

// `bo __complete …` (profile names and setting keys for the completion scripts, asked
// at every TAB) answers from the small dist/complete.cjs, without loading the bundle.
if (process.argv[2] === '__complete') {
  const { runComplete } = createRequire(import.meta.url)('../dist/complete.cjs');
  process.exitCode = runComplete(process.argv.slice(3), process.env, process.stdout, process.stderr);
} else {
  const { run } = await import('../dist/bo.js');
  process.exitCode = await run(process.argv.slice(2));
}
