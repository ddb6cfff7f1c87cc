// Starts the keychain helper process (why a process: src/auth/stores/keychain.ts), which
// is `bo __keychain` (keychain-helper.ts). One operation per child, sent as JSON on its
// stdin; the answer comes back as JSON on its stdout. What it returns is plain data that
// keychain.ts turns into errors.

import type { ChildProcess } from 'node:child_process';
import type { Env } from '../../env.js';

export type KeychainRequest = { op: 'get' } | { op: 'set'; value: string } | { op: 'delete' };

/** What the helper answered, or why there is no answer. */
export type ChildResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string }
  | { failed: 'timeout' | 'spawn' | 'helper' | 'module'; detail: string };

/** What a read that ran out of time answers, however it was being made. */
export function timeoutResult(timeoutMs: number): ChildResult {
  return { failed: 'timeout', detail: `no answer within ${timeoutMs / 1000} s; BO_KEYCHAIN_TIMEOUT sets the limit` };
}

export interface KeychainCall {
  readonly result: Promise<ChildResult>;
  /** Kills the helper if it still runs. */
  stop(): void;
}

/**
 * How to start `bo __keychain` (src/auth/stores/keychain-helper.ts): the executable
 * itself in a single executable, else this package's bin/bo.js under the same Node (one
 * folder up from dist/, three from src/auth/stores/ when tests run the sources).
 */
function helperCommand(): string[] {
  const sea = process.getBuiltinModule('node:sea') as typeof import('node:sea') | undefined;
  if (sea?.isSea()) return ['__keychain'];
  const { existsSync } = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const { fileURLToPath } = process.getBuiltinModule('node:url') as typeof import('node:url');
  const candidates = ['../bin/bo.js', '../../../bin/bo.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return [candidates.find((file) => existsSync(file)) ?? candidates[0]!, '__keychain'];
}

/**
 * Starts the helper for one request. The secret travels over its stdin/stdout, never
 * its argv, and it gets the run's own environment.
 */
export function startKeychainChild(
  env: Env,
  request: KeychainRequest & { service: string; account: string },
  timeoutMs: number,
): KeychainCall {
  const childEnv = { ...env };
  // Debugger or loader flags meant for `bo` itself must not apply to the helper.
  delete childEnv.NODE_OPTIONS;
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const result = new Promise<ChildResult>((resolve) => {
    const finish = (r: ChildResult) => {
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    try {
      // Loaded here, not at the top: most reads never start the helper.
      const { spawn } = process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
      child = spawn(process.execPath, helperCommand(), { env: childEnv as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (e) {
      return finish({ failed: 'spawn', detail: (e as Error).message });
    }
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    timer = setTimeout(() => {
      child!.kill('SIGKILL');
      finish(timeoutResult(timeoutMs));
    }, timeoutMs);
    child.on('error', (e) => finish({ failed: 'spawn', detail: e.message }));
    child.on('close', (code) => {
      if (done) return;
      try {
        finish(JSON.parse(out) as ChildResult);
      } catch {
        const firstLine = err.split('\n').find((l) => /error/i.test(l)) ?? `exit code ${code}`;
        finish({ failed: 'helper', detail: firstLine.trim() });
      }
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(JSON.stringify(request));
  });
  return {
    result,
    stop: () => {
      if (!done) child?.kill('SIGKILL');
    },
  };
}
