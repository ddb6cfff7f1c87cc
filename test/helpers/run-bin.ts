// runBin(argv): the built `bo` as a real process (bin/bo.js → dist/), for what only a
// real process shows: exit codes set by the shim, signals, pipes, startup, memory, the
// processes it starts. One spawn for every such test; options run it under
// /usr/bin/time -v (`measure`: its peak resident set) or strace (`trace`: every execve),
// and runShell(script) runs it from a bash script, for pipes and FIFOs a shell makes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseExecs, type Exec } from './strace.js';

export const binPath = fileURLToPath(new URL('../../bin/bo.js', import.meta.url));

export interface RunBinOptions {
  env?: Record<string, string | undefined>;
  /** Bytes on stdin, ended after them; an array is written a piece at a time, 20 ms apart. */
  stdin?: string | Uint8Array | Array<string | Uint8Array>;
  /** Kill after this many ms (the test then sees signal SIGKILL): a bound against a hang, so generous. */
  timeoutMs?: number;
  /** Called with the child once it runs (e.g. to send SIGINT, or to read a paused stdout). */
  onSpawn?: (child: ChildProcess) => void;
  /** 'paused': stdout is left for the test to read from onSpawn; the run ends when bo exits. */
  stdout?: 'collect' | 'paused';
  /** Close the reading end of stderr before bo writes to it: every message meets EPIPE. */
  closeStderr?: boolean;
  /** Under /usr/bin/time -v: the result's peakMb. */
  measure?: boolean;
  /** Under strace -f -e trace=execve: the result's children and env. */
  trace?: boolean;
  /** The Node binary that runs bo (default: the one running the tests), e.g. a pinned release with a known bug. */
  node?: string;
}

export interface RunBinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface MeasuredResult extends RunBinResult {
  /** "Maximum resident set size" of the bo process, in MB. */
  peakMb: number;
}

export interface TracedResult extends RunBinResult {
  /** Every execve of bo's descendants (bo's own start left out). */
  children: Exec[];
  /** bo's own environment as it started. */
  env: string[];
}

export function runBin(argv: string[], options: RunBinOptions & { measure: true }): Promise<MeasuredResult>;
export function runBin(argv: string[], options: RunBinOptions & { trace: true }): Promise<TracedResult>;
export function runBin(argv: string[], options?: RunBinOptions): Promise<RunBinResult>;
export function runBin(argv: string[], options: RunBinOptions = {}): Promise<RunBinResult> {
  return runProcess([options.node ?? process.execPath, binPath, ...argv], options);
}

/**
 * A bash script around the built `bo`, for pipes and FIFOs as a user's shell makes them:
 * `$BO` in the script runs it (`exec $BO …` makes it the child the test signals).
 */
export function runShell(script: string, options: RunBinOptions = {}): Promise<RunBinResult> {
  return runProcess(['bash', '-c', script.replaceAll('$BO', `"${process.execPath}" "${binPath}"`)], options);
}

async function runProcess(command: string[], options: RunBinOptions): Promise<RunBinResult> {
  const traceDir = options.trace ? mkdtempSync(join(tmpdir(), 'bo-strace-')) : undefined;
  const traceFile = traceDir && join(traceDir, 'trace');
  const wrapper = options.measure
    ? ['/usr/bin/time', '-v']
    : traceFile
      ? ['strace', '-f', '--seccomp-bpf', '-qq', '-e', 'trace=execve', '-v', '-s', '10000000', '-o', traceFile]
      : [];
  const [file, ...args] = [...wrapper, ...command];
  try {
    const result = await spawnCollecting(file!, args, options, wrapper.length > 0);
    if (options.measure) return measured(result);
    if (traceFile) {
      const [self, ...children] = parseExecs(readFileSync(traceFile, 'utf8'));
      const traced: TracedResult = { ...result, children, env: self?.env ?? [] };
      return traced;
    }
    return result;
  } finally {
    if (traceDir) rmSync(traceDir, { recursive: true, force: true });
  }
}

/**
 * `wrapped`: bo runs under /usr/bin/time or strace, in a process group of its own, so the
 * timeout kills bo itself and not only the wrapper (which would leave a hung bo running).
 */
function spawnCollecting(file: string, args: string[], options: RunBinOptions, wrapped = false): Promise<RunBinResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ HOME: process.env.HOME, PATH: process.env.PATH, ...options.env })) {
    if (v !== undefined) env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: wrapped });
    let stdout = '';
    let stderr = '';
    // Decoded as streams: a character whose bytes two reads split stays one character.
    if (options.stdout === 'paused') child.stdout.pause();
    else child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    if (options.closeStderr) child.stderr.destroy();
    else child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const kill = () => {
      try {
        if (wrapped && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // The group has just ended on its own.
      }
    };
    const timer = setTimeout(kill, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    // A paused stdout may never be read to its end, so its run ends at the exit.
    child.on(options.stdout === 'paused' ? 'exit' : 'close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (Array.isArray(options.stdin)) void writeApart(child.stdin, options.stdin);
    else if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
    options.onSpawn?.(child);
  });
}

/** time -v appends its report to stderr, after everything bo wrote: split it off. */
function measured(result: RunBinResult): MeasuredResult {
  const at = result.stderr.search(/^\s*Command (being timed|exited with non-zero status)/m);
  const report = at >= 0 ? result.stderr.slice(at) : '';
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  if (!kb && result.signal === 'SIGKILL') {
    throw new Error(`bo was killed at the timeout (it never ended); its stdout ended: ${JSON.stringify(result.stdout.slice(-600))}; its stderr: ${JSON.stringify(result.stderr.slice(-600))}`);
  }
  if (!kb) throw new Error(`no /usr/bin/time report in: ${result.stderr.slice(-500)}`);
  return { ...result, stderr: result.stderr.slice(0, at), peakMb: Number(kb[1]) / 1024 };
}

/**
 * The built bo on a pseudo-terminal (`script`): its exit code and what the terminal
 * received (stdout and stderr as one screen), CRs removed. `env` is all it gets besides
 * PATH, HOME and TERM=xterm. `columns`: the terminal's width (stty), else none is set;
 * `node` runs it (default: the Node running the tests).
 */
export function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  options: { columns?: number; node?: string } = {},
): Promise<{ code: number | null; out: string }> {
  const command = [options.node ?? process.execPath, binPath, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  const quoted = options.columns === undefined ? command : `stty cols ${options.columns} rows 50; exec ${command}`;
  const childEnv = { PATH: process.env.PATH!, HOME: process.env.HOME!, TERM: 'xterm', ...env };
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // Decoded as a stream: a character whose bytes two reads split stays one character (a
    // chunk decoded on its own turned a box-drawing line's "─" into two U+FFFD on a loaded machine).
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: out.replaceAll('\r', '') }));
  });
}

/** Each piece in a write of its own, so the reader gets them in separate reads. */
async function writeApart(stdin: Writable, pieces: Array<string | Uint8Array>): Promise<void> {
  stdin.on('error', () => undefined);
  for (const piece of pieces) {
    stdin.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stdin.end();
}

/**
 * Builds dist/ when it is not there (a test file run on its own, on a fresh clone).
 * Never rebuilds a built dist/: the build empties it first, and the other test files
 * running at the same time would meet a bo with no bundle (`npm test` builds once,
 * before the suite).
 */
export function ensureBuilt(): void {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  if (existsSync(join(repo, 'dist', 'bo.cjs'))) return;
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'pipe' });
}
