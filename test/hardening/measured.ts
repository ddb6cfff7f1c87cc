// The built `bo` under /usr/bin/time -v with text on stdin (a batch), for its peak
// resident memory; the same report parsing as test/helpers/run-bin-measured.ts.
import { spawn } from 'node:child_process';
import { binPath } from '../helpers/run-bin.js';
import type { MeasuredResult } from '../helpers/run-bin-measured.js';

export function runBinMeasuredWithStdin(argv: string[], env: Record<string, string>, stdin: string, timeoutMs = 120_000): Promise<MeasuredResult> {
  const childEnv: Record<string, string> = { HOME: process.env.HOME ?? '', PATH: process.env.PATH ?? '', ...env };
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', process.execPath, binPath, ...argv], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const at = stderr.search(/^\s*Command (being timed|exited with non-zero status)/m);
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(at >= 0 ? stderr.slice(at) : '');
      if (!kb) return reject(new Error(`no /usr/bin/time report in: ${stderr.slice(-500)}`));
      resolve({ code, signal, stdout, stderr: at >= 0 ? stderr.slice(0, at) : stderr, peakMb: Number(kb[1]) / 1024 });
    });
    child.stdin.end(stdin);
  });
}
