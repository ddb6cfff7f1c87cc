// One output style for every command: sentence-case headers, dates `YYYY-MM-DD HH:MM`
// in local time on a TTY and ISO when piped; --fields headers are the paths as typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Local time five and a half hours off UTC, so a local date cannot pass for the UTC one.
process.env.TZ = 'Asia/Kolkata';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function local(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const headerRow = (stdout: string) => stdout.split('\n')[1]!.split('│').map((h) => h.trim()).filter(Boolean);

describe('one output style', () => {
  it('accounts list: sentence-case headers, local YYYY-MM-DD HH:MM dates on a TTY, ISO piped', async () => {
    const first = (await sb.api('GET', '/crm/accounts?limit=2')).body.items as Array<{ Uid: string; Created: string }>;
    const tty = await runBo(['--no-color', 'accounts', 'list', '--limit', '2'], { env: testEnv(sb), stdoutIsTTY: true });
    // A date column's header names the zone of its dates.
    expect(headerRow(tty.stdout)).toEqual(['Uid', 'Name', 'Stage', 'Currency', 'Created (UTC+05:30)']);
    expect(local(first[0]!.Created)).not.toBe(first[0]!.Created.slice(0, 16).replace('T', ' '));
    for (const a of first) expect(tty.stdout).toMatch(new RegExp(`│ ${a.Uid} .*│ ${local(a.Created)} +│`));
    const piped = await runBo(['accounts', 'list', '--limit', '2'], { env: testEnv(sb) });
    expect(piped.stdout.split('\n')[0]!.split('\t').at(-1)).toBe(first[0]!.Created);
  });

  it('sandbox users and outbox: the same sentence case as every other table', async () => {
    const users = await runBo(['--no-color', '--base-url', sb.url, 'sandbox', 'users'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(users.code).toBe(0);
    expect(headerRow(users.stdout)).toEqual(['Kind', 'Username', 'Password', 'TOTP secret', 'Recovery codes']);
    const email = sb.fixtures.users[0]!.username;
    expect((await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: email }, authorization: null })).status).toBe(200);
    const mails = await sb.outbox();
    const outbox = await runBo(['--no-color', '--base-url', sb.url, 'sandbox', 'outbox'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(outbox.code).toBe(0);
    expect(headerRow(outbox.stdout)).toEqual(['Sent (UTC+05:30)', 'To', 'Subject', 'Code']);
    expect(outbox.stdout).toMatch(new RegExp(`│ ${local(mails.at(-1)!.sentAt)} +│`));
  });

  it('draws the table in ASCII under a locale that is not UTF-8', async () => {
    const r = await runBo(['--no-color', 'accounts', 'list', '--limit', '2'], { env: { ...testEnv(sb), LC_ALL: 'C' }, stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^\+-+\+-+\+/);
    expect(r.stdout.split('\n')[1]).toMatch(/^\| Uid +\| Name +\|/);
    expect(r.stdout).not.toMatch(/[─│┌]/);
  });

  it('--fields headers are the paths as typed, a nested path its own column', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const fields = 'Name,CurrentSubscription.Plan.Name';
    const stored = (await sb.api('GET', `/crm/accounts?q=${uid}&fields=${encodeURIComponent(fields)}`)).body.items[0];
    const planName = stored.CurrentSubscription.Plan.Name as string;
    expect(planName).toBeTruthy();
    const tty = await runBo(['--no-color', 'accounts', 'list', '--q', uid, '--fields', fields], { env: testEnv(sb), stdoutIsTTY: true });
    expect(headerRow(tty.stdout)).toEqual(['Uid', 'Name', 'CurrentSubscription.Plan.Name']);
    expect(tty.stdout).toMatch(new RegExp(`│ ${uid} +│ .* +│ ${planName} +│`));
    const piped = await runBo(['accounts', 'list', '--q', uid, '--fields', fields], { env: testEnv(sb) });
    expect(piped.stdout).toBe(`${uid}\t${stored.Name}\t${planName}\n`);
  });
});
