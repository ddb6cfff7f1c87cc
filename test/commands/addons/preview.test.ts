import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let fault: FaultServer;
const addOns: Record<string, string> = {};
let sub: string;
let startDay: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  fault = await startFaultServer();
  for (const uid of sb.fixtures.addOns) addOns[(await sb.record('AddOn', uid)).Name] = uid;
  sub = sb.fixtures.subscriptions[0]!;
  // A start inside the current period, so the preview is prorated and the same every time.
  const renewal = Date.parse((await sb.record('Subscription', sub)).RenewalDate);
  startDay = new Date(renewal - 20 * 86_400_000).toISOString().slice(0, 10);
});
afterAll(async () => {
  await sb.close();
  await fault.close();
});

async function apiPreview(addOn: string, quantity: number) {
  const r = await sb.api('POST', '/billing/subscriptionaddons/addsubscriptionaddonpreview', {
    body: { Subscription: { Uid: sub }, AddOn: { Uid: addOn }, Quantity: quantity, StartDate: `${startDay}T23:59:59.000Z` },
  });
  expect(r.status).toBe(200);
  return r.body as Record<string, any>;
}

const preview = (addOn: string, ...more: string[]) => ['addons', 'preview', '--subscription', sub, '--addon', addOn, '--start', startDay, ...more];

describe('bo addons preview', () => {
  it('prints line items then totals as tab-separated rows when piped, and says the start it sent', async () => {
    const addOn = addOns['Priority support']!;
    const expected = await apiPreview(addOn, 2);
    const r = await runBo(preview(addOn, '--quantity', '2'), { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`start: ${startDay}T23:59:59.000Z\n`);
    const lines = expected.InvoiceLineItems as Array<Record<string, any>>;
    expect(lines).toHaveLength(2);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      ...lines.map((l) => [l.Description, l.Quantity, l.UnitAmount, l.Amount].join('\t')),
      `Subtotal\t${expected.AmountSubtotal}`,
      `Tax\t${expected.AmountTax}`,
      `Discount\t${expected.AmountDiscount}`,
      `Total\t${expected.Amount}`,
      `Amount due\t${expected.AmountOutstanding}`,
    ]);
  });

  it('shows an invoice a person can read on a TTY: a line-item table and a totals table, money to the cent', async () => {
    const addOn = addOns['Priority support']!;
    const expected = await apiPreview(addOn, 3);
    const r = await runBo(['--no-color', ...preview(addOn, '--quantity', '3')], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ Description\s+│ Quantity\s+│ Rate\s+│ Amount\s+│/);
    const [main, fee] = expected.InvoiceLineItems as Array<Record<string, any>>;
    expect(r.stdout).toMatch(new RegExp(`│ Priority support × 3\\s+│ 3\\s+│ ${main!.UnitAmount.toFixed(2)}\\s+│ ${main!.Amount.toFixed(2)}\\s+│`));
    expect(r.stdout).toMatch(new RegExp(`│ Priority support setup fee\\s+│ 1\\s+│ 99.00\\s+│ ${fee!.Amount.toFixed(2)}\\s+│`));
    expect(r.stdout).toMatch(new RegExp(`│ Total\\s+│ ${expected.Amount.toFixed(2)}\\s+│`));
    expect(r.stdout).toMatch(/│ Tax\s+│ 0\.00\s+│/);
  });

  it('prints the API\'s invoice shape with --json; nothing is saved', async () => {
    const addOn = addOns['Extra seats']!;
    const before = (await sb.record('Subscription', sub)).SubscriptionAddOns;
    const r = await runBo(['--json', ...preview(addOn, '--quantity', '4')], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const { InvoiceDate: _a, ...got } = JSON.parse(r.stdout);
    const { InvoiceDate: _b, ...want } = await apiPreview(addOn, 4);
    expect(got).toEqual(want);
    expect((await sb.record('Subscription', sub)).SubscriptionAddOns).toEqual(before);
  });

  it('adds the currency to money on a TTY when the invoice carries one', async () => {
    fault.script(
      reply.json(200, {
        Currency: 'EUR',
        InvoiceLineItems: [{ Description: 'Seats', Quantity: 2, Rate: 5, Amount: 10 }],
        AmountSubtotal: 10,
        AmountTax: 1.9,
        Amount: 11.9,
      }),
    );
    const r = await runBo(['--no-color', 'addons', 'preview', '--subscription', 's1', '--addon', 'a1'], { env: testEnv(fault.url, { BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret }), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ Seats\s+│ 2\s+│ 5\.00 EUR\s+│ 10\.00 EUR\s+│/);
    expect(r.stdout).toMatch(/│ Tax\s+│ 1\.90 EUR\s+│/);
    expect(r.stdout).toMatch(/│ Total\s+│ 11\.90 EUR\s+│/);
    expect(r.stdout).not.toMatch(/Discount|Amount due/);
    expect(JSON.parse(fault.requests.at(-1)!.body)).toEqual({ Subscription: { Uid: 's1' }, AddOn: { Uid: 'a1' } });
  });

  it('refuses bad input with exit 2 naming the flag, sending nothing', async () => {
    const before = (await sb.activity()).length;
    const addOn = addOns['Extra seats']!;
    for (const [args, flag] of [
      [['--subscription', sub, '--addon', addOn, '--quantity', '0'], '--quantity'],
      [['--subscription', sub, '--addon', addOn, '--quantity', '1.5'], '--quantity'],
      [['--subscription', sub, '--addon', addOn, '--quantity', '1e2'], '--quantity'],
      [['--subscription', sub, '--addon', addOn, '--start', '2026-02-30'], '--start'],
      [['--subscription', sub, '--addon', addOn, '--start', '2026-03-01T10:00:00'], '--start'],
      [['--subscription', 'a b', '--addon', addOn], '--subscription'],
      [['--subscription', sub, '--addon', ''], '--addon'],
    ] as const) {
      const r = await runBo(['addons', 'preview', ...args], { env: testEnv(sb) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(new RegExp(`^error: ${flag}`));
      expect(r.stdout).toBe('');
    }
    const missing = await runBo(['addons', 'preview', '--subscription', sub], { env: testEnv(sb) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--addon');
    expect((await sb.activity()).length).toBe(before);
  });

  it('exits 3 naming the Uids when the subscription or add-on does not exist', async () => {
    const r = await runBo(['addons', 'preview', '--subscription', 'sub_missing', '--addon', addOns['Extra seats']!], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: no subscription sub_missing or no add-on addon_\w+ \(404 /);
  });

  it('shows the server refusing a quantity below the add-on\'s minimum as exit 1 with its message', async () => {
    const r = await runBo(preview(addOns['Storage pack']!, '--quantity', '2'), { env: testEnv(sb) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^start: .*\nerror: 400 .*Quantity.*at least 5/);
  });
});
