// runTty(argv): `bo` in-process like runBo, with a terminal width (Io.columns), a
// stdout that may be slow or never drain, and a hook that sees output as it is written
// (to abort mid-run, or to check what was printed before a page was requested).
import { PassThrough, Writable } from 'node:stream';
import { run, type RunOptions } from '../../src/main.js';
import type { Io } from '../../src/context.js';

export interface TtyRunOptions extends Omit<RunOptions, 'io'> {
  env?: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
  columns?: number;
  /** Replaces the collecting stdout (then `stdout` in the result stays empty). */
  stdout?: Writable;
  /** Called with each chunk written to stdout and the text so far. */
  onStdout?: (chunk: string, all: string) => void;
}

export async function runTty(argv: string[], options: TtyRunOptions = {}) {
  const stdin = new PassThrough();
  stdin.end();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stderr.on('data', (d) => (err += d));
  const stdout =
    options.stdout ??
    new Writable({
      write(chunk, _enc, cb) {
        const text = chunk.toString();
        out += text;
        options.onStdout?.(text, out);
        cb();
      },
    });
  const io: Io = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: options.stdoutIsTTY ?? true,
    stderrIsTTY: false,
    columns: options.columns,
    env: { HOME: process.env.HOME, PATH: process.env.PATH, ...options.env },
  };
  const { env: _e, stdoutIsTTY: _t, columns: _c, stdout: _s, onStdout: _o, ...runOptions } = options;
  const code = await run(argv, { ...runOptions, io });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out, stderr: err };
}
