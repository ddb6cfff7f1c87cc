// `bo batch resume` on the built binary against `bo sandbox serve --memory`: a batch of
// 1,000 PUTs killed with SIGKILL at generated points, then resumed, leaves every record
// as asked, and no record whose outcome was journaled is sent again (the sandbox's
// activity log counts each record's requests); a `lists create -` batch killed and
// resumed creates no list twice and leaves none out; a changed input, another profile or
// origin, and a run still alive are refused with nothing sent.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, runShell, type RunBinOptions } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

interface Activity {
  method: string;
  path: string;
  status: number;
}

/** The one run file of a state folder, as its entries. */
function journal(state: string): Array<Record<string, any>> {
  const dir = join(state, 'journal');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return readFileSync(join(dir, file!), 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, any>];
      } catch {
        return [];
      }
    });
}

/** What the journal knew of each line when the run died: done/failed (an outcome) or unknown (sent, no outcome). */
function knownOutcomes(state: string): Map<string, 'known' | 'unknown'> {
  const entries = journal(state);
  const answered = new Set(entries.filter((e) => e.t === 'outcome').map((e) => e.n));
  return new Map(entries.filter((e) => e.t === 'send').map((e) => [e.uid as string, answered.has(e.n) ? 'known' : 'unknown']));
}

/** `count` lists to create, named `<prefix> 000` on, as `lists create -` records. */
function listRecords(prefix: string, count: number): { names: string[]; input: string } {
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${String(i).padStart(3, '0')}`);
  return { names, input: `${names.map((name) => JSON.stringify({ Name: name })).join('\n')}\n` };
}

/** The names of the stored lists that start with `prefix`, sorted, as `bo lists list` shows them. */
async function storedLists(env: Record<string, string | undefined>, prefix: string): Promise<string[]> {
  const stored = await runBin(['lists', 'list', '--all', '--json', '--fields', 'Name'], { env });
  return (JSON.parse(stored.stdout) as Array<{ Name: string }>).map((l) => l.Name).filter((name) => name.startsWith(`${prefix} `)).sort();
}

/** Runs `argv` with `stdin`, killed with SIGKILL once `after` outcome lines were printed. */
async function killedAfter(argv: string[], env: Record<string, string | undefined>, stdin: string, after: number) {
  let lines = 0;
  const options: RunBinOptions = {
    env,
    stdin,
    onSpawn: (child) =>
      child.stdout!.on('data', (d: Buffer) => {
        lines += d.toString().split('\n').length - 1;
        if (lines >= after) child.kill('SIGKILL');
      }),
  };
  return runBin(argv, options);
}

describe('bo batch resume, on the built binary', () => {
  const suite = sandboxForSuite<{ accounts: string[]; apiKey: { key: string; secret: string } }>(root, { args: ['--accounts', '1400'] });
  const { get } = suite;
  /** 1,000 accounts a cancellation succeeds for, as an uninterrupted run showed. */
  let cancellable: string[];
  const activity = () => get<Activity[]>('/__sandbox/activity');
  /** PUTs to each account's cancel, counted per account. */
  const cancels = async () => {
    const count = new Map<string, number>();
    for (const a of await activity()) {
      const uid = /\/crm\/accounts\/([^/]+)\/cancel$/.exec(a.path)?.[1];
      if (a.method === 'PUT' && uid) count.set(uid, (count.get(uid) ?? 0) + 1);
    }
    return count;
  };
  const cancelArgs = ['accounts', 'cancel', '-', '--reason', "Resumed, it's done", '--yes'];

  beforeAll(async () => {
    // The set-up's check: an uninterrupted run cancels each of them.
    const env = { ...testEnv(suite), BO_JOURNAL: 'off' };
    const listed = await runBin(['accounts', 'list', '--all', '--json', '--fields', 'Uid'], { env });
    const accounts = (JSON.parse(listed.stdout) as Array<{ Uid: string }>).map((a) => a.Uid);
    expect(accounts).toHaveLength(1400);
    const all = await runBin([...cancelArgs, '--json'], { env, stdin: `${accounts.join('\n')}\n` });
    const outcomes = JSON.parse(all.stdout) as Array<{ uid: string; ok: boolean }>;
    cancellable = outcomes.filter((o) => o.ok).map((o) => o.uid).slice(0, 1000);
    expect(cancellable).toHaveLength(1000);
  }, 120_000);

  // Generated kill points (fast-check, seeded: the same on every run).
  const killPoints = fc.sample(fc.integer({ min: 1, max: 950 }), { numRuns: 4, seed: 34 });
  it.each(killPoints)('1,000 cancellations killed after %i outcomes, then resumed: each account cancelled, nothing journaled sent again', async (n) => {
    const env = testEnv(suite);
    const input = `${cancellable.join('\n')}\n`;
    const killed = await killedAfter(cancelArgs, env, input, n);
    expect(killed.signal).toBe('SIGKILL');
    const known = knownOutcomes(env.BO_STATE_DIR!);
    const before = await cancels();

    const listed = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ state: string }>;
    expect(listed[0]!.state).toBe('interrupted');
    // The run read a pipe: the same records are piped again.
    const resumed = await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: input });
    expect(resumed.stderr).toMatch(/^\d+ cancelled on /m);
    expect(resumed.code, resumed.stderr).toBe(0);

    const after = await cancels();
    for (const uid of cancellable) {
      // Known outcomes were not sent again; unknown ones (a repeat cannot harm) and never-sent ones once more.
      const again = (after.get(uid) ?? 0) - (before.get(uid) ?? 0);
      expect(again, uid).toBe(known.get(uid) === 'known' ? 0 : 1);
    }
    const stages = await Promise.all(cancellable.map((uid) => get<{ AccountStage: number }>(`/__sandbox/records/Account/${uid}`)));
    expect(stages.filter((a) => a.AccountStage !== 4)).toEqual([]);
    // The same run, finished now, with every record done.
    const [run] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(run).toMatchObject({ state: 'finished', done: 1000, failed: 0, unknown: 0 });
    expect(JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout)).toHaveLength(1);
  }, 120_000);

  it('lists create - killed and resumed: no list created twice, none missing, without --resend-unknown', async () => {
    const env = testEnv(suite);
    const { names, input } = listRecords('Resumed list', 300);
    const killed = await killedAfter(['lists', 'create', '-'], env, input, 120);
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await runBin(['batch', 'resume', 'last'], { env, stdin: input });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await storedLists(env, 'Resumed list')).toEqual(names);
  }, 60_000);

  it('a run written by the bo before invocations were stored (its header a command line only) still resumes', async () => {
    const env = testEnv(suite);
    const uids = cancellable.slice(0, 300);
    const input = `${uids.join('\n')}\n`;
    const reason = "Older run, it's done";
    const killed = await killedAfter(['accounts', 'cancel', '-', '--reason', reason, '--yes'], env, input, 100);
    expect(killed.signal).toBe('SIGKILL');
    const dir = join(env.BO_STATE_DIR!, 'journal');
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    const [first, ...rest] = readFileSync(join(dir, file!), 'utf8').split('\n');
    const header = JSON.parse(first!) as Record<string, unknown>;
    // Today's header: the invocation (target and fields by name, no --yes), and the command line for display.
    expect(header.invocation).toEqual({ path: ['accounts', 'cancel'], values: { accountUid: '-', reason } });
    expect(header.command).toBe("accounts cancel - --reason 'Older run, it'\\''s done'");
    // As the previous bo wrote it: the same header without the invocation.
    delete header.invocation;
    writeFileSync(join(dir, file!), [JSON.stringify(header), ...rest].join('\n'));
    const resumed = await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: input });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [run] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(run).toMatchObject({ state: 'finished', failed: 0, unknown: 0, command: "accounts cancel - --reason 'Older run, it'\\''s done'" });
    const notes = await Promise.all(uids.map((uid) => get<{ AccountStage: number }>(`/__sandbox/records/Account/${uid}`)));
    expect(notes.filter((a) => a.AccountStage !== 4)).toEqual([]);
  }, 60_000);

  it('on a protected profile, a resume asks for --yes as the run did: refused without it (exit 2, nothing sent), finished with it', async () => {
    const env = testEnv(suite);
    expect((await runBin(['config', 'set', 'protected', 'true'], { env })).code).toBe(0);
    const { names, input } = listRecords('Protected list', 200);
    const unconfirmed = await runBin(['lists', 'create', '-'], { env, stdin: input });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('needs --yes: profile "default" is protected');
    const killed = await killedAfter(['lists', 'create', '-', '--yes'], env, input, 60);
    expect(killed.signal).toBe('SIGKILL');
    const posts = async () => (await activity()).filter((a) => a.method === 'POST' && a.path.endsWith('/lists')).length;
    const before = await posts();

    const refused = await runBin(['batch', 'resume', 'last'], { env, stdin: input });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('needs --yes: profile "default" is protected');
    expect(await posts()).toBe(before);
    expect(JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout)[0].state).toBe('interrupted');

    const resumed = await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: input });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await storedLists(env, 'Protected list')).toEqual(names);
  }, 60_000);

  it('refuses a changed input (exit 2), another profile or tenant (exit 2), a finished run, and one still alive (exit 1, naming its process)', async () => {
    const env = testEnv(suite);
    const uids = cancellable;
    expect((await killedAfter(cancelArgs, env, `${uids.join('\n')}\n`, 50)).signal).toBe('SIGKILL');
    const writes = async () => (await activity()).filter((a) => a.method !== 'GET').length;
    const before = await writes();

    const changed = [...uids];
    changed[10] = cancellable[500]!;
    const refused = await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: `${changed.join('\n')}\n` });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: the input differs from what run \S+ read \(from line 11\)/m);
    const shorter = await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: `${uids.slice(0, 5).join('\n')}\n` });
    expect(shorter.code, shorter.stderr).toBe(2);
    expect(shorter.stderr).toContain('the input differs');
    // Refused, the run is still interrupted, as it was.
    expect(JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout)[0].state).toBe('interrupted');

    const otherProfile = await runBin(['-p', 'other', 'batch', 'resume', 'last', '--yes'], { env: { ...env, BO_PROFILE: undefined }, stdin: `${uids.join('\n')}\n` });
    expect(otherProfile.code).toBe(2);
    expect(otherProfile.stderr).toContain('ran on profile "default", not "other"');
    const otherOrigin = await runBin(['batch', 'resume', 'last', '--yes'], { env: { ...env, BO_BASE_URL: 'http://127.0.0.1:9' }, stdin: `${uids.join('\n')}\n` });
    expect(otherOrigin.code).toBe(2);
    expect(otherOrigin.stderr).toContain('now goes to http://127.0.0.1:9');
    expect(await writes()).toBe(before);

    // A dry run names what it would send and sends nothing.
    const dry = await runBin(['batch', 'resume', 'last', '--dry-run'], { env, stdin: `${uids.join('\n')}\n` });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/request\(s\) would be sent, \d+ not sent again; nothing was sent/);
    expect(await writes()).toBe(before);

    // Resumed to its end: then there is nothing left to resume.
    expect((await runBin(['batch', 'resume', 'last', '--yes'], { env, stdin: `${uids.join('\n')}\n` })).code).toBe(0);
    const [run] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string }>;
    const again = await runBin(['batch', 'resume', run!.id, '--yes'], { env, stdin: `${uids.join('\n')}\n` });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('finished: there is nothing to resume');

    // A run whose process still lives (it waits on a FIFO that stays open) is refused.
    const dir = mkdtempSync(join(tmpdir(), 'bo-resume-live-'));
    const live = await runShell(
      `mkfifo "${dir}/in"; ($BO accounts cancel - --reason x --yes < "${dir}/in" > /dev/null 2>&1 & echo $! > "${dir}/pid"); exec 3> "${dir}/in"; ` +
        `echo ${uids[0]} >&3; while [ "$(ls "\${BO_STATE_DIR}/journal" | grep -c jsonl)" -lt 2 ] || ! grep -q outcome "\${BO_STATE_DIR}"/journal/$(ls -t "\${BO_STATE_DIR}/journal" | grep jsonl | head -1); do sleep 0.05; done; ` +
        `$BO batch resume $(ls -t "\${BO_STATE_DIR}/journal" | grep jsonl | head -1 | sed 's/.jsonl//') --yes < /dev/null; code=$?; exec 3>&-; wait; exit $code`,
      { env },
    );
    expect(live.code).toBe(1);
    const pid = readFileSync(join(dir, 'pid'), 'utf8').trim();
    expect(live.stderr).toContain(`is still going (process ${pid})`);
    expect(existsSync(join(dir, 'in'))).toBe(true);
  }, 60_000);

  it('unknown outcomes of a verb bo can read back: found in place, not sent; --resend-unknown sends them; a single command cannot be resumed', async () => {
    const env = testEnv(suite);
    const account = cancellable[0]!;
    const single = await runBin(['accounts', 'cancel', account, '--reason', 'x', '--yes'], { env });
    expect(single.code).toBe(0);
    const [one] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string }>;
    const refused = await runBin(['batch', 'resume', one!.id], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('changed one record, not a - batch');

    // Trials extended from a file; then "sent, no answer" forged by cutting the journal's
    // outcomes and its end, as a kill between a request and its answer leaves it.
    const trials = (suite.fixtures as unknown as { trialAccounts: string[] }).trialAccounts.slice(0, 3);
    expect(trials).toHaveLength(3);
    const file = join(mkdtempSync(join(tmpdir(), 'bo-resume-')), 'trials.txt');
    writeFileSync(file, `${trials.join('\n')}\n`);
    const extend = await runShell(`$BO accounts extend-trial - --to 2031-03-31 < "${file}"`, { env });
    expect(extend.code, extend.stderr).toBe(0);
    const dir = join(env.BO_STATE_DIR!, 'journal');
    const forge = () => {
      const runFile = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).find((f) => readFileSync(join(dir, f), 'utf8').includes('extend-trial'))!;
      const lines = readFileSync(join(dir, runFile), 'utf8').trimEnd().split('\n');
      writeFileSync(join(dir, runFile), `${lines.filter((l) => !/^\{"t":"(outcome|end)"/.test(l)).join('\n')}\n`);
    };
    forge();
    const [forged] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<{ id: string; unknown: number; state: string }>;
    expect(forged).toMatchObject({ unknown: 3, state: 'interrupted' });
    const puts = async () => (await activity()).filter((a) => a.method === 'PUT' && a.path.endsWith('/extend-trial')).length;
    const before = await puts();
    // The run read a file: resume reads it again by itself. Each trial already ends then: nothing sent.
    const resumed = await runBin(['batch', 'resume', forged!.id], { env, stdin: '' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(trials);
    expect(resumed.stdout).toContain('(found in place)');
    expect(await puts()).toBe(before);

    // Sent again whatever the read back shows: the service refuses an extension already made.
    forge();
    const forced = await runBin(['batch', 'resume', 'last', '--resend-unknown'], { env, stdin: '' });
    expect(forced.code, forced.stderr).toBe(1);
    expect(forced.stderr).toContain('3 of 3 record(s) failed');
    expect(await puts()).toBe(before + 3);
  }, 60_000);
});
