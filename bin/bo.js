#!/usr/bin/env node
// Tiny shim: load the bundled entry, run it, and hand its exit code to Node.
import { run } from '../dist/bo.js';

process.exitCode = await run(process.argv.slice(2));
