// Per-record fields in `-` batches, against the sandbox over real HTTP: a JSON Lines
// record may carry the verb's fields by API name or flag name, through the flag's own
// parser, overriding the flags for that record; an invalid record (a bad value, an
// unknown key, nothing to change) is its own `invalid` outcome and is not sent, the
// others are; the fields of the resource's own record are ignored; --dry-run shows each
// record's body; a plain line's first tab-separated field is the Uid; a batch on a
// terminal says what it reads before it waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/main.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { terminal } from '../helpers/terminal.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const deal = (i: number): string => sb.fixtures.deals[i]!;
const stage = () => sb.fixtures.pipelineStages[sb.fixtures.pipelineStages.length - 1]!;
const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean);
/** Outcomes in line order: an invalid record is reported at once, before what is in flight. */
const outcomes = (stdout: string) => lines(stdout).sort((x, y) => lineOf(x) - lineOf(y));
const lineOf = (outcome: string) => Number(/\tline (\d+):/.exec(outcome)?.[1] ?? 0) || order.indexOf(outcome.split('\t')[0]!) + 1;
let order: string[] = [];
const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('deals update -: each record its own fields', () => {
  it('by API name and by flag name, over the flags; bad values and unknown keys are invalid outcomes, the others are sent', async () => {
    const [a, b, c, d, e, f, g] = [0, 1, 2, 3, 4, 5, 6].map(deal) as [string, string, string, string, string, string, string];
    const before = await Promise.all([c, d, f].map((u) => sb.record('Deal', u)));
    const stdin = [
      jsonl({ Uid: a, Amount: 1200, DueDate: '2027-01-31' }),
      jsonl({ Uid: b, amount: '99.5', due: '2027-02-01T10:00:00+02:00', weight: 9 }),
      jsonl({ Uid: c, Amount: '12abc' }),
      jsonl({ Uid: d, Colour: 'red' }),
      // A plain line: the flags alone.
      `${e}\n`,
      jsonl({ Uid: f, Amount: 1, amount: 2 }),
      // A reference as {"Uid": …}, and text from a record is never a file.
      jsonl({ Uid: g, stage: { Uid: stage(), Name: 'ignored' }, Name: '@/etc/hostname', data: { tier: 3 } }),
    ].join('');
    order = [a, b, c, d, e, f, g];
    const r = await runBo(['deals', 'update', '-', '--weight', '5', '--concurrency', '1'], { env: testEnv(sb), stdin });
    expect(r.code).toBe(1);
    expect(outcomes(r.stdout)).toEqual([
      `${a}\tok\tWeight=5;Amount=1200;DueDate=2027-01-31T23:59:59.000Z`,
      `${b}\tok\tWeight=9;Amount=99.5;DueDate=2027-02-01T08:00:00.000Z`,
      `${c}\tinvalid\tline 3: Amount must be a decimal number, not "12abc"`,
      expect.stringMatching(new RegExp(`^${d}\\tinvalid\\tline 4: unknown key "Colour"; a record may carry "Uid" and Name \\(or name\\), Amount \\(or amount\\)`)),
      `${e}\tok\tWeight=5`,
      `${f}\tinvalid\tline 6: "Amount" and "amount" name the same field; give one`,
      `${g}\tok\tWeight=5;DealPipelineStage=${stage()};Name=@/etc/hostname;SchemaLessData={"tier":3}`,
    ]);
    expect(r.stderr).toMatch(new RegExp(`^4 updated, 3 invalid on ${sb.url} \\(profile default\\)\\n`));
    expect(r.stderr).toMatch(/error: 3 of 7 record\(s\) failed\n$/);

    expect(await sb.record('Deal', a)).toMatchObject({ Amount: 1200, DueDate: '2027-01-31T23:59:59.000Z', Weight: 5 });
    // The record's weight over the flag's; the date-time sent in UTC.
    expect(await sb.record('Deal', b)).toMatchObject({ Amount: 99.5, DueDate: '2027-02-01T08:00:00.000Z', Weight: 9 });
    expect(await sb.record('Deal', e)).toMatchObject({ Weight: 5 });
    expect(await sb.record('Deal', g)).toMatchObject({ Name: '@/etc/hostname', DealPipelineStage: { Uid: stage() }, SchemaLessData: { tier: 3 }, Weight: 5 });
    // Invalid records were not sent: stored as before.
    expect(await Promise.all([c, d, f].map((u) => sb.record('Deal', u)))).toEqual(before);
  });

  it('"nothing to change" is checked per record: with no flags, a record with a field is sent, a bare Uid is invalid', async () => {
    const [a, b] = [deal(7), deal(8)];
    const before = await sb.record('Deal', b);
    const r = await runBo(['deals', 'update', '-', '--concurrency', '1'], { env: testEnv(sb), stdin: jsonl({ Uid: a, weight: 3 }) + `${b}\n` + jsonl({ Uid: b }) });
    expect(r.code).toBe(1);
    order = [a];
    expect(outcomes(r.stdout)).toEqual([
      `${a}\tok\tWeight=3`,
      `${b}\tinvalid\tline 2: nothing to change: give at least one of --name, --amount, --due, --weight, --assigned-to, --stage, --data, or the field in the record`,
      `${b}\tinvalid\tline 3: nothing to change: give at least one of --name, --amount, --due, --weight, --assigned-to, --stage, --data, or the field in the record`,
    ]);
    expect((await sb.record('Deal', a)).Weight).toBe(3);
    expect(await sb.record('Deal', b)).toEqual(before);
    // A single run still refuses it before sending anything.
    const single = await runBo(['deals', 'update', a], { env: testEnv(sb) });
    expect(single.code).toBe(2);
    expect(single.stderr).toMatch(/^error: nothing to change: give at least one of --name/);
  });

  it('--dry-run shows each record its own body and sends nothing; an invalid record is named, exit 2', async () => {
    const [a, b] = [deal(9), deal(10)];
    const activity = (await sb.activity()).length;
    const ok = await runBo(['deals', 'update', '-', '--weight', '1', '--dry-run', '--jsonl'], {
      env: testEnv(sb),
      // A reference as a plain Uid string, too.
      stdin: jsonl({ Uid: a, Amount: 10 }) + jsonl({ Uid: b, due: '2027-03-01', weight: 2, DealPipelineStage: stage() }) + `${a}\n`,
    });
    expect(ok.code).toBe(0);
    expect(lines(ok.stdout).map((l) => JSON.parse(l))).toEqual([
      { uid: a, line: 1, method: 'PUT', url: `${sb.url}/api/v1/crm/deals/${a}`, body: { Amount: 10, Weight: 1 } },
      {
        uid: b,
        line: 2,
        method: 'PUT',
        url: `${sb.url}/api/v1/crm/deals/${b}`,
        body: { Weight: 2, DueDate: '2027-03-01T23:59:59.000Z', DealPipelineStage: { Uid: stage() } },
      },
      { uid: a, line: 3, method: 'PUT', url: `${sb.url}/api/v1/crm/deals/${a}`, body: { Weight: 1 } },
    ]);
    // A JSON number past what a double keeps was rounded by the JSON reader: refused, not sent rounded.
    const bad = await runBo(['deals', 'update', '-', '--dry-run'], {
      env: testEnv(sb),
      stdin: jsonl({ Uid: a, Weight: 1.5 }) + `{"Uid":"${b}","Amount":1234567890.123456789}\n` + `{"Uid":"${b}","Amount":12.25}\n`,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid: line 1: Weight must be a whole number');
    expect(bad.stderr).toContain('invalid: line 2: Amount 1234567890.1234567 has more digits than can be sent exactly');
    expect(JSON.parse(bad.stdout.split('\t')[1]!)).toEqual({ Amount: 12.25 });
    expect(await sb.activity()).toHaveLength(activity);
  });
});

describe('accounts cancel -: a reason per record', () => {
  it('by API name or flag name; text from a record is taken as it is, never read from a file', async () => {
    const [a, b] = sb.fixtures.accounts as [string, string];
    const r = await runBo(['accounts', 'cancel', '-', '--reason', 'Non-payment', '--dry-run', '--jsonl'], {
      env: testEnv(sb),
      stdin: jsonl({ Uid: a, CancelationReason: 'Moved away', comment: '@notes.txt' }) + jsonl({ Uid: b, Name: 'Acme', reason: '' }) + `${b}\n`,
    });
    expect(r.code).toBe(2);
    expect(lines(r.stdout).map((l) => JSON.parse(l).body)).toEqual([{ CancelationReason: 'Moved away', Comment: '@notes.txt' }, { CancelationReason: 'Non-payment' }]);
    expect(r.stderr).toContain('invalid: line 2: reason must not be empty\n');
  });
});

describe('the fields of the resource record are ignored; other keys are not', () => {
  it('bo --jsonl accounts list piped into accounts extend-trial -: Name, _objectType … ignored, a record\'s own "to" used', async () => {
    const list = await runBo(['--jsonl', 'accounts', 'list', '--filter', 'AccountStage=2', '--limit', '3'], { env: testEnv(sb) });
    expect(list.code).toBe(0);
    const records = lines(list.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(3);
    expect(Object.keys(records[0]!)).toEqual(expect.arrayContaining(['Name', '_objectType', 'BillingAddress', 'PrimaryContact']));
    // The third carries its own date, by flag name, over --to.
    records[2]!.to = '2033-06-30';
    const stdin = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const r = await runBo(['accounts', 'extend-trial', '-', '--to', '2032-12-31', '--concurrency', '1'], { env: testEnv(sb), stdin });
    expect(r.stderr).toMatch(/^3 extended on /);
    expect(r.code).toBe(0);
    const ends = await Promise.all(records.map(async (rec) => (await sb.record('Subscription', ((await sb.record('Account', rec.Uid as string)) as { CurrentSubscription: { Uid: string } }).CurrentSubscription.Uid)).EndDate));
    expect(ends).toEqual(['2032-12-31T23:59:59.000Z', '2032-12-31T23:59:59.000Z', '2033-06-30T23:59:59.000Z']);
  });

  it('a key that is neither the verb\'s nor the record\'s is invalid, with the nearest name; the others go on', async () => {
    const [x, y] = sb.fixtures.subscriptionAddOns as [string, string];
    const before = await sb.record('SubscriptionAddOn', y!);
    const r = await runBo(['addons', 'expire', '-', '--concurrency', '1'], {
      env: testEnv(sb),
      // Quantity is a field of a subscription add-on's record; Nmae is no field of it.
      stdin: jsonl({ Uid: x, Quantity: 2, _objectType: 'SubscriptionAddOn' }) + jsonl({ Uid: y, Nmae: 'x' }),
    });
    expect(r.code).toBe(1);
    order = [x!];
    expect(outcomes(r.stdout)).toEqual([`${x}\tok\texpired`, `${y}\tinvalid\tline 2: unknown key "Nmae"; a record of this command carries only "Uid" (and the fields of the record it names)`]);
    expect(await sb.record('SubscriptionAddOn', y!)).toEqual(before);
  });
});

describe('booleans, negated flags and the address batch', () => {
  it('subscriptions require-upgrade -: "clear" and IsPlanUpgradeRequired per record; a clear with a quantity is invalid', async () => {
    const [s1, s2, s3] = sb.fixtures.subscriptions as [string, string, string];
    const r = await runBo(['subscriptions', 'require-upgrade', '-', '--quantity', '7', '--concurrency', '1'], {
      env: testEnv(sb),
      stdin: jsonl({ Uid: s1, message: 'Please upgrade' }) + jsonl({ Uid: s2, clear: true, quantity: null }) + jsonl({ Uid: s3, IsPlanUpgradeRequired: false }),
    });
    order = [s1!];
    expect(outcomes(r.stdout)).toEqual([
      `${s1}\tok\tIsPlanUpgradeRequired=true;NewRequiredQuantity=7;PlanUpgradeRequiredMessage=Please upgrade`,
      `${s2}\tinvalid\tline 2: quantity must be text or a number, not null`,
      `${s3}\tinvalid\tline 3: --clear does not go with --quantity: it only lifts the requirement`,
    ]);
    expect(await sb.record('Subscription', s1)).toMatchObject({ IsPlanUpgradeRequired: true, NewRequiredQuantity: 7, PlanUpgradeRequiredMessage: 'Please upgrade' });
    const cleared = await runBo(['subscriptions', 'require-upgrade', '-'], { env: testEnv(sb), stdin: jsonl({ Uid: s1, clear: true }) });
    expect(cleared.code).toBe(0);
    expect((await sb.record('Subscription', s1)).IsPlanUpgradeRequired).toBe(false);
  });

  it('lists subscribe --email -: names and send-welcome per record (JSON booleans only), in the dry-run bodies', async () => {
    const list = sb.fixtures.emailLists[0]!;
    const r = await runBo(['lists', 'subscribe', list, '--email', '-', '--send-welcome', '--source', 'import', '--dry-run', '--jsonl'], {
      env: testEnv(sb),
      stdin:
        jsonl({ Email: 'ada@example.com', FirstName: 'Ada', 'send-welcome': false }) +
        'bob@example.com\tBob\n' +
        jsonl({ Email: 'cy@example.com', SendWelcomeEmail: 'yes' }),
    });
    expect(r.code).toBe(2);
    expect(lines(r.stdout).map((l) => JSON.parse(l).body)).toEqual([
      { EmailList: { Uid: list }, Person: { Email: 'ada@example.com', FirstName: 'Ada' }, Source: 'import' },
      // A row of bo's own piped output: the first field is the address.
      { EmailList: { Uid: list }, Person: { Email: 'bob@example.com' }, SendWelcomeEmail: true, Source: 'import' },
    ]);
    expect(r.stderr).toContain('invalid: line 3: SendWelcomeEmail must be true or false, not "yes"');
  });
});

describe('a batch on a terminal', () => {
  it('says what it reads before it waits, then reads what is typed', async () => {
    const t = terminal();
    t.io.env = { ...testEnv(sb), NO_COLOR: '1' };
    const addOn = sb.fixtures.subscriptionAddOns.at(-1)!;
    const done = run(['addons', 'expire', '-'], { io: t.io });
    expect(await t.waitFor((s) => s.includes('Ctrl-D'))).toBe('reading Uids from stdin, one a line; Ctrl-D to end\n');
    await t.type(`${addOn}\n`);
    t.stdin.end();
    expect(await done).toBe(0);
    expect(t.stdout()).toBe(`✔ Subscription add-on ${addOn} expired\n`);
  });

  it('names addresses for lists subscribe; nothing is said when stdin is not a terminal', async () => {
    const t = terminal();
    t.io.env = { ...testEnv(sb), NO_COLOR: '1' };
    const done = run(['lists', 'subscribe', sb.fixtures.emailLists[0]!, '--email', '-', '--dry-run'], { io: t.io });
    expect(await t.waitFor((s) => s.includes('Ctrl-D'))).toBe('reading emails from stdin, one a line; Ctrl-D to end\n');
    t.stdin.end();
    expect(await done).toBe(0);
    const piped = await runBo(['addons', 'expire', '-'], { env: testEnv(sb), stdin: '' });
    expect(piped.stderr).not.toContain('Ctrl-D');
  });
});
