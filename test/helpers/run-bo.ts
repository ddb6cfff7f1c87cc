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
  /** Both terminals the same one, as main.ts's processIo finds them. */
  stdoutSharesStderr?: boolean;
  columns?: number;
  /** A stdout or stderr of the test's own (one that fails), instead of the memory one. */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export interface RunBoResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runBo(argv: string[], options: RunBoOptions = {}): Promise<RunBoResult> {
  const streams = memoryStreams();
  if (options.stdin !== undefined) streams.stdin.end(options.stdin);
  else streams.stdin.end();
  const { env, stdin: _s, stdinIsTTY, stdoutIsTTY, stderrIsTTY, stdoutSharesStderr, columns, stdout, stderr, ...runOptions } = options;
  const io: Io = {
    stdin: streams.stdin,
    stdout: stdout ?? streams.stdout,
    stderr: stderr ?? streams.stderr,
    stdinIsTTY: stdinIsTTY ?? false,
    stdoutIsTTY: stdoutIsTTY ?? false,
    stderrIsTTY: stderrIsTTY ?? false,
    ...(stdoutSharesStderr === undefined ? {} : { stdoutSharesStderr }),
    ...(columns === undefined ? {} : { columns }),
    // A test's environment starts clean: nothing leaks in from the developer's shell.
    env: { HOME: process.env.HOME, PATH: process.env.PATH, ...env },
  };
  const code = await run(argv, { ...runOptions, io });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: streams.out(), stderr: streams.err() };
}

/** In-memory stdin, stdout and stderr for an Io, with what was written to the last two so far. */
export function memoryStreams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { stdin, stdout, stderr, out: () => out, err: () => err };
}
