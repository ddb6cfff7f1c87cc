// --code-command: runs the user's command through the shell whenever a code is needed
// (an authenticator CLI, a password manager, a mailbox script) and takes the first
// 6-digit number it prints. Its stdin is closed, since ours may still hold the
// password; its stderr is passed through so its own errors stay visible.

import { spawn } from 'node:child_process';
import { AuthError, InterruptedError } from '../../output/errors.js';

export function firstCode(text: string): string | null {
  return /(?<!\d)\d{6}(?!\d)/.exec(text)?.[0] ?? null;
}

export function runCodeCommand(
  command: string,
  env: Record<string, string | undefined>,
  stderr: NodeJS.WritableStream,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const child = spawn(command, { shell: true, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.stderr.on('data', (d: Buffer) => stderr.write(d));
    const onAbort = () => child.kill('SIGTERM');
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(new AuthError(`--code-command could not be started: ${err.message}`));
    });
    child.on('close', (status, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(new InterruptedError());
      if (status !== 0) {
        const why = killedBy ? `was killed by ${killedBy}` : `exited with status ${status}`;
        return reject(new AuthError(`--code-command ${why}`, { hint: 'its own error output is above' }));
      }
      const code = firstCode(out);
      if (!code) return reject(new AuthError('--code-command printed no 6-digit code'));
      resolve(code);
    });
  });
}
