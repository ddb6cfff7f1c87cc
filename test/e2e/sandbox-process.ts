// `bo sandbox serve --memory --port 0` as a real process, for the e2e tests: its first
// stdout line is the base URL; the tests then reach it over loopback HTTP only.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loginSandboxAt, type LoginSandbox } from '../auth/login-harness.js';

export type E2eSandbox = LoginSandbox;

/**
 * `args` are further options of `bo sandbox serve` (`--accounts 1000`).
 * `bo` is how to run it: the built `bin/bo.js` of `root` under this Node by default, or
 * another command (the single executable), with `env` if given.
 */
export async function startE2eSandbox(root: string, options: { bo?: string[]; env?: NodeJS.ProcessEnv; args?: string[] } = {}): Promise<E2eSandbox> {
  const [file, ...prefix] = options.bo ?? [process.execPath, join(root, 'bin', 'bo.js')];
  const child = spawn(file!, [...prefix, 'sandbox', 'serve', '--memory', '--port', '0', ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bo sandbox serve printed no URL in 20 s:\n${errors}`)), 20_000);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`bo sandbox serve exited (${code}):\n${errors}`)));
  });
  return loginSandboxAt(url, async () => {
    child.kill('SIGTERM');
    await exited;
  });
}

/** A served sandbox for a suite's tests: started before them, put back to its seed before each. */
export interface SuiteSandbox<F> {
  readonly sandbox: E2eSandbox;
  /** Its base URL (with `fixtures`, what testEnv() takes). */
  readonly url: string;
  /** GET /__sandbox/fixtures, read once it started. */
  readonly fixtures: F;
  /** One of the sandbox's URLs, its JSON answer. */
  get<T>(path: string, method?: string): Promise<T>;
}

/**
 * Starts `bo sandbox serve` (startE2eSandbox's options) before the suite's tests, stops
 * it after them, and resets it before each. A suite's own beforeAll, registered after
 * this call, runs once it is up.
 */
export function sandboxForSuite<F>(root: string, options: Parameters<typeof startE2eSandbox>[1] = {}): SuiteSandbox<F> {
  let sandbox: E2eSandbox | undefined;
  let fixtures: F | undefined;
  const suite: SuiteSandbox<F> = {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox is not started yet');
      return sandbox;
    },
    get url() {
      return suite.sandbox.url;
    },
    get fixtures() {
      if (fixtures === undefined) throw new Error('the sandbox is not started yet');
      return fixtures;
    },
    get: async <T>(path: string, method = 'GET') => (await (await fetch(`${suite.url}${path}`, { method })).json()) as T,
  };
  beforeAll(async () => {
    sandbox = await startE2eSandbox(root, options);
    fixtures = await suite.get<F>('/__sandbox/fixtures');
  }, 60_000);
  afterAll(() => sandbox?.close());
  beforeEach(async () => {
    await suite.get('/__sandbox/reset', 'POST');
  });
  return suite;
}
