// --filter and --order-by against the fields the API reference lists (input/list-fields.ts),
// in process against the sandbox: a filter that can never match (a field that holds
// more than one value, a value that cannot be of the field's type) is exit 2 with one
// line naming --filter, the field and its type, and nothing is sent (the sandbox's
// activity log is unchanged); a name bo does not know is sent as given, with the
// warning --fields gives naming the nearest known field. The built binary:
// test/e2e/filter-fields-binary.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let coupon: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  coupon = (sb.fixtures as unknown as { coupons: string[] }).coupons[0]!;
});
afterAll(() => sb.close());

/** `bo argv` that must be refused: exit 2, the one line of stderr, and nothing sent. */
async function refused(argv: string[]): Promise<string> {
  const before = (await sb.activity()).length;
  const r = await runBo(argv, { env: testEnv(sb) });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n') && r.stderr.split('\n')).toHaveLength(2);
  expect(await sb.activity()).toHaveLength(before);
  return r.stderr.trimEnd();
}

/** `bo argv` that is sent: its result, and the requests the sandbox logged for it. */
async function sent(argv: string[]) {
  const before = (await sb.activity()).length;
  const r = await runBo(argv, { env: testEnv(sb) });
  return { ...r, requests: (await sb.activity()).slice(before).map((a) => `${a.method} ${a.path} ${a.status}`) };
}

/** Stderr with nothing but the note of how many records --limit left out. */
const NO_WARNING = /^(showing \d+ of \d+; pass --all for every record\n)?$/;

const ONE_VALUE = 'it takes a top-level field that holds one value (a string, number, boolean or date-time)';

describe('a --filter value that cannot be of the field\'s type is exit 2, nothing sent', () => {
  const cases: Array<[string, string[], string]> = [
    ['a word for an integer', ['accounts', 'list', '--filter', 'AccountStage=Trialing'],
      'error: --filter AccountStage is an integer, not "Trialing": a table shows it with its label (as "2 Trialing" for AccountStage=2); to match the label, use --filter AccountStageLabel=Trialing'],
    ['a table cell for an integer', ['accounts', 'list', '--filter', 'AccountStage=2 Trialing'],
      'error: --filter AccountStage is an integer, not "2 Trialing": a table shows it with its label, so "2 Trialing" is AccountStage=2 (or AccountStageLabel=Trialing)'],
    ['a fraction for an integer', ['accounts', 'list', '--filter', 'AccountStage=2.5'], 'error: --filter AccountStage is an integer, not "2.5"'],
    ['nothing for an integer', ['lists', 'list', '--filter', 'CountSubscriptionsActive='], 'error: --filter CountSubscriptionsActive is an integer, not ""'],
    ['yes for a boolean', ['accounts', 'list', '--filter', 'IsDemo=yes'], 'error: --filter IsDemo is a boolean (true or false), not "yes"'],
    ['True for a boolean (only true and false read as booleans)', ['lists', 'list', '--filter', 'RequiresDoubleOptIn=True'],
      'error: --filter RequiresDoubleOptIn is a boolean (true or false), not "True"'],
    ['1 for a boolean', ['coupons', 'list', '--filter', 'IsActive=1'], 'error: --filter IsActive is a boolean (true or false), not "1"'],
    ['a word for a number', ['coupons', 'list', '--filter', 'PercentOff=half'], 'error: --filter PercentOff is a number, not "half"'],
    ['a word for a date-time', ['accounts', 'list', '--filter', 'Created=yesterday'],
      'error: --filter Created is a date-time (ISO 8601, as 2026-03-01T08:00:00Z), not "yesterday"'],
    ['a word for a date-time (redemptions)', ['coupons', 'redemptions', 'cpn_x', '--filter', 'ExpireDate=never'],
      'error: --filter ExpireDate is a date-time (ISO 8601, as 2026-03-01T08:00:00Z), not "never"'],
    ['a Uid with a space', ['accounts', 'list', '--filter', 'Uid=acc 1'], 'error: --filter Uid must be a Uid without spaces, "/" or control characters, got "acc 1"'],
    ['an empty Uid', ['coupons', 'list', '--filter', 'Uid='], 'error: --filter Uid must not be empty'],
  ];
  it.each(cases)('%s', async (_name, argv, message) => {
    expect(await refused(argv)).toBe(message);
  });

  it('each value of a repeated filter is checked', async () => {
    expect(await refused(['accounts', 'list', '--filter', 'AccountStage=2', '--filter', 'AccountStage=two'])).toMatch(/^error: --filter AccountStage is an integer, not "two"/);
  });
});

describe('a --filter or --order-by on a field that holds more than one value is exit 2, nothing sent', () => {
  const cases: Array<[string[], string]> = [
    [['accounts', 'list', '--filter', 'PersonAccount=x'], `error: --filter cannot compare PersonAccount (array of PersonAccount): ${ONE_VALUE}`],
    [['accounts', 'list', '--filter', 'PrimaryContact=x'], `error: --filter cannot compare PrimaryContact (Person): ${ONE_VALUE}`],
    [['accounts', 'list', '--filter', 'SchemaLessData=x'], `error: --filter cannot compare SchemaLessData (object): ${ONE_VALUE}`],
    [['accounts', 'list', '--filter', 'PrimaryContact.Email=a@example.com'],
      `error: --filter cannot compare PrimaryContact.Email (a field of PrimaryContact, not of Account): ${ONE_VALUE}`],
    [['lists', 'list', '--filter', 'EmailListPerson=x'], `error: --filter cannot compare EmailListPerson (array of EmailListPerson): ${ONE_VALUE}`],
    [['coupons', 'list', '--filter', 'DiscountCouponPlans=x'], `error: --filter cannot compare DiscountCouponPlans (array): ${ONE_VALUE}`],
    [['coupons', 'redemptions', 'cpn_x', '--filter', 'Subscription=x'], `error: --filter cannot compare Subscription (Subscription): ${ONE_VALUE}`],
    [['accounts', 'list', '--order-by', 'Subscriptions desc'], `error: --order-by cannot sort by Subscriptions (array of Subscription): ${ONE_VALUE}`],
    [['lists', 'list', '--order-by', 'EmailListPerson.Source'], `error: --order-by cannot sort by EmailListPerson.Source (a field of EmailListPerson, not of EmailList): ${ONE_VALUE}`],
  ];
  it.each(cases)('bo %j', async (argv, message) => {
    expect(await refused(argv)).toBe(message);
  });

  it('a malformed --filter is refused as before, before any check of its field', async () => {
    expect(await refused(['accounts', 'list', '--filter', 'Person Account=x'])).toBe(
      'error: --filter must be Property=value with a property name of letters, digits, dots or underscores, not "Person Account=x"',
    );
    expect(await refused(['accounts', 'list', '--filter', 'Limit=5'])).toBe('error: --filter cannot set "Limit"; use --limit or --page-size');
  });
});

describe('what can match is sent as before', () => {
  it('the number of a stage matches the accounts its label names', async () => {
    const byNumber = await sent(['accounts', 'list', '--filter', 'AccountStage=2', '--all']);
    expect(byNumber).toMatchObject({ code: 0, stderr: '', requests: ['GET /api/v1/crm/accounts 200'] });
    const rows = byNumber.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.split('\t')[2]).toBe('2 Trialing');
    // The label itself is a field of its own: the same accounts.
    const byLabel = await sent(['accounts', 'list', '--filter', 'AccountStageLabel=Trialing', '--all']);
    expect(byLabel).toMatchObject({ code: 0, stderr: '', stdout: byNumber.stdout });
  });

  it.each([
    ['accounts', 'list', '--filter', 'AccountStage=+2'],
    ['accounts', 'list', '--filter', 'AccountStage=2.0'],
    ['accounts', 'list', '--filter', 'IsDemo=false'],
    ['accounts', 'list', '--filter', 'LifetimeRevenue=0'],
    ['accounts', 'list', '--filter', 'Created=2026-03-01'],
    ['accounts', 'list', '--filter', 'Name=no such name', '--order-by', 'Created desc'],
    ['coupons', 'list', '--filter', 'PercentOff=12.5', '--filter', 'IsActive=true'],
    ['lists', 'list', '--filter', 'CountSubscriptionsActive=0', '--order-by', 'Name'],
  ])('bo %s %s %s %s: sent, no warning', async (...argv) => {
    const r = await sent([...argv, '--limit', '1']);
    expect(r.stderr).toMatch(NO_WARNING);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(1);
  });
});

describe('a name bo does not know is sent as given, with the nearest known field', () => {
  it('Stage (the column header) names AccountStage; the server has the last word', async () => {
    const r = await sent(['accounts', 'list', '--filter', 'Stage=2']);
    expect(r.stderr.split('\n')[0]).toBe('warning: --filter: Account has no known field Stage (nearest: AccountStage); sent as given');
    expect(r.requests).toEqual(['GET /api/v1/crm/accounts 400']);
    expect(r.code).toBe(1);
  });

  it('--order-by the same way; several unknown filters in one line, each once', async () => {
    const r = await sent(['accounts', 'list', '--filter', 'accountstage=2', '--filter', 'Nope=1', '--filter', 'Nope=2', '--order-by', 'Stage desc']);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: --filter: Account has no known fields accountstage (nearest: AccountStage), Nope (nothing close); sent as given',
      'warning: --order-by: Account has no known field Stage (nearest: AccountStage); sent as given',
    ]);
    expect(r.requests).toEqual(['GET /api/v1/crm/accounts 400']);
  });

  it('--fields names the nearest field by its last words too', async () => {
    const r = await sent(['lists', 'list', '--fields', 'Name,Active', '--limit', '1']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('warning: --fields: EmailList has no known field Active (nearest: CountSubscriptionsActive); sent as given');
  });
});

describe('every list that takes --filter checks it', () => {
  it('the lists are those with a resource', async () => {
    const lists = [];
    for (const c of await loadCommands()) {
      const help = await runBo([...c.path, '--help']);
      if (help.stdout.includes('--filter <Property=value>')) lists.push(c);
    }
    expect(lists.map((c) => c.path.join(' ')).sort()).toEqual(['accounts list', 'coupons list', 'coupons redemptions', 'lists list']);
    for (const c of lists) expect(c.resource, c.path.join(' ')).toBeDefined();
  });

  it.each(['accounts list', 'coupons list', 'coupons redemptions', 'lists list'])('bo %s: Created=soon and --order-by ActivityEventData are exit 2', async (name) => {
    const argv = [...name.split(' '), ...(name === 'coupons redemptions' ? [coupon] : [])];
    expect(await refused([...argv, '--filter', 'Created=soon'])).toMatch(/^error: --filter Created is a date-time/);
    expect(await refused([...argv, '--order-by', 'ActivityEventData'])).toBe(`error: --order-by cannot sort by ActivityEventData (object): ${ONE_VALUE}`);
  });
});
