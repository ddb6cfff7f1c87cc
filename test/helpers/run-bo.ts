// runBo(argv): `bo` in-process with its own streams and environment, as a user would
// see it: stdout, stderr and the exit code.
import { PassThrough } from 'node:stream';
import { run, type RunOptions } from '../../src/main.js';
import type { Io } from '../../src/context.js';

export interface RunBoOptions extends Omit<RunOptions, 'io'> {
  env?: Record<string, string | undefined>;
  /** Text (or bytes) on stdin (ended after it). */
  stdin?: string | Uint8Array;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
}

export interface RunBoResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runBo(argv: string[], options: RunBoOptions = {}): Promise<RunBoResult> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else stdin.end();
  const io: Io = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    // A test's environment starts clean: nothing leaks in from the developer's shell.
    env: { HOME: process.env.HOME, PATH: process.env.PATH, ...options.env },
  };
  const { env: _e, stdin: _s, stdinIsTTY: _a, stdoutIsTTY: _b, stderrIsTTY: _c, ...runOptions } = options;
  const code = await run(argv, { ...runOptions, io });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out, stderr: err };
}
