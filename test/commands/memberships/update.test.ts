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

const membership = (i: number) => sb.fixtures.memberships[i]!;
const stored = async (uid: string) => {
  const m = await sb.record('PersonAccount', uid);
  return { IsPrimary: m.IsPrimary, ReceiveInvoices: m.ReceiveInvoices, Role: m.Role };
};

describe('bo memberships update', () => {
  it('piped: --no-receive-invoices and --role change only those; one outcome line with them', async () => {
    const { accountUid, uid } = membership(0);
    const before = await stored(uid);
    const r = await runBo(['memberships', 'update', accountUid, uid, '--no-receive-invoices', '--role', '3'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${uid}\tok\tReceiveInvoices=false;Role=3\n`);
    expect(await stored(uid)).toEqual({ IsPrimary: before.IsPrimary, ReceiveInvoices: false, Role: 3 });
  });

  it('TTY: one ✔ line; --json: the membership; --primary and --no-primary both reach the server', async () => {
    const { accountUid, uid } = membership(1);
    const tty = await runBo(['memberships', 'update', accountUid, uid, '--primary', '--receive-invoices'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toBe(`✔ Membership ${uid}: IsPrimary=true, ReceiveInvoices=true\n`);
    expect(await stored(uid)).toMatchObject({ IsPrimary: true, ReceiveInvoices: true });
    const json = await runBo(['memberships', 'update', accountUid, uid, '--no-primary', '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).answer).toMatchObject({ Uid: uid, IsPrimary: false, ReceiveInvoices: true });
    expect(await stored(uid)).toMatchObject({ IsPrimary: false, ReceiveInvoices: true });
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing', async () => {
    const { accountUid, uid } = membership(2);
    const before = (await sb.activity()).length;
    const argv = ['memberships', 'update', accountUid, uid, '--primary', '--no-receive-invoices', '--role', '5'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({
      method: 'PUT',
      url: `${sb.url}/api/v1/crm/accounts/${accountUid}/memberships/${uid}`,
      body: { IsPrimary: true, ReceiveInvoices: false, Role: 5 },
    });
    expect(await sb.activity()).toHaveLength(before);
    expect((await runBo(argv, { env: testEnv(sb) })).code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`PUT ${planned.url}`]);
    expect(await stored(uid)).toEqual(planned.body);
  });

  it('exits 2 naming the flag, sending nothing: no flag, a bad role, a bad Uid, - in place of the account', async () => {
    const { accountUid, uid } = membership(3);
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[accountUid, uid], /^error: nothing to change: give at least one of --primary/],
      [[accountUid, uid, '--role', 'admin'], /^error: --role must be a whole number/],
      [[accountUid, uid, '--role', '-1'], /^error: --role must be a whole number/],
      [[accountUid, 'm/1', '--primary'], /^error: <membershipUid> must be a Uid/],
      [['a b', uid, '--primary'], /^error: <accountUid> must be a Uid/],
      [['-', uid, '--primary'], /^error: <accountUid> takes one value; - \(read from stdin\) is not accepted here/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['memberships', 'update', ...argv], { env: testEnv(sb), stdin: `${accountUid}\n` });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming both Uids for an unknown membership or account', async () => {
    const { accountUid } = membership(0);
    const r = await runBo(['memberships', 'update', accountUid, 'pa_missing', '--primary'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('error: membership "pa_missing" not found');
    const other = membership(sb.fixtures.memberships.findIndex((m) => m.accountUid !== accountUid));
    const wrongAccount = await runBo(['memberships', 'update', accountUid, other.uid, '--primary'], { env: testEnv(sb) });
    expect(wrongAccount.code).toBe(3);
  });

  it('--help shows a summary and an example', async () => {
    const r = await runBo(['memberships', 'update', '--help']);
    expect(r.stdout).toMatch(/--no-receive-invoices/);
    expect(r.stdout).toMatch(/^  bo memberships update acc_\S+ mem_/m);
  });
});
