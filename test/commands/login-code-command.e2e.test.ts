// `bo login --code-command` against a command that misbehaves, on the BUILT binary as a
// real process over real HTTP (the sandbox): one that prints forever, one that prints
// nothing and sleeps, one interrupted by Ctrl-C. bo reads a bounded amount, gives up
// after BO_CODE_COMMAND_TIMEOUT seconds with exit 4 naming the flag, and ends the
// command's whole process group (the children of `sh -c` too). Needs dist/.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin, type RunBinOptions } from '../helpers/run-bin.js';
import { runCodeCommand } from '../../src/auth/login/code-command.js';

let sandbox: LoginSandbox;
let dir: string;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
  dir = mkdtempSync(join(tmpdir(), 'bo-code-command-'));
});
afterEach(async () => {
  await sandbox?.close();
});

async function loginArgs(command: string) {
  const user = await sandbox.user('email');
  const argv = ['login', '--base-url', sandbox.url, '--insecure-storage', '--username', user.username, '--password-stdin', '--code-command', command];
  return { argv, stdin: `${user.password}\n` };
}

/** Whether a process still runs (a zombie waiting for its reaper counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** A command whose child (not the shell itself) sleeps, its pid written to a file. */
function sleeperCommand(pidFile: string): string {
  return `sleep 1000 & echo $! > '${pidFile}'; wait`;
}

const noCrash = (stderr: string) => expect(stderr).not.toMatch(/RangeError|    at |Invalid string length/);

describe('bo login --code-command, bounded', () => {
  it('a command that prints forever (yes 123456): its first code is used, the command ended, memory bounded', async () => {
    const cfg = tempConfig();
    const { argv, stdin } = await loginArgs('yes 123456');
    const r = await runBin(argv, { env: cfg.env, stdin, measure: true });
    noCrash(r.stderr);
    // 123456 is not the emailed code: a clean refusal, from the server's answer.
    expect(r.stderr).toMatch(/^A sign-in code was emailed to [^\n]+\. Running --code-command for it\.\nerror: the code --code-command printed was not accepted: 4 attempts left\.\nhint: [^\n]+\n$/);
    expect(r.code).toBe(4);
    expect(r.peakMb).toBeLessThan(200);
    expect(existsSync(cfg.credentialsFile)).toBe(false);
  });

  it('a command that prints endless text without a code: exit 4 after 64 KiB, naming --code-command', async () => {
    const { argv, stdin } = await loginArgs('yes "no code here"');
    const r = await runBin(argv, { stdin, env: tempConfig().env, timeoutMs: 60_000 });
    noCrash(r.stderr);
    expect(r.stderr).toContain('error: --code-command printed no 6-digit code in the first 64 KiB of its output\n');
    expect(r.code).toBe(4);
  });

  it('a command that prints nothing and sleeps: exit 4 after BO_CODE_COMMAND_TIMEOUT, and its child is gone', async () => {
    const pidFile = join(dir, 'sleep.pid');
    const { argv, stdin } = await loginArgs(sleeperCommand(pidFile));
    const r = await runBin(argv, { stdin, env: { ...tempConfig().env, BO_CODE_COMMAND_TIMEOUT: '1' }, timeoutMs: 60_000 });
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain('error: --code-command printed no 6-digit code within 1 s\n');
    expect(r.stderr).toContain('hint: BO_CODE_COMMAND_TIMEOUT sets the limit in seconds (default 120)');
    expect(r.code).toBe(4);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !running(pid))).toBe(true);
  });

  it('a BO_CODE_COMMAND_TIMEOUT that is not a number of seconds is exit 2, nothing sent', async () => {
    const { argv, stdin } = await loginArgs('echo 123456');
    const r = await runBin(argv, { stdin, env: { ...tempConfig().env, BO_CODE_COMMAND_TIMEOUT: 'soon' } });
    expect(r.stderr).toBe('error: BO_CODE_COMMAND_TIMEOUT must be a number of seconds from 0.1 to 86400 (24 h), got "soon"\n');
    expect(r.code).toBe(2);
    expect(await sandbox.outbox()).toEqual([]);
  });

  it('Ctrl-C while the command runs: exit 130, and the command is ended', async () => {
    const pidFile = join(dir, 'sleep.pid');
    const { argv, stdin } = await loginArgs(sleeperCommand(pidFile));
    const options: RunBinOptions = {
      stdin,
      env: tempConfig().env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        void waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 30_000).then(() => child.kill('SIGINT'));
      },
    };
    const r = await runBin(argv, options);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !running(pid))).toBe(true);
  });
});

describe('runCodeCommand', () => {
  const run = (command: string, timeoutMs = 30_000) =>
    runCodeCommand(command, { env: { PATH: process.env.PATH }, stderr: process.stderr, signal: new AbortController().signal, timeoutMs });

  it('finds a code split across writes, and never takes the start of a longer number', async () => {
    expect(await run("printf 'code: 123'; sleep 0.2; printf '456\\n'")).toBe('123456');
    expect(await run("printf '1234567'; sleep 0.2; printf '8 then 654321'; sleep 0.2; echo")).toBe('654321');
    // Six digits at the very end of the output count once the command ends.
    expect(await run("printf '042042'")).toBe('042042');
  });

  it('takes the code as soon as it is printed, ending the command', async () => {
    const pidFile = join(dir, 'after.pid');
    expect(await run(`sleep 1000 & echo $! > '${pidFile}'; echo 111222; wait`)).toBe('111222');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !running(pid))).toBe(true);
  });
});
