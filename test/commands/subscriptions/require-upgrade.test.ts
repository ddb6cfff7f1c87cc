import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const sub = (i: number) => sb.fixtures.subscriptions[i]!;
const upgrade = async (uid: string) => {
  const s = await sb.record('Subscription', uid);
  return { IsPlanUpgradeRequired: s.IsPlanUpgradeRequired, NewRequiredQuantity: s.NewRequiredQuantity, PlanUpgradeRequiredMessage: s.PlanUpgradeRequiredMessage };
};

describe('bo subscriptions require-upgrade', () => {
  it('piped: sets the flag with quantity and message, one outcome line with the fields', async () => {
    const uid = sub(0);
    const r = await runBo(['subscriptions', 'require-upgrade', uid, '--quantity', '25', '--message', 'Seats exceeded'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${uid}\tok\tIsPlanUpgradeRequired=true;NewRequiredQuantity=25;PlanUpgradeRequiredMessage=Seats exceeded\n`);
    expect(await upgrade(uid)).toEqual({ IsPlanUpgradeRequired: true, NewRequiredQuantity: 25, PlanUpgradeRequiredMessage: 'Seats exceeded' });
  });

  it('--clear sends only IsPlanUpgradeRequired=false: quantity and message stay (TTY and --json)', async () => {
    const uid = sub(0);
    const tty = await runBo(['subscriptions', 'require-upgrade', uid, '--clear'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toBe(`✔ Subscription ${uid}: IsPlanUpgradeRequired=false\n`);
    expect(tty.stderr).toBe('');
    expect(await upgrade(uid)).toEqual({ IsPlanUpgradeRequired: false, NewRequiredQuantity: 25, PlanUpgradeRequiredMessage: 'Seats exceeded' });
    const json = await runBo(['subscriptions', 'require-upgrade', uid, '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).answer).toMatchObject({ Uid: uid, IsPlanUpgradeRequired: true, NewRequiredQuantity: 25 });
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing', async () => {
    const uid = sub(1);
    const before = (await sb.activity()).length;
    const argv = ['subscriptions', 'require-upgrade', uid, '--quantity', '3', '--message', 'Upgrade, please'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({
      method: 'PUT',
      url: `${sb.url}/api/v1/billing/subscriptions/${uid}/setsubscriptionupgraderequired`,
      body: { IsPlanUpgradeRequired: true, NewRequiredQuantity: 3, PlanUpgradeRequiredMessage: 'Upgrade, please' },
    });
    expect(await sb.activity()).toHaveLength(before);
    expect((await upgrade(uid)).IsPlanUpgradeRequired).not.toBe(true);
    expect((await runBo(argv, { env: testEnv(sb) })).code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`PUT ${planned.url}`]);
    expect(await upgrade(uid)).toEqual(planned.body);
  });

  it('exits 2 naming the flag, sending nothing: --clear with --quantity or --message, a bad quantity, an empty message', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[sub(2), '--clear', '--quantity', '3'], /^error: --clear does not go with --quantity/],
      [[sub(2), '--clear', '--message', 'x'], /^error: --clear does not go with --message/],
      [[sub(2), '--quantity', '0'], /^error: --quantity must be a whole number/],
      [[sub(2), '--quantity', 'ten'], /^error: --quantity must be a whole number/],
      [[sub(2), '--message', ''], /^error: --message must not be empty/],
      [['a b'], /^error: <subscriptionUid> must be a Uid/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['subscriptions', 'require-upgrade', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming the Uid for an unknown subscription', async () => {
    const r = await runBo(['subscriptions', 'require-upgrade', 'sub_missing', '--quantity', '2'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('error: subscription "sub_missing" not found');
  });

  it('- marks every subscription read from stdin (--jsonl outcomes)', async () => {
    const [a, b] = [sub(3), sub(4)];
    const r = await runBo(['subscriptions', 'require-upgrade', '-', '--message', 'Batch', '--jsonl'], { env: testEnv(sb), stdin: `${a}\n# comment\n${b}\n` });
    expect(r.code).toBe(0);
    const outcomes = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(outcomes.map((o) => [o.uid, o.ok, o.status]).sort()).toEqual([[a, true, 200], [b, true, 200]].sort());
    expect(r.stderr).toBe(`2 marked on ${sb.url} (profile default)\n`);
    for (const uid of [a, b]) expect(await upgrade(uid)).toMatchObject({ IsPlanUpgradeRequired: true, PlanUpgradeRequiredMessage: 'Batch' });
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['subscriptions', 'require-upgrade', '--help']);
    expect(r.stdout).toMatch(/--clear/);
    expect(r.stdout).toMatch(/\| bo subscriptions require-upgrade - /);
  });
});
