// A list printed as its default columns (table, TSV, CSV) asks the API for only the
// properties those columns read (columns.ts tableFields); --json, --jsonl and --fields
// ask as before. What is printed must not change: each row equals the columns applied
// to the whole record, read with --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { accountColumns } from '../../src/commands/accounts/list.js';
import { couponColumns } from '../../src/commands/coupons/list.js';
import { emailListColumns } from '../../src/commands/lists/list.js';
import type { Column } from '../../src/output/print.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Runs bo with --verbose; answers its exit code, stdout, and the query of its GET of `path` (from the trace). */
async function traced(argv: string[], path: string, options: { env: Record<string, string>; stdoutIsTTY?: boolean }) {
  const r = await runBo(['--verbose', ...argv], options);
  const urls = [...r.stderr.matchAll(/^> GET (\S+)$/gm)].map((m) => new URL(m[1]!));
  const url = urls.find((u) => u.pathname === `/api/v1${path}`);
  expect(url, r.stderr).toBeDefined();
  return { code: r.code, stdout: r.stdout, fields: url!.searchParams.get('fields') };
}

/** A TSV cell as bo prints it when piped. */
const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

const lists: Array<{ argv: string[]; path: string; columns: Column[]; fields: string }> = [
  { argv: ['accounts', 'list'], path: '/crm/accounts', columns: accountColumns, fields: 'Name,AccountStage,AccountStageLabel,Currency,Created' },
  { argv: ['coupons', 'list'], path: '/billing/discountcoupons', columns: couponColumns, fields: 'UniqueIdentifier,Name,PercentOff,AmountOff,IsActive,MaxRedemptions,TimesRedeemed,RedeemBy' },
  { argv: ['lists', 'list'], path: '/email/lists', columns: emailListColumns, fields: 'Name,CountSubscriptionsActive,CountSubscriptionsNotConfirmed,RequiresDoubleOptIn,IsInternal,Created' },
];

describe.each(lists)('bo $argv.0 $argv.1', ({ argv, path, columns, fields }) => {
  it('piped: asks for the columns\' properties only, and prints what the whole records give', async () => {
    const e = testEnv(sb);
    const whole = await traced([...argv, '--json', '--limit', '20'], path, { env: e });
    expect(whole).toMatchObject({ code: 0, fields: null });
    const records = JSON.parse(whole.stdout) as Array<Record<string, unknown>>;
    expect(records.length).toBeGreaterThan(0);

    const piped = await traced([...argv, '--limit', '20'], path, { env: e });
    expect(piped).toMatchObject({ code: 0, fields });
    expect(piped.stdout).toBe(records.map((r) => `${columns.map((c) => cell(c.get(r))).join('\t')}\n`).join(''));
  });

  it('as a table and as CSV: the same narrow request', async () => {
    const e = testEnv(sb);
    expect(await traced([...argv, '--limit', '3'], path, { env: e, stdoutIsTTY: true })).toMatchObject({ code: 0, fields });
    expect(await traced(['--csv', ...argv, '--limit', '3'], path, { env: e })).toMatchObject({ code: 0, fields });
  });

  it('--jsonl asks for whole records; --fields asks for what it names', async () => {
    const e = testEnv(sb);
    expect(await traced(['--jsonl', ...argv, '--limit', '3'], path, { env: e })).toMatchObject({ code: 0, fields: null });
    expect(await traced([...argv, '--limit', '3', '--fields', 'Name,Created'], path, { env: e })).toMatchObject({ code: 0, fields: 'Name,Created' });
  });
});

it('coupons redemptions names the account and plan: it asks for them by path, and the API pages by 25', async () => {
  const coupon = (sb.fixtures as unknown as { coupons: string[] }).coupons[0]!;
  const path = `/billing/discountcoupons/${coupon}/redemptions`;
  const r = await traced(['coupons', 'redemptions', coupon, '--limit', '3'], path, { env: testEnv(sb) });
  expect(r).toMatchObject({ code: 0, fields: 'Subscription.Account.Name,Subscription.Plan.Name,RedeemedDate,ExpireDate' });
  // The names the API holds for each redemption's subscription, read here over HTTP.
  const api = await sb.api('GET', `${path}?limit=3&fields=Subscription.Account.Name,Subscription.Plan.Name`);
  const expected = (api.body.items as Array<{ Uid: string; Subscription: { Account: { Name: string }; Plan: { Name: string } } }>).map(
    (i) => [i.Uid, i.Subscription.Account.Name, i.Subscription.Plan.Name],
  );
  expect(expected.length).toBe(3);
  const rows = r.stdout.trimEnd().split('\n').map((line) => line.split('\t').slice(0, 3));
  expect(rows).toEqual(expected);
  expect(r.stdout).not.toMatch(/\bsub_/);
  // --json: the records unchanged, whole (no fields asked for).
  const whole = await traced(['coupons', 'redemptions', coupon, '--limit', '3', '--json'], path, { env: testEnv(sb) });
  expect(whole).toMatchObject({ code: 0, fields: null });
});
