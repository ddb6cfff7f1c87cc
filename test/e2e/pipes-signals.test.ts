// Pipes and signals around a read, on the built binary: Ctrl-C ends `bo` with 130
// whatever its stdout is doing (a slow reader, a FIFO nobody reads); a closed stderr
// never turns a failure into success; many requests in flight print no Node warning.
// Batches: test/mutation/batch-signal.e2e.test.ts.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { mkfifoSync } from '../helpers/fifo.js';
import { runBin, runShell, type RunBinResult } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  // 3,000 accounts: megabytes of JSON Lines, far more than a pipe holds.
  sb = await startTestSandbox({ accounts: 3000 });
});
afterAll(() => sb.close());

const LIST = ['accounts', 'list', '--all', '--jsonl', '--page-size', '100'];
const INTERRUPTED = 'error: interrupted\n{"error":{"status":null,"code":"interrupted","message":"interrupted"}}\n';

/**
 * `bo` with a reader that takes 256 bytes of its stdout every 100 ms and never closes
 * it; `onData` is called with the text read so far. Killed after `timeoutMs`.
 */
async function runWithSlowReader(argv: string[], onData: (child: ChildProcess, read: string) => void, timeoutMs: number): Promise<RunBinResult> {
  let read = '';
  let reader: NodeJS.Timeout | undefined;
  const r = await runBin(argv, {
    env: testEnv(sb),
    timeoutMs,
    stdout: 'paused',
    onSpawn: (child) => {
      reader = setInterval(() => {
        const chunk = child.stdout!.read(256) as Buffer | null;
        if (chunk) read += chunk;
        onData(child, read);
      }, 100);
    },
  });
  clearInterval(reader);
  return { ...r, stdout: read };
}

describe('Ctrl-C during a read ends bo with 130, whatever stdout is doing', () => {
  it('with a slow reader that keeps reading', async () => {
    let sent = false;
    const r = await runWithSlowReader(
      LIST,
      (child, read) => {
        if (!sent && read.includes('\n')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
      // The reader would need minutes for what is still queued: ending on its own proves the point.
      15_000,
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(INTERRUPTED);
  });

  it('with stdout a FIFO nobody reads', async () => {
    const fifo = mkfifoSync();
    const before = await requestsServed();
    // fd 3 holds the FIFO open for reading (inherited by bo, never read): writes fill it and block.
    const r = await runShell(`exec 3<>"${fifo}"; exec $BO ${LIST.join(' ')} > "${fifo}"`, {
      env: testEnv(sb),
      timeoutMs: 15_000,
      onSpawn: (child) => {
        // The walk is under way once the sandbox has served a page (a page fills the FIFO).
        const poll = setInterval(async () => {
          if ((await requestsServed()) > before) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
      },
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(INTERRUPTED);
  });
});

describe('a run that ends with output still unread', () => {
  // bo ends once its run is over and stdout and stderr hold nothing unwritten
  // (run-stop.ts): what a late reader has not taken yet must still reach it.
  // --verbose writes its trace without waiting for the reader: 300 pages of it are far
  // more than a socket holds (without that rule, 314 of 3,900 lines arrived).
  it('hands the whole --verbose trace to a reader that starts late, and exits 0', async () => {
    const argv = ['--verbose', 'accounts', 'list', '--all', '--jsonl', '--page-size', '10'];
    const dir = mkdtempSync(join(tmpdir(), 'bo-trace-'));
    const toFile = await runShell(`$BO ${argv.join(' ')} 2>"$TRACE" >/dev/null; echo "bo exited $?"; wc -l < "$TRACE"`, { env: { ...testEnv(sb), TRACE: join(dir, 'trace') } });
    rmSync(dir, { recursive: true });
    const [exited, lines] = toFile.stdout.trim().split('\n');
    expect(exited).toBe('bo exited 0');
    expect(Number(lines)).toBeGreaterThan(3000);
    // A socket, as Node's child processes have: what the reader has not taken waits in bo.
    const late = await runBin(argv, {
      env: testEnv(sb),
      onSpawn: (child) => {
        child.stderr!.pause();
        setTimeout(() => child.stderr!.resume(), 1000);
      },
    });
    expect(late.code).toBe(0);
    expect(late.stderr.split('\n').length - 1).toBe(Number(lines));
  });
});

describe('a closed stderr keeps the exit code', () => {
  /** `bo` with the reading end of its stderr closed before it starts: every message is EPIPE. */
  async function runStderrClosed(argv: string[], extraEnv: Record<string, string>): Promise<number | null> {
    return (await runBin(argv, { env: { ...tempConfig().env, ...extraEnv }, closeStderr: true })).code;
  }

  it('a refused connection is 1, a missing record 3, not 0', async () => {
    const refused = await runStderrClosed(['--base-url', 'http://127.0.0.1:1', '--max-retries', '0', 'accounts', 'list'], { BO_API_KEY: 'k', BO_API_SECRET: 's' });
    expect(refused).toBe(1);
    const missing = await runStderrClosed(['accounts', 'get', 'acc_missing'], { BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret });
    expect(missing).toBe(3);
  });
});

it('no Node warning on stderr with 16 pages in flight, also under --verbose', async () => {
  for (const flags of [[], ['--verbose']]) {
    const r = await runBin([...flags, '--jsonl', 'accounts', 'list', '--all', '--concurrency', '16'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3000);
    expect(r.stderr).not.toMatch(/Warning|MaxListeners/);
  }
});

/** Requests the sandbox has answered so far (its activity log). */
async function requestsServed(): Promise<number> {
  return (await sb.activity()).length;
}
