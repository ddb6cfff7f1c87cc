// `bo lists create -` on the built binary against `bo sandbox serve --memory`: JSON Lines
// records by API or flag name create one list each, a bad record is the batch's
// per-record failure (the others go on, exit 1), journaled like any batch, and --dry-run
// sends nothing.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

describe('bo lists create -, on the built binary', () => {
  const suite = sandboxForSuite<{ apiKey: { key: string; secret: string } }>(root);
  const { get } = suite;
  /** The sandbox's stored lists, as the API lists them. */
  const storedLists = async () => {
    const r = await runBin(['--jsonl', 'lists', 'list', '--all'], { env: testEnv(suite) });
    expect(r.code).toBe(0);
    return r.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  const activity = () => get<unknown[]>('/__sandbox/activity');


  it('creates each record\'s list once, with its own fields over the flags; history shows the run', async () => {
    const env = testEnv(suite);
    const before = await storedLists();
    const stdin = [
      '{"Name":"Batch one","RequiresDoubleOptIn":true}',
      '{"name":"Batch two","description":"By flag names","internal":false}',
      'Batch three',
    ].join('\n');
    const r = await runBin(['lists', 'create', '-', '--internal'], { env, stdin: `${stdin}\n` });
    expect(r.stderr).toMatch(/^3 created on /m);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(lines.map((l) => l[1])).toEqual(['ok', 'ok', 'ok']);

    const after = await storedLists();
    expect(after).toHaveLength(before.length + 3);
    const named = (name: string) => after.filter((l) => l.Name === name);
    for (const name of ['Batch one', 'Batch two', 'Batch three']) expect(named(name), name).toHaveLength(1);
    expect(named('Batch one')[0]).toMatchObject({ RequiresDoubleOptIn: true, IsInternal: true });
    expect(named('Batch two')[0]).toMatchObject({ Description: 'By flag names', IsInternal: false });
    expect(named('Batch three')[0]).toMatchObject({ IsInternal: true });
    // Each Uid printed is the list the sandbox stored under that name.
    expect(lines.map((l) => l[0])).toEqual(['Batch one', 'Batch two', 'Batch three'].map((n) => named(n)[0]!.Uid));

    const history = await runBin(['history', 'list', '--json'], { env });
    expect(JSON.parse(history.stdout)).toEqual([
      expect.objectContaining({ batch: true, done: 3, failed: 0, unknown: 0, state: 'finished', command: 'lists create --name - --internal' }),
    ]);
  });

  it('a bad record fails on its own, named by its line; the others are created; exit 1', async () => {
    const env = testEnv(suite);
    const before = (await storedLists()).length;
    const stdin = [
      '{"Name":"Good one"}',
      `{"Name":"${'x'.repeat(101)}"}`,
      '{"Name":"Bad field","welcome-from-email":"nope"}',
      '{"Name":"Unknown key","Colour":"red"}',
      '{"Description":"no name"}',
      '{"Name":"Good two"}',
    ].join('\n');
    const r = await runBin(['lists', 'create', '-'], { env, stdin: `${stdin}\n` });
    expect(r.code).toBe(1);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.filter((row) => row[1] === 'ok')).toHaveLength(2);
    const invalid = rows.filter((row) => row[1] === 'invalid').map((row) => row[2]);
    expect(invalid).toEqual([
      'line 2 must be 1-100 characters (got 101)',
      expect.stringMatching(/^line 3: welcome-from-email must be an email address/),
      expect.stringMatching(/^line 4: unknown key "Colour"/),
      'line 5: the record has no "Name" string',
    ]);
    expect(r.stderr).toMatch(/^error: 4 of 6 record\(s\) failed$/m);
    const after = await storedLists();
    expect(after).toHaveLength(before + 2);
    expect(after.map((l) => l.Name)).toEqual(expect.arrayContaining(['Good one', 'Good two']));
  });

  it('--dry-run prints each record\'s request and creates nothing; no run is journaled', async () => {
    const env = testEnv(suite);
    const before = (await activity()).length;
    const r = await runBin(['lists', 'create', '-', '--dry-run', '--jsonl'], { env, stdin: '{"Name":"Dry","double-opt-in":true}\nDry two\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
      { uid: 'Dry', line: 1, method: 'POST', url: `${suite.url}/api/v1/email/lists`, body: { Name: 'Dry', RequiresDoubleOptIn: true } },
      { uid: 'Dry two', line: 2, method: 'POST', url: `${suite.url}/api/v1/email/lists`, body: { Name: 'Dry two' } },
    ]);
    expect(await activity()).toHaveLength(before);
    expect((await storedLists()).map((l) => l.Name)).not.toContain('Dry');
    expect(JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout)).toEqual([]);
  });

  it('usage: neither --name nor -, both, or another argument: exit 2, nothing sent', async () => {
    const env = testEnv(suite);
    const before = (await activity()).length;
    for (const [argv, message] of [
      [[], "error: required option '--name <name>' not specified"],
      [['-', '--name', 'X'], 'error: give --name or -, not both'],
      [['Beta'], 'error: too many arguments: "Beta"; give --name, or - to read a batch from stdin'],
    ] as Array<[string[], string]>) {
      const r = await runBin(['lists', 'create', ...argv], { env, stdin: 'Y\n' });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], argv.join(' ')).toBe(message);
    }
    expect(await activity()).toHaveLength(before);
  });
});
