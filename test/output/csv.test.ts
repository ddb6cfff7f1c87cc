// --csv: RFC 4180 with a header row and the table's columns, formula-like text defused
// with a leading ', numbers left alone, nested --fields paths as header and values,
// hostile text neutralised; exit 2 on a command that prints no records and next to
// --json. Lists come from a scripted server (exact values) and from the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { UNSAFE_IN_TEXT, allCases } from './hostile-text.js';

let server: FaultServer;
let sb: TestSandbox;
beforeAll(async () => {
  [server, sb] = await Promise.all([startFaultServer(), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([server.close(), sb.close()]);
});


const account = (Uid: string, Name: unknown, extra: Record<string, unknown> = {}) => ({
  Uid,
  Name,
  AccountStage: 2,
  AccountStageLabel: 'Active',
  Currency: 'USD',
  Created: '2026-01-02T03:04:05Z',
  ...extra,
});
const page = (items: unknown[]) => reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items });

describe('--csv on a list', () => {
  it('quotes commas, quotes, newlines and CR as RFC 4180 says, with a header row of the table columns', async () => {
    server.script(
      page([
        account('acc_1', 'Acme, Inc.'),
        account('acc_2', 'Say "hi"'),
        account('acc_3', 'line one\nline two'),
        account('acc_4', 'carriage\rreturn'),
        account('acc_5', 'Plain'),
      ]),
    );
    const r = await runBo(['accounts', 'list', '--csv'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'Uid,Name,Stage,Currency,Created\r\n' +
        'acc_1,"Acme, Inc.",2 Active,USD,2026-01-02T03:04:05Z\r\n' +
        'acc_2,"Say ""hi""",2 Active,USD,2026-01-02T03:04:05Z\r\n' +
        'acc_3,"line one\nline two",2 Active,USD,2026-01-02T03:04:05Z\r\n' +
        'acc_4,"carriage\rreturn",2 Active,USD,2026-01-02T03:04:05Z\r\n' +
        'acc_5,Plain,2 Active,USD,2026-01-02T03:04:05Z\r\n',
    );
  });

  it("prefixes text starting with = + - @ tab or CR with ', and leaves numbers (negative ones too) alone", async () => {
    const names = ['=HYPERLINK("http://x.example","y")', '+1 555', '-2+3', '@SUM(A1)', '\tTabbed', '\rReturned', 'a=b'];
    server.script(page(names.map((n, i) => account(`acc_${i}`, n, { Balance: -12.5, BalanceText: '-12.5' }))));
    const r = await runBo(['accounts', 'list', '--csv', '--fields', 'Name,Balance,BalanceText'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\r\n');
    expect(rows[0]).toBe('Uid,Name,Balance,BalanceText');
    expect(rows.slice(1, -1)).toEqual([
      `acc_0,"'=HYPERLINK(""http://x.example"",""y"")",-12.5,'-12.5`,
      "acc_1,'+1 555,-12.5,'-12.5",
      "acc_2,'-2+3,-12.5,'-12.5",
      "acc_3,'@SUM(A1),-12.5,'-12.5",
      "acc_4,'\tTabbed,-12.5,'-12.5",
      "acc_5,\"'\rReturned\",-12.5,'-12.5",
      'acc_6,a=b,-12.5,-12.5'.replace(/-12.5$/, "'-12.5"),
    ]);
    // the fields the user asked for went to the server as the API's `fields`
    expect(new URL(server.requests.at(-1)!.url, server.url).searchParams.get('fields')).toBe('Name,Balance,BalanceText');
  });

  it('neutralises escape sequences, controls and bidirectional characters, and defuses what they hid', async () => {
    server.script(page([account('acc_h', '\u001b[31m=cmd|calc\u0007 \u202eevil \u001b]0;pwned\u0007x'), account('acc_b', 'bell\u0007here')]));
    const r = await runBo(['accounts', 'list', '--csv', '--fields', 'Name'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b|pwned/);
    expect(r.stdout.replace(/[\r\n\t]/g, '')).not.toMatch(UNSAFE_IN_TEXT);
    expect(r.stdout).toBe("Uid,Name\r\nacc_h,'=cmd|calc\\u0007 \\u202eevil x\r\nacc_b,bell\\u0007here\r\n");
  });

  it('every hostile character class is neutralised as in a table; tab, LF and CR stay as quoted data', async () => {
    // A tab after each case ends any sequence that would swallow what follows.
    server.script(page(allCases.map((c, i) => account(`acc_${i}`, `v${i}:${c.raw}\t.`))));
    const r = await runBo(['accounts', 'list', '--csv', '--fields', 'Name'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/pwned|\]0;|\[2J|\[31/);
    const kept: Record<string, string> = { '\t': '\t', '\n': '\n', '\r': '\r' };
    const expected = allCases.map((c, i) => {
      const text = `v${i}:${kept[c.raw] ?? c.shown}\t.`;
      return `acc_${i},${/[\r\n]/.test(text) ? `"${text}"` : text}\r\n`;
    });
    expect(r.stdout).toBe(`Uid,Name\r\n${expected.join('')}`);
  });

  it('--fields with nested paths: the paths are the header, their values the cells (sandbox)', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const fields = 'Name,CurrentSubscription.Plan.Name';
    const stored = (await sb.api('GET', `/crm/accounts?q=${uid}&fields=${encodeURIComponent(fields)}`)).body.items[0];
    const planName = stored.CurrentSubscription.Plan.Name as string;
    expect(planName).toBeTruthy();
    const r = await runBo(['accounts', 'list', '--q', uid, '--fields', fields, '--csv'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Uid,Name,CurrentSubscription.Plan.Name\r\n${uid},${stored.Name},${planName}\r\n`);
  });

  it('a list or record left in a cell is written whole as JSON, its hostile characters escaped', async () => {
    const tags = ['vip', 'late, "again"', 'x\u202ey', 'four', 'five'];
    server.script(page([account('acc_1', 'One', { Tags: tags, Owner: { Uid: 'p_1', Name: '=evil' } })]));
    const r = await runBo(['accounts', 'list', '--csv', '--fields', 'Tags,Owner'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u202e');
    const [header, row, end] = r.stdout.split('\r\n');
    expect(header).toBe('Uid,Tags,Owner');
    expect(end).toBe('');
    // RFC 4180 unquoting gives back the JSON, which parses back to the API's values
    const fields = [...row!.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]));
    expect(fields[0]).toBe('acc_1');
    expect(fields[1]).toBe('["vip","late, \\"again\\"","x\\u202ey","four","five"]');
    expect(JSON.parse(fields[1]!)).toEqual(tags);
    expect(JSON.parse(fields[2]!)).toEqual({ Uid: 'p_1', Name: '=evil' });
  });

  it('a list that fails before its first record prints nothing, not a header that looks like an empty list', async () => {
    server.script(reply.json(500, { error: 'server_error', error_description: 'boom' }));
    const r = await runBo(['accounts', 'list', '--csv', '--max-retries', '0'], { env: testEnv(server) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*boom/);
  });

  it('an empty list is the header row alone; a TTY stdout gets CSV too, not a table', async () => {
    server.script(page([]));
    const empty = await runBo(['accounts', 'list', '--csv'], { env: testEnv(server) });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('Uid,Name,Stage,Currency,Created\r\n');
    server.script(page([account('acc_1', 'One')]));
    const tty = await runBo(['accounts', 'list', '--csv'], { env: testEnv(server), stdoutIsTTY: true });
    expect(tty.stdout).toBe('Uid,Name,Stage,Currency,Created\r\nacc_1,One,2 Active,USD,2026-01-02T03:04:05Z\r\n');
  });
});

describe('--csv on one record', () => {
  it('a header row of property paths (nested records flattened) and one row of values', async () => {
    server.script(
      page([{ Uid: 'acc_1', Name: '=1+1', Count: 3, PrimaryContact: { Email: 'a@example.com', Person: { FirstName: 'Ann, B.' } }, Tags: [], Note: null }]),
    );
    const r = await runBo(['accounts', 'get', 'acc_1', '--csv'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Uid,Name,Count,PrimaryContact.Email,PrimaryContact.Person.FirstName,Tags,Note\r\n' + `acc_1,'=1+1,3,a@example.com,"Ann, B.",[],\r\n`,
    );
  });

  it('--fields paths as the header (sandbox)', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const stored = (await sb.api('GET', `/crm/accounts?q=${uid}&fields=Name,CurrentSubscription.Plan.Name`)).body.items[0];
    const r = await runBo(['accounts', 'get', uid, '--fields', 'Name,CurrentSubscription.Plan.Name', '--csv'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Uid,Name,CurrentSubscription.Plan.Name\r\n${uid},${stored.Name},${stored.CurrentSubscription.Plan.Name}\r\n`);
  });
});

describe('--csv refused', () => {
  it('exit 2 on a command that prints no records, and nothing is sent', async () => {
    const before = server.requests.length;
    const r = await runBo(['addons', 'expire', 'sa_1', '--csv'], { env: testEnv(server) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --csv applies to commands that print records (lists and single records); "bo addons expire" prints none\n');
    const api = await runBo(['api', '/crm/accounts', '--csv'], { env: testEnv(server) });
    expect(api.code).toBe(2);
    expect(api.stderr).toMatch(/^error: --csv applies to commands that print records/);
    expect(server.requests.length).toBe(before);
  });

  it('--csv with --json or --jsonl: exit 2 naming both, nothing sent', async () => {
    const before = server.requests.length;
    const r = await runBo(['accounts', 'list', '--csv', '--json'], { env: testEnv(server) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: option '--(json|csv)' cannot be used with option '--(csv|json)'$/);
    expect(r.stderr.split('\n')[0]).toContain("'--csv'");
    expect(r.stderr.split('\n')[0]).toContain("'--json'");
    const l = await runBo(['--jsonl', 'accounts', 'list', '--csv'], { env: testEnv(server) });
    expect(l.code).toBe(2);
    expect(l.stderr.split('\n')[0]).toMatch(/'--jsonl'.*'--csv'|'--csv'.*'--jsonl'/);
    expect(server.requests.length).toBe(before);
  });

  it('--help says what --csv does to formula-like text', async () => {
    const r = await runBo(['--help']);
    expect(r.stdout).toMatch(/--csv\s+CSV on stdout/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain("text starting with = + - @, tab or CR gets a leading ' so spreadsheets do not run it as a formula");
  });
});
