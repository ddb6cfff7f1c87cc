// --jq failing on the built binary: inside a batch (a runtime error of the filter on an
// outcome, against `bo sandbox serve` and its activity log: what was sent is what is
// reported, each record once, across stdout and stderr), and jq running out of memory
// or recursing too deep (its module's memory is at most 256 MiB, so each of these
// filters ends by hitting that: exactly bo's one error, nothing of the WebAssembly
// runtime's own printing, and the dead instance never called again).
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { useFaultServer } from '../helpers/fault-server.js';
import { runBin, type RunBinResult } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');
const OUT_OF_MEMORY = '--jq: the filter ran out of memory or recursed too deep';

interface OutcomeLine {
  uid: string;
  line: number;
  ok: boolean;
  status: number | null;
  error: { code: string; message: string } | null;
}

/** What bo wrote to stderr, sorted out: its own outcome lines, the summary, the error and its JSON. */
function stderrOf(r: RunBinResult) {
  const lines = r.stderr.trimEnd().split('\n');
  const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    lines,
    outcomes: json.filter((j) => 'uid' in j) as unknown as OutcomeLine[],
    errors: json.filter((j) => 'error' in j && !('uid' in j)).map((j) => j.error as { status: number | null; code: string; message: string }),
    summary: lines.find((l) => / on http:\/\/127\.0\.0\.1:\d+ \(profile default\)/.test(l)),
  };
}

/** The counts of a summary line (`1 extended, 3 failed, 1 not attempted on …`). */
function countsOf(summary: string | undefined): Record<string, number> {
  expect(summary).toBeDefined();
  const counts: Record<string, number> = {};
  for (const [, n, what] of summary!.split(' on http')[0]!.matchAll(/(\d+) ([a-z ]+?)(?:,|$| \()/g)) counts[what!] = Number(n);
  return counts;
}

/** The records the summary says were reported (every kind but "not attempted"). */
function reportedIn(counts: Record<string, number>): number {
  return Object.entries(counts).reduce((n, [what, count]) => (what === 'not attempted' ? n : n + count), 0);
}

const sorted = (values: string[]) => [...values].sort();

describe('a --jq runtime error inside a batch', () => {
  let sandbox: E2eSandbox;
  let env: Record<string, string>;
  let accounts: string[];
  const get = async <T>(path: string, method = 'GET') => (await (await fetch(`${sandbox.url}${path}`, { method })).json()) as T;
  /** The Uids of the accounts the sandbox received a request for, in order (its activity log, DECISIONS.md "Sandbox-only endpoints"). */
  const received = async () =>
    (await get<Array<{ method: string; path: string }>>('/__sandbox/activity'))
      .filter((a) => a.method === 'PUT')
      .map((a) => /\/crm\/accounts\/([^/]+)\/extend-trial$/.exec(a.path)![1]!);

  beforeAll(async () => {
    sandbox = await startE2eSandbox(root);
    const fixtures = await get<{ accounts: string[]; apiKey: { key: string; secret: string } }>('/__sandbox/fixtures');
    accounts = fixtures.accounts;
    env = testEnv({ url: sandbox.url, fixtures });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    await get('/__sandbox/reset', 'POST');
  });

  // Every seeded account: those not in trial answer 400 (D21), reported as failed all the same.
  const extend = (args: string[], filter: string) =>
    runBin(['accounts', 'extend-trial', '-', '--to', '2031-01-31', ...args, '--jq', filter], { env, stdin: `${accounts.join('\n')}\n` });

  /** Every record the sandbox received reported exactly once: filter output on stdout, bo's own lines on stderr. */
  async function expectEachSentReportedOnce(r: RunBinResult, onStdout: string[]) {
    const err = stderrOf(r);
    const sent = await received();
    expect(sorted([...onStdout, ...err.outcomes.map((o) => o.uid)])).toEqual(sorted(sent));
    // The summary adds up: what was reported, then what was not sent.
    const counts = countsOf(err.summary);
    expect(reportedIn(counts)).toBe(sent.length);
    expect(counts['not attempted']).toBeGreaterThanOrEqual(1);
    expect(err.summary).toMatch(/; the rest of stdin was not read$/);
    return { err, sent };
  }

  /** Exit 1, the error line and its JSON (code jq) last, no stack trace. */
  function expectJqError(r: RunBinResult, message: string) {
    expect(r.code, r.stderr).toBe(1);
    const err = stderrOf(r);
    expect(err.lines.at(-2)).toBe(`error: ${message}`);
    expect(err.errors).toEqual([{ status: null, code: 'jq', message }]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }

  const boom = (uid: string) => `if .uid == "${uid}" then error("boom") else .uid end`;
  const stopped = '--jq: boom; batch stopped: 1 record(s) not attempted, the rest of stdin not read; the outcomes --jq could not take are on stderr';

  it('at the default concurrency: sending stops, every record sent is reported once, the summary adds up, exit 1 code jq', async () => {
    const first = accounts[0]!;
    const r = await extend(['--jsonl'], boom(first));
    expectJqError(r, stopped);
    const onStdout = r.stdout.trimEnd().split('\n').filter((l) => l !== '');
    const { err, sent } = await expectEachSentReportedOnce(r, onStdout);
    // The failing record went to stderr as bo's own outcome line, its line number with it.
    expect(err.outcomes.find((o) => o.uid === first)).toMatchObject({ uid: first, line: 1 });
    // Stopped: at most the records in flight (4) and those that completed before it were sent.
    expect(sent.length).toBeLessThan(accounts.length);
  });

  it('at --concurrency 1: the one record sent, the failing one, is reported on stderr; nothing more is sent', async () => {
    const first = accounts[0]!;
    const r = await extend(['--jsonl', '--concurrency', '1'], boom(first));
    expectJqError(r, stopped);
    expect(r.stdout).toBe('');
    const { err, sent } = await expectEachSentReportedOnce(r, []);
    expect(sent).toEqual([first]);
    expect(err.outcomes).toHaveLength(1);
    expect(err.outcomes[0]).toMatchObject({ uid: first, line: 1 });
    expect(countsOf(err.summary)['not attempted']).toBe(1);
  });

  it('with --json (jq on the array at the end): all was sent, every outcome goes to stderr once, exit 1 code jq', async () => {
    const r = await extend([], 'error("boom")');
    expectJqError(r, '--jq: boom; the outcomes --jq could not take are on stderr');
    expect(r.stdout).toBe('');
    const err = stderrOf(r);
    const sent = await received();
    expect(sorted(sent)).toEqual(sorted(accounts));
    expect(sorted(err.outcomes.map((o) => o.uid))).toEqual(sorted(accounts));
    expect(reportedIn(countsOf(err.summary))).toBe(accounts.length);
  });
});

describe('jq out of memory or recursing too deep', () => {
  /** A fresh config folder and embedded sandbox state of its own. */
  function freshEnv() {
    const t = tempConfig();
    return { ...t.env, BO_DATA_DIR: join(t.root, 'data') };
  }

  it.each(['[range(1e9)]', 'def f: [f]; f', '"x"*1e9', '[repeat(.)]'])('bo --sandbox accounts list --jq %s: the one error, code jq, exit 1', async (filter) => {
    const r = await runBin(['--sandbox', 'accounts', 'list', '--jq', filter], { env: freshEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // Nothing else: no `Aborted()`, no word of the WebAssembly runtime.
    expect(r.stderr).toBe(`error: ${OUT_OF_MEMORY}\n${JSON.stringify({ error: { status: null, code: 'jq', message: OUT_OF_MEMORY } })}\n`);
  });

  describe('in a batch whose first outcome aborts jq', () => {
    const faultServer = useFaultServer();

    it('the rest are bo\'s own outcome lines on stderr, never given to jq again', async () => {
      const uids = ['acc_first', 'acc_b', 'acc_c', 'acc_d', 'acc_e', 'acc_f'];
      // The first record is answered at once; the others only once its outcome is on
      // stderr, so theirs come after jq aborted.
      const fault = faultServer();
      let aborted = false;
      const held: Array<() => void> = [];
      fault.fallback((req, res) => {
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
        };
        if (aborted || req.url!.includes('acc_first')) answer();
        else held.push(answer);
      });
      // Were the instance called again, it would answer these with their Uid on stdout:
      // the failed allocation left it whole. (`.line`: jq folds `"x" * 1e9` when it compiles.)
      const filter = 'if .uid == "acc_first" then "x" * (.line * 1e9) else .uid end';
      const r = await runBin(['--jsonl', 'accounts', 'extend-trial', '-', '--to', '2031-01-31', '--jq', filter], {
        env: testEnv(fault.url),
        stdin: `${uids.join('\n')}\n`,
        onSpawn: (child) => {
          let seen = '';
          child.stderr!.on('data', (d) => {
            seen += d;
            if (aborted || !seen.includes('"uid":"acc_first"')) return;
            aborted = true;
            for (const answer of held.splice(0)) answer();
          });
        },
      });
      const message = `${OUT_OF_MEMORY}; batch stopped: 1 record(s) not attempted, the rest of stdin not read; the outcomes --jq could not take are on stderr`;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      const err = stderrOf(r);
      const sent = fault.requests.map((q) => /\/crm\/accounts\/([^/]+)\/extend-trial$/.exec(q.url)![1]!);
      expect(sorted(sent)).toEqual(['acc_b', 'acc_c', 'acc_d', 'acc_first']);
      expect(err.outcomes.map((o) => o.uid)[0]).toBe('acc_first');
      expect(sorted(err.outcomes.map((o) => o.uid))).toEqual(sorted(sent));
      expect(err.outcomes.every((o) => o.ok)).toBe(true);
      expect(countsOf(err.summary)).toEqual({ extended: 4, 'not attempted': 1 });
      expect(err.errors).toEqual([{ status: null, code: 'jq', message }]);
      expect(r.stderr).not.toMatch(/Aborted|WebAssembly|ASSERTIONS/);
    });
  });
});
