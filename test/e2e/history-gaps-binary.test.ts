// Two gaps of `bo history` on the built binary: a word after `bo history` that is no verb
// of it is reported as every group reports one (not as an argument too many for the
// default `list`); and a batch that sent nothing (stdin refused whole, every line
// invalid) leaves no run to list, while one that sent a change does.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');

describe('bo history: an unknown verb, and runs that sent nothing, on the built binary', () => {
  it('bo history bogus is an unknown command, as in every group (exit 2); the default list and its flags still work', async () => {
    const env = testEnv('http://127.0.0.1:9');
    const history = await runBin(['history', 'bogus'], { env });
    const lists = await runBin(['lists', 'bogus'], { env });
    expect(history.code).toBe(2);
    expect(history.stdout).toBe('');
    expect(history.stderr.split('\n')[0]).toBe("error: unknown command 'bogus'");
    // The same report as another group's, each naming its own way to the records.
    const shape = (text: string, group: string) => text.replaceAll(`bo ${group} `, 'bo <group> ').replace(/ lists [^)]*\)/, ' lists …)');
    expect(shape(history.stderr, 'history')).toBe(shape(lists.stderr, 'lists'));
    expect(history.stderr).toContain('(bo history list lists ');

    const typo = await runBin(['history', 'lst'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: unknown command 'lst'\n\(did you mean list\?\)\n/);

    // The verb's own arguments are still the verb's to count.
    const extra = await runBin(['history', 'list', 'bogus'], { env });
    expect(extra.code).toBe(2);
    expect(extra.stderr.split('\n')[0]).toBe("error: too many arguments for 'list'. Expected 0 arguments but got 1.");

    for (const argv of [['history'], ['history', '--json'], ['history', '--since', '2h', '--json']]) {
      const r = await runBin(argv, { env });
      expect(r.code, argv.join(' ')).toBe(0);
    }
  });

  describe('against a served sandbox', () => {
    let sandbox: E2eSandbox;
    let fixtures: { apiKey: { key: string; secret: string } };
    beforeAll(async () => {
      sandbox = await startE2eSandbox(root);
      fixtures = (await (await fetch(`${sandbox.url}/__sandbox/fixtures`)).json()) as typeof fixtures;
    }, 60_000);
    afterAll(() => sandbox.close());

    const runFiles = (env: Record<string, string>) => readdirSync(join(env.BO_STATE_DIR!, 'journal')).filter((f) => f.endsWith('.jsonl'));
    const listed = async (env: Record<string, string>) => JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;

    it('a batch refused before sending (UTF-16 stdin) or with every line invalid leaves no run; one that sent a change does', async () => {
      const env = testEnv({ url: sandbox.url, fixtures });
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Beta\n', 'utf16le')]);
      const refused = await runBin(['lists', 'create', '-'], { env, stdin: utf16 });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^error: stdin is UTF-16 text, not UTF-8/);
      expect(runFiles(env)).toEqual([]);
      expect(await listed(env)).toEqual([]);

      const invalid = await runBin(['lists', 'create', '-'], { env, stdin: `{"Name":""}\n{"Colour":"red"}\n` });
      expect(invalid.code).toBe(1);
      expect(invalid.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[1])).toEqual(['invalid', 'invalid']);
      expect(runFiles(env)).toEqual([]);
      expect(await listed(env)).toEqual([]);

      const sent = await runBin(['lists', 'create', '-'], { env, stdin: `{"Name":""}\nGaps list\n` });
      expect(sent.code).toBe(1);
      expect(runFiles(env)).toHaveLength(1);
      expect(await listed(env)).toEqual([expect.objectContaining({ done: 1, failed: 0, unknown: 0, state: 'finished' })]);
    });
  });
});
