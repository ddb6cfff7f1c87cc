// runBinMeasured(argv): the built `bo` as a real process under /usr/bin/time -v, so a
// test can assert the most memory the process ever held (its peak resident set).
import { spawn } from 'node:child_process';
import { binPath, type RunBinResult } from './run-bin.js';

export interface MeasuredResult extends RunBinResult {
  /** "Maximum resident set size" of the bo process, in MB. */
  peakMb: number;
}

export function runBinMeasured(
  argv: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  /** Text on stdin (a batch); none when absent. */
  stdin?: string,
): Promise<MeasuredResult> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ HOME: process.env.HOME, PATH: process.env.PATH, ...env })) {
    if (v !== undefined) childEnv[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', process.execPath, binPath, ...argv], { env: childEnv, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // time -v appends its report to stderr, after everything bo wrote.
      const at = stderr.search(/^\s*Command (being timed|exited with non-zero status)/m);
      const report = at >= 0 ? stderr.slice(at) : '';
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
      if (!kb) return reject(new Error(`no /usr/bin/time report in: ${stderr.slice(-500)}`));
      resolve({ code, signal, stdout, stderr: at >= 0 ? stderr.slice(0, at) : stderr, peakMb: Number(kb[1]) / 1024 });
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}
