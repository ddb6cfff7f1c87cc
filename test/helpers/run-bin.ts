// runBin(argv): the built `bo` as a real process (bin/bo.js → dist/), for what only a
// real process shows: exit codes set by the shim, signals, pipes, startup; runShell(script)
// for pipes and FIFOs made by a shell.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/bo.js', import.meta.url));

export interface RunBinOptions {
  env?: Record<string, string | undefined>;
  /** Bytes on stdin, ended after them; an array is written a piece at a time, 20 ms apart. */
  stdin?: string | Uint8Array | Array<string | Uint8Array>;
  /** Kill after this many ms (the test then sees signal SIGKILL). */
  timeoutMs?: number;
  /** Called with the child once it runs (e.g. to send SIGINT). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

export interface RunBinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runBin(argv: string[], options: RunBinOptions = {}): Promise<RunBinResult> {
  return runProcess(process.execPath, [binPath, ...argv], options);
}

/**
 * A bash script around the built `bo`, for pipes and FIFOs as a user's shell makes them:
 * `$BO` in the script runs it (`exec $BO …` makes it the child the test signals).
 */
export function runShell(script: string, options: RunBinOptions = {}): Promise<RunBinResult> {
  return runProcess('bash', ['-c', script.replaceAll('$BO', `"${process.execPath}" "${binPath}"`)], options);
}

function runProcess(command: string, args: string[], options: RunBinOptions): Promise<RunBinResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ HOME: process.env.HOME, PATH: process.env.PATH, ...options.env })) {
    if (v !== undefined) env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (Array.isArray(options.stdin)) void writeApart(child.stdin, options.stdin);
    else if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
    options.onSpawn?.(child);
  });
}

/** Each piece in a write of its own, so the reader gets them in separate reads. */
async function writeApart(stdin: import('node:stream').Writable, pieces: Array<string | Uint8Array>): Promise<void> {
  stdin.on('error', () => undefined);
  for (const piece of pieces) {
    stdin.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stdin.end();
}
