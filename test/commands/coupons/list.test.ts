import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function apiCoupons(query = '') {
  const r = await sb.api('GET', `/billing/discountcoupons?${query}`);
  expect(r.status).toBe(200);
  return r.body as { metadata: { total: number }; items: Array<Record<string, any>> };
}

describe('bo coupons list', () => {
  it('prints tab-separated rows when piped: Uid, code, name, discount, active, redeemed, redeem-by', async () => {
    const r = await runBo(['coupons', 'list'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const { items } = await apiCoupons();
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(items.length);
    const percent = items.find((c) => c.PercentOff != null)!;
    const redeemed = percent.MaxRedemptions ? `${percent.TimesRedeemed ?? 0}/${percent.MaxRedemptions}` : String(percent.TimesRedeemed ?? '');
    expect(lines).toContain(
      [percent.Uid, percent.UniqueIdentifier, percent.Name, `${percent.PercentOff} %`, String(percent.IsActive), redeemed, percent.RedeemBy ?? ''].join('\t'),
    );
    const capped = items.find((c) => c.MaxRedemptions)!;
    expect(lines.find((l) => l.startsWith(`${capped.Uid}\t`))!.split('\t')[5]).toBe(`${capped.TimesRedeemed}/${capped.MaxRedemptions}`);
  });

  it('draws a table with a header on a TTY', async () => {
    const r = await runBo(['--no-color', 'coupons', 'list'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ Uid\s+│ Code\s+│ Name\s+│ Discount\s+│ Active\s+│ Redeemed\s+│ Redeem by \(UTC[+-]\d\d:\d\d\)\s+│/);
    for (const c of (await apiCoupons()).items) expect(r.stdout).toContain(c.UniqueIdentifier);
  });

  it('prints the API records unchanged with --json', async () => {
    const r = await runBo(['--json', 'coupons', 'list'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await apiCoupons()).items);
  });

  it('filters with --active, --search and --plan as the API does', async () => {
    const all = (await apiCoupons()).items;
    const active = (await apiCoupons('isActive=true')).items;
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(all.length);
    expect(JSON.parse((await runBo(['--json', 'coupons', 'list', '--active'], { env: testEnv(sb) })).stdout)).toEqual(active);

    const code = String(all[0]!.UniqueIdentifier).slice(0, 4).toLowerCase();
    const searched = (await apiCoupons(`q=${code}`)).items;
    expect(searched.length).toBeGreaterThan(0);
    expect(searched.length).toBeLessThan(all.length);
    expect(JSON.parse((await runBo(['--json', 'coupons', 'list', '--search', code], { env: testEnv(sb) })).stdout)).toEqual(searched);

    const plan = sb.fixtures.plans[0]!;
    const forPlan = (await apiCoupons(`planUid=${plan}`)).items;
    expect(JSON.parse((await runBo(['--json', 'coupons', 'list', '--plan', plan], { env: testEnv(sb) })).stdout)).toEqual(forPlan);
  });

  it('takes the list options: --limit notes the cut, --page one raw page', async () => {
    const { metadata, items } = await apiCoupons();
    const r = await runBo(['coupons', 'list', '--limit', '2'], { env: testEnv(sb) });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stderr).toBe(`showing 2 of ${metadata.total}; pass --all for every record\n`);
    const page = await runBo(['--json', 'coupons', 'list', '--page', '1', '--page-size', '2'], { env: testEnv(sb) });
    expect(JSON.parse(page.stdout)).toEqual(items.slice(2, 4));
  });

  it('refuses bad input with exit 2 naming the flag, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [args, flag] of [
      [['--plan', 'has space'], '--plan'],
      [['--plan', ''], '--plan'],
      [['--limit', '0'], '--limit'],
      [['--filter', 'nope'], '--filter'],
    ] as const) {
      const r = await runBo(['coupons', 'list', ...args], { env: testEnv(sb) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(new RegExp(`^error: ${flag}`));
      expect(r.stdout).toBe('');
    }
    expect((await sb.activity()).length).toBe(before);
  });

  it('exits 3 naming the plan when the plan does not exist', async () => {
    const r = await runBo(['coupons', 'list', '--plan', 'plan_missing'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: no plan with Uid plan_missing');
  });

  it('shows a 400 from the server as exit 1 with its message', async () => {
    const r = await runBo(['coupons', 'list', '--filter', 'Colour=red'], { env: testEnv(sb) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // After bo's warning that it does not know the name (sent all the same).
    expect(r.stderr).toMatch(/^warning: --(filter|order-by): \w+ has no known field Colour .*\nerror: 400 .*Colour/);
  });
});
