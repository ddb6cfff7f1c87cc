#!/usr/bin/env node
// Tiny shim: load the bundled entry, run it, and hand its exit code to Node.

// `bo __complete …` (profile names and setting keys for the completion scripts, asked
// at every TAB) answers from the small dist/complete.js, without loading the bundle.
if (process.argv[2] === '__complete') {
  const { runComplete } = await import('../dist/complete.js');
  process.exitCode = runComplete(process.argv.slice(3), process.env, process.stdout, process.stderr);
} else {
  const { run } = await import('../dist/bo.js');
  process.exitCode = await run(process.argv.slice(2));
}
