import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { shownInText } from '../../helpers/local-time.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const trial = (i: number) => sb.fixtures.trialAccounts[i]!;
/** D21: the trial end is the current subscription's EndDate. */
async function trialEnd(accountUid: string): Promise<{ EndDate: string; ExpirationDate: string }> {
  const account = await sb.record('Account', accountUid);
  return (await sb.record('Subscription', account.CurrentSubscription.Uid ?? account.CurrentSubscription))!;
}

describe('bo accounts extend-trial', () => {
  it('sends ToDate (a bare date meaning 23:59:59 UTC) and prints back the instant sent', async () => {
    const uid = trial(0);
    const r = await runBo(['accounts', 'extend-trial', uid, '--to', '2031-01-31'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${uid}\tok\tToDate=2031-01-31T23:59:59.000Z\n`);
    expect(r.stderr).toBe('');
    const sub = await trialEnd(uid);
    expect(sub.EndDate).toBe('2031-01-31T23:59:59.000Z');
    expect(sub.ExpirationDate).toBe('2031-01-31T23:59:59.000Z');
  });

  it('--expiration sets ExpirationDate; --json prints the answer as JSON; a TTY one ✔ line', async () => {
    const uid = trial(1);
    const r = await runBo(['accounts', 'extend-trial', uid, '--to', '2031-02-01T10:00:00+02:00', '--expiration', '2031-03-01', '--json'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).answer).toBe('Trial extended to 2031-02-01T08:00:00.000Z');
    const sub = await trialEnd(uid);
    expect(sub.EndDate).toBe('2031-02-01T08:00:00.000Z');
    expect(sub.ExpirationDate).toBe('2031-03-01T23:59:59.000Z');
    const tty = await runBo(['--no-color', 'accounts', 'extend-trial', uid, '--to', '2031-04-01'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    // On a terminal the instant is local, with its zone.
    expect(tty.stdout).toBe(`✔ Account ${uid}: ToDate=${shownInText('2031-04-01T23:59:59.000Z')}\n`);
  });

  it('--dry-run prints the body a real run then sends, and sends nothing', async () => {
    const uid = trial(2);
    const before = (await sb.activity()).length;
    const dry = await runBo(['accounts', 'extend-trial', uid, '--to', '2031-05-05', '--expiration', '2031-06-06', '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({
      method: 'PUT',
      url: `${sb.url}/api/v1/crm/accounts/${uid}/extend-trial`,
      body: { ToDate: '2031-05-05T23:59:59.000Z', ExpirationDate: '2031-06-06T23:59:59.000Z' },
    });
    expect(await sb.activity()).toHaveLength(before);
    const real = await runBo(['accounts', 'extend-trial', uid, '--to', '2031-05-05', '--expiration', '2031-06-06'], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    const sub = await trialEnd(uid);
    expect({ ToDate: sub.EndDate, ExpirationDate: sub.ExpirationDate }).toEqual(planned.body);
  });

  it('exits 2 naming the flag for a bad date, a missing --to or a bad Uid, sending nothing', async () => {
    const before = (await sb.activity()).length;
    const cases: Array<[string[], RegExp]> = [
      [[trial(3), '--to', '2031-02-30'], /^error: --to is not a real date/],
      [[trial(3), '--to', 'tomorrow'], /^error: --to must be a date/],
      [[trial(3), '--to', '2031-01-01T10:00:00'], /^error: --to needs a time zone/],
      [[trial(3), '--to', '2031-01-01', '--expiration', '31/01/2031'], /^error: --expiration must be a date/],
      [[trial(3)], /^error: required option '--to <date>' not specified/],
      [['acc x', '--to', '2031-01-01'], /^error: <accountUid> must be a Uid/],
    ];
    for (const [argv, message] of cases) {
      const r = await runBo(['accounts', 'extend-trial', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming the Uid for an unknown account, 1 with the server message for a date not later', async () => {
    const missing = await runBo(['accounts', 'extend-trial', 'acc_missing', '--to', '2031-01-01'], { env: testEnv(sb) });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('error: account "acc_missing" not found');
    const earlier = await runBo(['accounts', 'extend-trial', trial(0), '--to', '2030-01-01'], { env: testEnv(sb) });
    expect(earlier.code).toBe(1);
    expect(earlier.stderr).toMatch(/^error: .*400.*later than the current trial end/);
  });

  it('extends every trial read from stdin as one batch', async () => {
    const [a, b] = [trial(4), trial(5)];
    const r = await runBo(['accounts', 'extend-trial', '-', '--to', '2032-01-31'], { env: testEnv(sb), stdin: `{"Uid":"${a}","AccountStage":2}\n{"Uid":"${b}","AccountStage":2}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').sort()).toEqual([`${a}\tok\tToDate=2032-01-31T23:59:59.000Z`, `${b}\tok\tToDate=2032-01-31T23:59:59.000Z`].sort());
    expect(r.stderr).toBe(`2 extended on ${sb.url} (profile default)\n`);
    for (const uid of [a, b]) expect((await trialEnd(uid)).EndDate).toBe('2032-01-31T23:59:59.000Z');
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['accounts', 'extend-trial', '--help']);
    expect(r.stdout).toContain('| bo accounts extend-trial - --to 2027-01-31');
  });
});
