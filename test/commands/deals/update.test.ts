import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const deal = (i: number) => sb.fixtures.deals[i]!;
const stage = () => sb.fixtures.pipelineStages[sb.fixtures.pipelineStages.length - 1]!;

describe('bo deals update', () => {
  it('piped: sends only the fields given (a merge), prints one outcome line with the fields and the instant sent', async () => {
    const uid = deal(0);
    const before = await sb.record('Deal', uid);
    const r = await runBo(['deals', 'update', uid, '--amount', '1200.5', '--stage', stage(), '--due', '2027-01-31'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${uid}\tok\tAmount=1200.5;DueDate=2027-01-31T23:59:59.000Z;DealPipelineStage=${stage()}\n`);
    const after = await sb.record('Deal', uid);
    expect(after).toMatchObject({ Amount: 1200.5, DueDate: '2027-01-31T23:59:59.000Z', DealPipelineStage: { Uid: stage() }, Name: before.Name, Weight: before.Weight });
  });

  it('TTY: one ✔ line with the fields; --json: the deal as the API shaped it; --data @file and --name with an emoji', async () => {
    const uid = deal(1);
    const t = tempConfig();
    const file = join(t.root, 'data.json');
    writeFileSync(file, '{"region":"EMEA","tier":2}');
    const tty = await runBo(['deals', 'update', uid, '--name', 'Renewal 🎯', '--data', `@${file}`], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toBe(`✔ Deal ${uid}: Name=Renewal 🎯, SchemaLessData={"region":"EMEA","tier":2}\n`);
    const json = await runBo(['deals', 'update', uid, '--weight', '7', '--assigned-to', 'rep-42', '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).answer).toMatchObject({ Uid: uid, Weight: 7, AssignedToPersonClientIdentifier: 'rep-42', Name: 'Renewal 🎯' });
    expect(await sb.record('Deal', uid)).toMatchObject({ Name: 'Renewal 🎯', SchemaLessData: { region: 'EMEA', tier: 2 }, Weight: 7, AssignedToPersonClientIdentifier: 'rep-42' });
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing', async () => {
    const uid = deal(2);
    const before = (await sb.activity()).length;
    const argv = ['deals', 'update', uid, '--name', 'Q3 upsell', '--amount', '99', '--weight', '2', '--stage', stage(), '--data', '{"a":1}'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({
      method: 'PUT',
      url: `${sb.url}/api/v1/crm/deals/${uid}`,
      body: { Name: 'Q3 upsell', Amount: 99, Weight: 2, DealPipelineStage: { Uid: stage() }, SchemaLessData: { a: 1 } },
    });
    expect(dry.stderr).toMatch(/^Dry run on profile "default" \(.*\): nothing was sent\.\n$/);
    expect(await sb.activity()).toHaveLength(before);
    const real = await runBo(argv, { env: testEnv(sb) });
    expect(real.code).toBe(0);
    const sent = (await sb.activity()).slice(before);
    expect(sent.map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`${planned.method} ${planned.url}`]);
    expect(await sb.record('Deal', uid)).toMatchObject(planned.body);
  });

  it('exits 2 naming the flag, sending nothing: no field, a bad number, date, Uid, JSON, an empty or too long name', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[deal(3)], /^error: nothing to change: give at least one of --name, --amount/],
      [[deal(3), '--amount', '12abc'], /^error: --amount must be a decimal number/],
      [[deal(3), '--weight', '1.5'], /^error: --weight must be a whole number/],
      [[deal(3), '--due', '2027-02-30'], /^error: --due /],
      [[deal(3), '--stage', 'a b'], /^error: --stage must be a Uid/],
      [[deal(3), '--data', '{oops'], /^error: --data must be valid JSON/],
      [[deal(3), '--data', '[1,2]'], /^error: --data must be a JSON object/],
      [[deal(3), '--name', ''], /^error: --name must not be empty/],
      [[deal(3), '--name', 'x'.repeat(251)], /^error: --name must be at most 250 characters/],
      [['x/y', '--amount', '1'], /^error: <dealUid> must be a Uid/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['deals', 'update', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming the Uid for an unknown deal; a server refusal is exit 1 with its message', async () => {
    const missing = await runBo(['deals', 'update', 'deal_missing', '--amount', '1'], { env: testEnv(sb) });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('error: deal "deal_missing" not found');
    // The server said which one it did not find: its words, not a guess.
    const badStage = await runBo(['deals', 'update', deal(3), '--stage', 'stage_missing'], { env: testEnv(sb) });
    expect(badStage.code).toBe(3);
    expect(badStage.stderr.split('\n')[0]).toBe('error: pipeline stage "stage_missing" not found');
    expect(badStage.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('- updates every deal read from stdin with the same changes; outcomes piped, summary on stderr', async () => {
    const [a, b] = [deal(4), deal(5)];
    const r = await runBo(['deals', 'update', '-', '--assigned-to', 'rep-batch'], { env: testEnv(sb), stdin: `${a}\n${JSON.stringify({ Uid: b })}\ndeal_missing\n` });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual([`${a}\tok\tAssignedToPersonClientIdentifier=rep-batch`, `${b}\tok\tAssignedToPersonClientIdentifier=rep-batch`, 'deal_missing\t404\tnot found'].sort());
    expect(r.stderr).toMatch(new RegExp(`^2 updated, 1 not found on ${sb.url} \\(profile default\\)\\n`));
    expect((await sb.record('Deal', a)).AssignedToPersonClientIdentifier).toBe('rep-batch');
    expect((await sb.record('Deal', b)).AssignedToPersonClientIdentifier).toBe('rep-batch');
  });

  it('--help shows a summary, the merge rule and examples, a batch one included', async () => {
    const r = await runBo(['deals', 'update', '--help']);
    expect(r.stdout).toMatch(/only the fields given change/);
    expect(r.stdout).toMatch(/\| bo deals update - /);
    expect(r.stdout).not.toMatch(/\bD\d+\b/);
  });
});
