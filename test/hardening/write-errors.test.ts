// Write errors on every output path, on the built binary: with stdout on /dev/full (every
// write fails with ENOSPC) each path ends with one `error:` line (and the error object
// under --json), exit 1, and never a stack trace or the bundle's minified source; a batch
// against a served sandbox stops sending, prints its summary and exits 1 with code
// `output`; a stderr on /dev/full never changes the exit code the run earned; and a bug
// reached by real input says `internal error`. A table needs a terminal, which /dev/full
// is not: test/output/write-errors.test.ts writes one to a failing stream in process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShell, type RunBinResult } from '../helpers/run-bin.js';
import { sandboxAndFolderForSuite } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

const suite = sandboxAndFolderForSuite('bo-write-errors-');

const FULL = 'error: cannot write the output: no space left on device';

/** `bo <args>` from bash with `redirect` (`> /dev/full`), stdin from `stdin` when given. */
function bo(args: string[], redirect: string, stdin?: string): Promise<RunBinResult> {
  const words = args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  return runShell(`exec $BO ${words} ${redirect}`, { env: testEnv(suite.sb), ...(stdin === undefined ? {} : { stdin }) });
}

/** No stack trace and no source: every line of stderr is short, none is a stack frame. */
function expectNoTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  for (const line of stderr.split('\n')) expect(line.length, line.slice(0, 200)).toBeLessThan(400);
}

/** The lines of stderr that are JSON error objects, parsed. */
function errorObjects(stderr: string) {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).error as { status: null | number; code: string; message: string });
}

/** The Uid of the first account, or of the first on trial (whose trial can be extended). */
async function firstAccount(filter: string[] = []): Promise<string> {
  const r = await bo(['accounts', 'list', '--limit', '1', ...filter], '');
  expect(r.code).toBe(0);
  return r.stdout.split('\t')[0]!;
}

describe('stdout on /dev/full', () => {
  it('every read path: one error line, exit 1, no stack trace; --json adds the error object, code output', async () => {
    const uid = await firstAccount();
    const paths: Array<{ path: string; args: string[]; json?: boolean }> = [
      { path: 'tab-separated rows', args: ['accounts', 'list'] },
      { path: 'CSV', args: ['--csv', 'accounts', 'list'] },
      { path: 'JSON', args: ['--json', 'accounts', 'list'], json: true },
      { path: 'JSON Lines, --all', args: ['--jsonl', 'accounts', 'list', '--all'], json: true },
      { path: '--jq', args: ['--jq', '.[].Uid', 'accounts', 'list'], json: true },
      { path: 'the record view', args: ['accounts', 'get', uid] },
      { path: 'a record as JSON', args: ['--json', 'accounts', 'get', uid], json: true },
      { path: 'bo api', args: ['api', '/crm/accounts?limit=3'] },
      { path: 'config list', args: ['config', 'list'] },
      { path: 'config list --json', args: ['--json', 'config', 'list'], json: true },
      { path: '--version (the shim)', args: ['--version'] },
      { path: '--help (the shim)', args: ['--help'] },
      { path: '--version --json (the bundle)', args: ['--version', '--json'], json: true },
      { path: 'a command help', args: ['accounts', 'list', '--help'] },
      { path: 'a help topic', args: ['help', 'exit-codes'] },
    ];
    for (const { path, args, json } of paths) {
      const r = await bo(args, '> /dev/full');
      expect({ path, code: r.code }).toEqual({ path, code: 1 });
      expectNoTrace(r.stderr);
      const lines = r.stderr.trimEnd().split('\n');
      expect({ path, first: lines[0], lines: lines.length }).toEqual({ path, first: FULL, lines: json ? 2 : 1 });
      if (json) expect(errorObjects(r.stderr)).toEqual([{ status: null, code: 'output', message: FULL.slice('error: '.length) }]);
    }
  });

  it('a batch stops sending, prints its summary on stderr and exits 1 with code output, not 141', async () => {
    const list = await bo(['accounts', 'list', '--all'], '');
    const uids = list.stdout.trimEnd().split('\n').map((row) => row.split('\t')[0]!);
    expect(uids.length).toBeGreaterThan(20);
    const r = await bo(['--json', 'accounts', 'extend-trial', '-', '--to', '2033-03-31', '--concurrency', '2'], '> /dev/full', `${uids.join('\n')}\n`);
    expect(r.code).toBe(1);
    expectNoTrace(r.stderr);
    const summary = /^(\d+) extended(, \d+ failed)?, (\d+) not attempted on http:\/\/127\.0\.0\.1:\d+ \(profile default\); the rest of stdin was not read$/m.exec(r.stderr);
    expect(summary, r.stderr).not.toBeNull();
    expect(r.stderr).toMatch(/^error: cannot write the output: no space left on device, so the batch stopped sending; \d+ record\(s\) not attempted, the rest of stdin not read$/m);
    expect(errorObjects(r.stderr)).toMatchObject([{ status: null, code: 'output' }]);
    // It stopped: what it counts as done is what the sandbox stored, far from every record.
    const done = Number(summary![1]);
    expect(done).toBeLessThan(uids.length);
    const after = await bo(['--jsonl', 'accounts', 'list', '--all', '--fields', 'CurrentSubscription.EndDate'], '');
    const stored = after.stdout.trimEnd().split('\n').filter((l) => JSON.parse(l).CurrentSubscription?.EndDate === '2033-03-31T23:59:59.000Z');
    expect(stored.length).toBe(done);
  });
});

describe('stderr on /dev/full', () => {
  it('never changes the exit code the run earned', async () => {
    const ok = await bo(['accounts', 'list', '--limit', '2'], '2> /dev/full');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trimEnd().split('\n')).toHaveLength(2);
    const missing = await bo(['--json', 'accounts', 'get', 'acc_does_not_exist'], '2> /dev/full');
    expect(missing.code).toBe(3);
    const usage = await bo(['accounts', 'lisst'], '2> /dev/full');
    expect(usage.code).toBe(2);
    const version = await bo(['--version'], '2> /dev/full');
    expect(version.code).toBe(0);
  });

  it('a batch: every outcome on stdout, its exit code as earned (0, then 1 for a failed record)', async () => {
    const uid = await firstAccount(['--filter', 'AccountStage=2']);
    const done = await bo(['accounts', 'extend-trial', '-', '--to', '2034-04-30'], '2> /dev/full', `${uid}\n`);
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(`${uid}\tok\tToDate=2034-04-30T23:59:59.000Z\n`);
    const failed = await bo(['accounts', 'extend-trial', '-', '--to', '2035-05-31'], '2> /dev/full', `${uid}\nacc_does_not_exist\n`);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^acc_does_not_exist\t404\tnot found$/m);
    expect(failed.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('a bug reached by real input', () => {
  it("the embedded sandbox's errors for the user (its own copy of the error classes) are not called bugs", async () => {
    const data = join(suite.dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'sandbox-state.json'), '{"format": ');
    const r = await runShell("exec $BO --sandbox --json accounts list", { env: { ...testEnv(suite.sb), BO_DATA_DIR: data } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the sandbox state file \S+ is not valid JSON \(.*\); delete it to start over\n\{/m);
    expect(errorObjects(r.stderr)).toMatchObject([{ status: null, code: 'failed' }]);
    expect(r.stderr).not.toContain('internal');
  });

  it('a bug off the stack (a throw from a callback, past run()): the same one line, exit 1, never Node\'s trace', async () => {
    // A preload throws from a callback once bo has set up its run (its signal handlers are
    // on): as a bug in a timer or an emitter would.
    const hook = join(suite.dir, 'throw-off-stack.cjs');
    writeFileSync(
      hook,
      "process.on('newListener', (name) => { if (name === 'SIGTERM') setImmediate(() => { throw new TypeError('a bug off the stack'); }); });\n",
    );
    const r = await runShell('exec $BO --json accounts list', { env: { ...testEnv(suite.sb), NODE_OPTIONS: `--require ${hook}` } });
    expect(r.code).toBe(1);
    expectNoTrace(r.stderr);
    expect(r.stderr).toMatch(/^error: internal error: a bug off the stack\nhint: run the command again with --verbose to see where it happened\n/);
    expect(errorObjects(r.stderr)).toEqual([{ status: null, code: 'internal', message: 'internal error: a bug off the stack' }]);
  });

  it('JSON nested too deep for --input: internal error, a hint, exit 1; the stack only with --verbose', async () => {
    const deep = join(suite.dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(300_000)}${']'.repeat(300_000)}`);
    const r = await bo(['api', '/crm/accounts', '--input', deep], '');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: internal error: maximum call stack size exceeded\nhint: run the command again with --verbose to see where it happened\n');
    const json = await bo(['--json', 'api', '/crm/accounts', '--input', deep], '');
    expect(json.code).toBe(1);
    expectNoTrace(json.stderr);
    expect(errorObjects(json.stderr)).toEqual([{ status: null, code: 'internal', message: 'internal error: maximum call stack size exceeded' }]);
    const verbose = await bo(['--verbose', 'api', '/crm/accounts', '--input', deep], '');
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^error: internal error: maximum call stack size exceeded\n(.*\n)*RangeError: Maximum call stack size exceeded\n\s+at /);
  });
});
