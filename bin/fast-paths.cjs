// The shim's fast paths: a lone `--version` or `--help` answered from dist/top-help.json
// (written by scripts/build.mjs) without loading bo.cjs, straight to fd 1.
'use strict';
const { join } = require('node:path');
const fs = require('node:fs');

/** Answers `only` (the one argument) when it is --version, --help or -h; false when it does not. */
exports.answer = (only, folder, load) => {
  if (only !== '--version' && only !== '--help' && only !== '-h') return false;
  let help;
  try {
    help = JSON.parse(fs.readFileSync(join(folder, 'top-help.json'), 'utf8'));
  } catch {
    return false; // not built by scripts/build.mjs: the bundle answers
  }
  if (only === '--version') print(`${help.version}\n`);
  else {
    // As commander: the terminal's width, else 80.
    const width = (require('node:tty').isatty(1) && process.stdout.columns) || 80;
    print(load('./top-help.cjs').renderTopHelp(help, width));
  }
  return true;
};

/** Straight to fd 1: creating process.stdout for a pipe costs a few ms. */
function print(text) {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += fs.writeSync(1, bytes, done);
  } catch (err) {
    // A non-blocking stdout: let Node queue it.
    if (err.code === 'EAGAIN') process.stdout.on('error', cannotWrite).write(bytes.subarray(done));
    else cannotWrite(err);
  }
}

/**
 * A write to stdout that failed, said as bo.cjs says it (src/errors.ts OutputError.of):
 * `error: cannot write the output: no space left on device`, exit 1; never a stack trace.
 * EPIPE is no error: `bo --help | head -1`, the reader is done.
 */
function cannotWrite(err) {
  if (err.code === 'EPIPE') return;
  process.exitCode = 1;
  const why = /^[A-Z][A-Z0-9_]*: (.*?)(?:, \w+)?$/.exec(err.message)?.[1] ?? err.message;
  try {
    fs.writeSync(2, `error: cannot write the output: ${why}\n`);
  } catch {} // nor stderr: the exit code says it
}
