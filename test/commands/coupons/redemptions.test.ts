import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let coupon: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  // The coupon with the most redemptions, so that filters have something to cut.
  let best = -1;
  for (const uid of sb.fixtures.coupons) {
    const total = (await sb.api('GET', `/billing/discountcoupons/${uid}/redemptions?limit=1`)).body.metadata.total as number;
    if (total > best) [best, coupon] = [total, uid];
  }
});
afterAll(() => sb.close());

async function apiRedemptions(uid: string, query = '') {
  const r = await sb.api('GET', `/billing/discountcoupons/${uid}/redemptions?${query}`);
  expect(r.status).toBe(200);
  return r.body as { metadata: { total: number }; items: Array<Record<string, any>> };
}

describe('bo coupons redemptions', () => {
  it('prints tab-separated rows when piped: Uid, account, plan, redeemed, expires', async () => {
    const r = await runBo(['coupons', 'redemptions', coupon], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const { items } = await apiRedemptions(coupon, 'fields=RedeemedDate,ExpireDate,Subscription.Account.Name,Subscription.Plan.Name');
    expect(items.length).toBeGreaterThan(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(items.length);
    const first = items[0]!;
    const sub = first.Subscription as { Account: { Name: string }; Plan: { Name: string } };
    expect(lines[0]).toBe([first.Uid, sub.Account.Name, sub.Plan.Name, first.RedeemedDate, first.ExpireDate ?? ''].join('\t'));
  });

  it('draws a table on a TTY and prints the API records with --json', async () => {
    const tty = await runBo(['--no-color', 'coupons', 'redemptions', coupon], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/│ Uid\s+│ Account\s+│ Plan\s+│ Redeemed \(UTC[+-]\d\d:\d\d\)\s+│ Expires \(UTC[+-]\d\d:\d\d\)\s+│/);
    const json = await runBo(['--json', 'coupons', 'redemptions', coupon], { env: testEnv(sb) });
    expect(JSON.parse(json.stdout)).toEqual((await apiRedemptions(coupon)).items);
  });

  it('filters with --active and --search as the API does', async () => {
    const active = (await apiRedemptions(coupon, 'isActive=true')).items;
    const r = await runBo(['--json', 'coupons', 'redemptions', coupon, '--active'], { env: testEnv(sb) });
    expect(JSON.parse(r.stdout)).toEqual(active);
    const all = (await apiRedemptions(coupon)).items;
    const account = await sb.record('Subscription', all[0]!.Subscription.Uid).then((s) => sb.record('Account', s.Account.Uid));
    const word = String(account.Name).split(' ')[0]!;
    const searched = (await apiRedemptions(coupon, `q=${encodeURIComponent(word)}`)).items;
    expect(searched.length).toBeGreaterThan(0);
    const s = await runBo(['--json', 'coupons', 'redemptions', coupon, '--search', word], { env: testEnv(sb) });
    expect(JSON.parse(s.stdout)).toEqual(searched);
  });

  it('takes the list options', async () => {
    const { metadata } = await apiRedemptions(coupon);
    const r = await runBo(['coupons', 'redemptions', coupon, '--limit', '1'], { env: testEnv(sb) });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe(`showing 1 of ${metadata.total}; pass --all for every record\n`);
  });

  it('exits 3 naming the coupon when it does not exist', async () => {
    const r = await runBo(['coupons', 'redemptions', 'coupon_missing'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: no coupon with Uid coupon_missing');
  });

  it('refuses a malformed Uid or list option with exit 2, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [args, flag] of [
      [['a/b'], '<couponUid>'],
      [[' '], '<couponUid>'],
      [[coupon, '--page-size', '0'], '--page-size'],
    ] as const) {
      const r = await runBo(['coupons', 'redemptions', ...args], { env: testEnv(sb) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^error: ${flag}`));
    }
    expect((await sb.activity()).length).toBe(before);
  });

  it('shows a 400 from the server as exit 1 with its message', async () => {
    const r = await runBo(['coupons', 'redemptions', coupon, '--order-by', 'Colour'], { env: testEnv(sb) });
    expect(r.code).toBe(1);
    // After bo's warning that it does not know the name (sent all the same).
    expect(r.stderr).toMatch(/^warning: --(filter|order-by): \w+ has no known field Colour .*\nerror: 400 .*Colour/);
  });
});
