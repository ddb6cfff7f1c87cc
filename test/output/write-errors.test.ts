// What `bo` says when stdout cannot be written, when stderr cannot, and when a bug
// escapes, through run() in process: a stdout that fails as a full disk does (ENOSPC,
// reported by the stream), one whose write() throws (a bug on the output path), and a
// command of the test's own that throws. The built binary on /dev/full is
// test/hardening/write-errors.test.ts.
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandDefinition } from '../../src/command.js';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

/** A stream every write of which fails with `code`, as a file on a full disk does. */
function failingStream(code = 'ENOSPC', text = 'no space left on device'): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error(`${code}: ${text}, write`), { code, syscall: 'write' }));
    },
  });
}

/** A stdout whose write() throws, as a bug on the output path would. */
function throwingStream(): PassThrough {
  const stream = new PassThrough();
  stream.write = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'columns')");
  };
  return stream;
}

/** A command of the test's own, failing as a bug would. */
const broken: CommandDefinition = {
  path: ['broken'],
  summary: 'fails as a bug would',
  hidden: true,
  examples: [],
  run: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'Uid')");
  },
};

const STACK_LINE = /^\s+at /m;

/** The one JSON error object on stderr. */
function errorObject(stderr: string) {
  const lines = stderr.split('\n').filter((l) => l.startsWith('{'));
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!).error as { status: number | null; code: string; message: string };
}

/** The Uids of the accounts on trial, one a line, as a batch reads them. */
async function trialUids(): Promise<string[]> {
  const r = await runBo(['--jsonl', 'accounts', 'list', '--filter', 'AccountStage=2', '--all', '--fields', 'Uid'], { env: testEnv(sb) });
  expect(r.code).toBe(0);
  return r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { Uid: string }).Uid);
}

/** How many of the accounts on trial the sandbox stored with their trial ending on `day`. */
async function storedEnding(day: string): Promise<number> {
  const r = await runBo(['--jsonl', 'accounts', 'list', '--filter', 'AccountStage=2', '--all', '--fields', 'CurrentSubscription.EndDate'], { env: testEnv(sb) });
  return r.stdout.trimEnd().split('\n').filter((l) => (JSON.parse(l) as { CurrentSubscription: { EndDate: string } }).CurrentSubscription.EndDate === `${day}T23:59:59.000Z`).length;
}

/** `4 extended, 9 not attempted on …`: the count of records done. */
function extendedIn(stderr: string): number {
  const m = /^(\d+) extended(?:, .*)? on http:\/\/127\.0\.0\.1:\d+ \(profile default\)/m.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return Number(m![1]);
}

describe('a stdout that cannot be written (a full disk)', () => {
  it('a list: one error line, exit 1; under --json the error object with code output', async () => {
    const r = await runBo(['accounts', 'list'], { env: testEnv(sb), stdout: failingStream() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: cannot write the output: no space left on device\n');
    const json = await runBo(['--json', 'accounts', 'list', '--all'], { env: testEnv(sb), stdout: failingStream('EIO', 'i/o error') });
    expect(json.code).toBe(1);
    expect(errorObject(json.stderr)).toEqual({ status: null, code: 'output', message: 'cannot write the output: i/o error' });
  });

  it('a table on a terminal, and help: the same', async () => {
    const table = await runBo(['accounts', 'list'], { env: testEnv(sb), stdout: failingStream(), stdoutIsTTY: true, columns: 100 });
    expect(table.code).toBe(1);
    expect(table.stderr).toBe('error: cannot write the output: no space left on device\n');
    const help = await runBo(['accounts', 'list', '--help'], { env: testEnv(sb), stdout: failingStream('EFBIG', 'file too large') });
    expect(help.code).toBe(1);
    expect(help.stderr).toBe('error: cannot write the output: file too large\n');
  });

  it('a batch stops sending, prints its summary counting every record it sent, exit 1, code output', async () => {
    const uids = await trialUids();
    expect(uids.length).toBeGreaterThan(4);
    const r = await runBo(['--json', 'accounts', 'extend-trial', '-', '--to', '2031-01-31', '--concurrency', '2'], {
      env: testEnv(sb),
      stdin: `${uids.join('\n')}\n`,
      stdout: failingStream(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ not attempted on /);
    expect(r.stderr).toContain('error: cannot write the output: no space left on device, so the batch stopped sending; ');
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'output' });
    expect(r.stderr).not.toMatch(STACK_LINE);
    // What the summary counts is what the sandbox stored: no record it sent goes unreported.
    const extended = extendedIn(r.stderr);
    expect(extended).toBeGreaterThan(0);
    expect(extended).toBeLessThan(uids.length);
    expect(await storedEnding('2031-01-31')).toBe(extended);
  });
});

describe('a stderr that cannot be written', () => {
  it('never changes the exit code the run earned', async () => {
    const ok = await runBo(['accounts', 'list'], { env: testEnv(sb), stderr: failingStream() });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^acc_/);
    const missing = await runBo(['--json', 'accounts', 'get', 'acc_does_not_exist'], { env: testEnv(sb), stderr: failingStream('EIO', 'i/o error') });
    expect(missing.code).toBe(3);
  });
});

describe('a bug that escapes', () => {
  it('a command that throws: error: internal error: …, a hint to use --verbose, exit 1, no stack trace', async () => {
    const r = await runBo(['broken'], { commands: [broken] });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: internal error: cannot read properties of undefined (reading 'Uid')\n" +
        'hint: run the command again with --verbose to see where it happened\n',
    );
  });

  it('under --json the error object has code internal; --verbose shows the stack', async () => {
    const json = await runBo(['--json', 'broken'], { commands: [broken] });
    expect(json.code).toBe(1);
    expect(errorObject(json.stderr)).toEqual({ status: null, code: 'internal', message: "internal error: cannot read properties of undefined (reading 'Uid')" });
    expect(json.stderr).not.toMatch(STACK_LINE);
    const verbose = await runBo(['--verbose', 'broken'], { commands: [broken] });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^error: internal error: cannot read properties of undefined \(reading 'Uid'\)\nTypeError: Cannot read/);
    expect(verbose.stderr).toMatch(STACK_LINE);
  });

  it('a system error (a file bo may not read) is said as it is, code failed, not as a bug', async () => {
    const unreadable: CommandDefinition = {
      ...broken,
      run: async () => {
        const { readFileSync } = await import('node:fs');
        readFileSync('/nonexistent/bo-test-file');
      },
    };
    const r = await runBo(['--json', 'broken'], { commands: [unreadable] });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: ENOENT: no such file or directory, open '\/nonexistent\/bo-test-file'\n/);
    expect(errorObject(r.stderr)).toMatchObject({ code: 'failed' });
  });

  it('a sign-in answered without a token is an unexpected answer, not a bug', async () => {
    const server = await startFaultServer();
    try {
      server.fallback(reply.json(200, {}));
      const r = await runBo(['--json', 'login', '--base-url', server.url, '--username', 'u@example.com', '--password-stdin', '--insecure-storage'], {
        stdin: 'a password\n',
        env: tempConfig().env,
      });
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe('error: the server answered without an access_token');
      expect(errorObject(r.stderr)).toEqual({ status: null, code: 'unexpected', message: 'the server answered without an access_token' });
    } finally {
      await server.close();
    }
  });

  it('a stdout whose write throws: a list says internal error, exit 1', async () => {
    const r = await runBo(['--json', 'accounts', 'list'], { env: testEnv(sb), stdout: throwingStream() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: internal error: cannot read properties of undefined \(reading 'columns'\)\nhint: run the command again with --verbose/);
    expect(errorObject(r.stderr)).toMatchObject({ code: 'internal' });
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('a stdout whose write throws: a batch stops sending and still reports every record it sent', async () => {
    const uids = await trialUids();
    const r = await runBo(['accounts', 'extend-trial', '-', '--to', '2032-02-29', '--concurrency', '3'], {
      env: testEnv(sb),
      stdin: `${uids.join('\n')}\n`,
      stdout: throwingStream(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: internal error: cannot read properties of undefined \(reading 'columns'\)$/m);
    expect(r.stderr).not.toMatch(STACK_LINE);
    const extended = extendedIn(r.stderr);
    expect(extended).toBeGreaterThan(0);
    expect(extended).toBeLessThan(uids.length);
    expect(await storedEnding('2032-02-29')).toBe(extended);
  });
});
