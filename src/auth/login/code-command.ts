// --code-command: runs the user's command through the shell whenever a code is needed
// (an authenticator CLI, a password manager, a mailbox script) and takes the first
// 6-digit number it prints. Its stdin is closed, since ours may still hold the
// password; its stderr is passed through so its own errors stay visible.
//
// Bounded on every side: at most MAX_OUTPUT bytes of its stdout are read, and it has
// BO_CODE_COMMAND_TIMEOUT seconds (default 120; a challenge lasts 600) to print a code.
// It runs in a process group of its own, ended as soon as a code is found, the limit is
// reached, the time is up or the run is interrupted, so the children of `sh -c` go too.

import { spawn, type ChildProcess } from 'node:child_process';
import { AuthError, InterruptedError } from '../../errors.js';

/** The most of the command's stdout that is read: a code is 6 digits, near the start. */
export const MAX_OUTPUT = 64 * 1024;
export const DEFAULT_TIMEOUT_MS = 120_000;
/** After SIGTERM, how long the group has before SIGKILL. */
const GRACE_MS = 500;

const CODE = /(?<!\d)\d{6}(?!\d)/;

export function firstCode(text: string): string | null {
  return CODE.exec(text)?.[0] ?? null;
}

/**
 * Finds the first code in output that grows chunk by chunk, looking at each byte about
 * once. Six digits at the very end may be the start of a longer number: they count only
 * once more output (or its end) shows where they stop.
 */
class CodeScanner {
  text = '';
  private from = 0;

  add(chunk: string): void {
    this.text += chunk;
  }

  code(ended: boolean): string | null {
    const re = new RegExp(CODE.source, 'g');
    // The lookbehind still sees what lies before lastIndex.
    re.lastIndex = this.from;
    const m = re.exec(this.text);
    if (!m) {
      // Only a code starting in the last six characters can still appear.
      this.from = Math.max(0, this.text.length - 6);
      return null;
    }
    if (!ended && m.index + 6 === this.text.length) {
      this.from = m.index;
      return null;
    }
    return m[0];
  }
}

/** Ends the command's process group: SIGTERM, then SIGKILL for what is left after a grace. */
function stopGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    child.kill();
    return;
  }
  const signalGroup = (sig: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false; // ESRCH: nothing is left in the group
    }
  };
  if (!signalGroup('SIGTERM')) return;
  const startedAt = Date.now();
  const poll = setInterval(() => {
    if (!signalGroup(0)) clearInterval(poll);
    else if (Date.now() - startedAt >= GRACE_MS) {
      signalGroup('SIGKILL');
      clearInterval(poll);
    }
  }, 25);
}

export interface CodeCommandOptions {
  env: Record<string, string | undefined>;
  /** Where the command's own stderr goes. */
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
  timeoutMs?: number;
}

export function runCodeCommand(command: string, o: CodeCommandOptions): Promise<string> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return reject(new InterruptedError());
    const child = spawn(command, {
      shell: true,
      env: o.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own (POSIX), so that ending it ends the shell's children.
      detached: process.platform !== 'win32',
    });
    // Digits are ASCII, and no byte of a UTF-8 multi-byte character is: latin1 keeps them.
    const out = new CodeScanner();
    let done = false;
    const finish = (error: Error | null, code?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      child.stdout!.destroy();
      child.stderr!.unpipe();
      child.stderr!.destroy();
      stopGroup(child);
      if (error) reject(error);
      else resolve(code!);
    };
    const timer = setTimeout(() => {
      finish(new AuthError(`--code-command printed no 6-digit code within ${timeoutMs / 1000} s`, {
        hint: `BO_CODE_COMMAND_TIMEOUT sets the limit in seconds (default ${DEFAULT_TIMEOUT_MS / 1000})`,
      }));
    }, timeoutMs);
    const onAbort = () => finish(new InterruptedError());
    o.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout!.setEncoding('latin1');
    child.stdout!.on('data', (d: string) => {
      out.add(d.slice(0, MAX_OUTPUT - out.text.length));
      const code = out.code(false);
      if (code) return finish(null, code);
      if (out.text.length >= MAX_OUTPUT) {
        finish(new AuthError(`--code-command printed no 6-digit code in the first ${MAX_OUTPUT / 1024} KiB of its output`));
      }
    });
    child.stderr!.pipe(o.stderr, { end: false });
    child.on('error', (err) => {
      finish(new AuthError(`--code-command could not be started: ${err.message}`));
    });
    child.on('close', (status, killedBy) => {
      const code = out.code(true);
      if (code) return finish(null, code);
      if (status !== 0) {
        const why = killedBy ? `was killed by ${killedBy}` : `exited with status ${status}`;
        return finish(new AuthError(`--code-command ${why}`, { hint: 'its own error output is above' }));
      }
      finish(new AuthError('--code-command printed no 6-digit code'));
    });
  });
}
