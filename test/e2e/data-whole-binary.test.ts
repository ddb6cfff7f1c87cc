// Data shown whole, on the built binary as a user's shell runs it: a --fields path
// through a list shows every item (piped and CSV as a JSON array, on a terminal joined
// with ", "); piped rows never cut a list; a field the user asked for shows even when
// empty; a terminal's date-times say their zone. Piped runs are plain pipes; terminal
// runs are a real pty (util-linux `script`), its width set with stty, against the
// embedded sandbox or a scripted fault server.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { runShell } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';

/** A server that answers as scripted: values the sandbox does not hold. */
const server = useFaultServer();

const ACME = 'acc_lvsegbmzg';
const ADDONS = 'CurrentSubscription.SubscriptionAddOns';

/** A fresh config folder and embedded sandbox state of its own; answers in Tokyo time. */
function freshEnv(extra: Record<string, string> = {}) {
  const t = tempConfig();
  return { ...t.env, BO_DATA_DIR: join(t.root, 'data'), TZ: 'Asia/Tokyo', LANG: 'C.UTF-8', ...extra };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `bo <args>` piped: stdout a pipe, as `bo … | cat` makes it. */
async function piped(args: string, env: Record<string, string>) {
  const r = await runShell(`$BO ${args}`, { env });
  // Only what bo says of every such run: where the sandbox is, a field the reference does not list, a list cut by --limit.
  expect(r.stderr.replace(/^(Using the embedded sandbox|warning: --fields|showing \d+ of).*\n/gm, ''), r.stderr).toBe('');
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * `bo <args>` on a terminal `cols` wide (stdout and stderr the pty, no pager, no
 * colour): what the screen shows, line ends as `\n`.
 */
async function onTerminal(args: string, env: Record<string, string>, cols = 200) {
  const inner = `stty cols ${cols} rows 50; $BO --no-color ${args}; echo "EXIT=$?"`;
  const r = await runShell(`script -qec ${quote(inner)} /dev/null`, { env: { BO_PAGER: 'cat', TERM: 'xterm', ...env } });
  expect(r.code, r.stderr).toBe(0);
  const screen = r.stdout.replace(/\r\n/g, '\n');
  expect(screen).toMatch(/EXIT=0\n$/);
  return screen.replace(/^Using the embedded sandbox.*\n/m, '').replace(/EXIT=0\n$/, '');
}

/** The account as --json shows it (the API's record, unchanged): what every other output must agree with. */
async function accountJson(fields: string, env: Record<string, string>) {
  return JSON.parse(await piped(`--sandbox accounts get ${ACME} --json --fields ${fields}`, env)) as {
    CurrentSubscription: { SubscriptionAddOns: Array<{ Uid: string; AddOn: { Name: string } }> };
    PersonAccount: Array<{ Uid: string; Role: number }>;
  };
}

describe('a --fields path through a list shows every item (item 10)', () => {
  const fields = `${ADDONS}.Uid,${ADDONS}.AddOn.Name,PersonAccount.Role`;

  it('piped and CSV: a compact JSON array of the values, in every output mode', async () => {
    const env = freshEnv();
    const account = await accountJson(fields, env);
    const addOns = account.CurrentSubscription.SubscriptionAddOns;
    expect(addOns.length).toBe(2);
    expect(account.PersonAccount.length).toBe(4);
    const uids = JSON.stringify(addOns.map((a) => a.Uid));
    const names = JSON.stringify(addOns.map((a) => a.AddOn.Name));
    const roles = JSON.stringify(account.PersonAccount.map((m) => m.Role));

    expect(await piped(`--sandbox accounts get ${ACME} --fields ${fields}`, env)).toBe(
      `Uid\t${ACME}\n${ADDONS}.Uid\t${uids}\n${ADDONS}.AddOn.Name\t${names}\nPersonAccount.Role\t${roles}\n`,
    );
    const csv = (text: string) => `"${text.replace(/"/g, '""')}"`;
    expect(await piped(`--sandbox --csv accounts get ${ACME} --fields ${fields}`, env)).toBe(
      `Uid,${ADDONS}.Uid,${ADDONS}.AddOn.Name,PersonAccount.Role\r\n${ACME},${csv(uids)},${csv(names)},${csv(roles)}\r\n`,
    );
    // A list: the same cells, one row a record.
    const rows = (await piped(`--sandbox accounts list --q acme --fields Name,${fields}`, env)).trimEnd().split('\n');
    expect(rows).toContain(`${ACME}\tAcme Inc\t${uids}\t${names}\t${roles}`);
  });

  it('on a terminal: every value joined with ", ", in the record view and in a table', async () => {
    const env = freshEnv();
    const account = await accountJson(fields, env);
    const uids = account.CurrentSubscription.SubscriptionAddOns.map((a) => a.Uid).join(', ');
    const names = account.CurrentSubscription.SubscriptionAddOns.map((a) => a.AddOn.Name).join(', ');
    const roles = account.PersonAccount.map((m) => m.Role).join(', ');
    const view = await onTerminal(`--sandbox accounts get ${ACME} --fields ${fields}`, env);
    expect(view).toMatch(new RegExp(`│ ${ADDONS}\\.Uid +│ ${uids} +│\n`));
    expect(view).toMatch(new RegExp(`│ ${ADDONS}\\.AddOn\\.Name +│ ${names} +│\n`));
    expect(view).toMatch(new RegExp(`│ PersonAccount\\.Role +│ ${roles} +│\n`));
    const table = await onTerminal(`--sandbox accounts list --q acme --fields Name,${fields}`, env);
    expect(table).toMatch(new RegExp(`│ ${ACME} +│ Acme Inc +│ ${uids} +│ ${names} +│ ${roles} +│\n`));
  });

  describe('against a server whose values hold the separators', () => {
    const account = {
      Uid: 'acc_1',
      Name: 'Comma Co',
      CurrentSubscription: {
        Uid: 'sub_1',
        SubscriptionAddOns: [
          { Uid: 'sa_1', AddOn: { Uid: 'ao_1', Name: 'Seats, extra' } },
          { Uid: 'sa_2', AddOn: { Uid: 'ao_2', Name: 'Support\tpriority' } },
          { Uid: 'sa_3', AddOn: null },
        ],
      },
    };
    const page = reply.json(200, { metadata: { limit: 100, offset: 0, total: 1 }, items: [account] });

    it('a value holding ", " or a tab survives in a piped row; an item without the field is null', async () => {
      server().script(page);
      const r = await runShell(`$BO accounts list --fields Name,${ADDONS}.AddOn.Name | cat`, { env: testEnv(server()) });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toBe('acc_1\tComma Co\t["Seats, extra","Support\\tpriority",null]\n');
      expect(JSON.parse(r.stdout.trimEnd().split('\t')[2]!)).toEqual(['Seats, extra', 'Support\tpriority', null]);
    });
  });
});

describe('piped rows never cut a list (item 11)', () => {
  it('accounts list --fields Name,PersonAccount | cat carries every membership', async () => {
    const env = freshEnv();
    const members = (await accountJson('PersonAccount', env)).PersonAccount.map((m) => m.Uid);
    expect(members.length).toBe(4);
    const out = await piped('--sandbox accounts list --q acme --fields Name,PersonAccount | cat', env);
    const row = out.split('\n').find((line) => line.startsWith(`${ACME}\t`));
    expect(row).toBe(`${ACME}\tAcme Inc\t${JSON.stringify(members)}`);
    expect(out).not.toContain('more');
  });

  it('only a terminal table shortens a list, and says how many items it left out', async () => {
    const env = freshEnv();
    const members = (await accountJson('PersonAccount', env)).PersonAccount.map((m) => m.Uid);
    const table = await onTerminal('--sandbox accounts list --q acme --fields Name,PersonAccount', env, 60);
    const row = table.split('\n').find((line) => line.includes(ACME))!;
    const cut = /│ ((?:mem_\w+, )*)\S+, \+(\d+) more +│$/.exec(row);
    expect(cut, table).not.toBeNull();
    const shown = cut![1]!.split(', ').filter(Boolean);
    expect(shown).toEqual(members.slice(0, shown.length));
    expect(shown.length + 1 + Number(cut![2])).toBe(members.length);
  });
});

describe('a requested field that is empty still shows (item 12)', () => {
  it('on a terminal as —, in the record view and in a table', async () => {
    const env = freshEnv();
    const view = await onTerminal(`--sandbox accounts get ${ACME} --fields Name,InvoiceNotes,MailingAddress`, env);
    expect(view).toMatch(/│ Name +│ Acme Inc +│\n│ InvoiceNotes +│ — +│\n│ MailingAddress +│ — +│\n/);
    const table = await onTerminal('--sandbox accounts list --q acme --fields Name,InvoiceNotes', env);
    expect(table).toMatch(new RegExp(`│ ${ACME} +│ Acme Inc +│ — +│\n`));
    // Piped: the empty cells as before.
    expect(await piped(`--sandbox accounts get ${ACME} --fields Name,InvoiceNotes,MailingAddress`, env)).toBe(
      `Uid\t${ACME}\nName\tAcme Inc\nInvoiceNotes\t\nMailingAddress\t\n`,
    );
  });

  it('as - under LANG=C', async () => {
    const view = await onTerminal(`--sandbox accounts get ${ACME} --fields Name,InvoiceNotes`, freshEnv({ LANG: 'C' }));
    expect(view).toMatch(/\| InvoiceNotes +\| - +\|\n/);
  });
});

describe('date-times on a terminal name their zone (item 14)', () => {
  it('extend-trial in Tokyo: the ✔ line, the record view and the list all say UTC+09:00; piped stays ISO', async () => {
    const env = freshEnv();
    const trial = 'acc_107m14dk7l';
    const done = await onTerminal(`--sandbox accounts extend-trial ${trial} --to 2031-01-15`, env);
    // 2031-01-15T23:59:59Z is the 16th in Tokyo.
    expect(done).toBe(`✔ Account ${trial}: ToDate=2031-01-16 08:59:59 (UTC+09:00)\n`);
    const view = await onTerminal(`--sandbox accounts get ${trial} --fields CurrentSubscription.EndDate`, env);
    expect(view).toMatch(/│ CurrentSubscription\.EndDate +│ 2031-01-16 08:59 \(UTC\+09:00\) +│\n/);
    expect(await piped(`--sandbox accounts get ${trial} --fields CurrentSubscription.EndDate`, env)).toContain(
      'CurrentSubscription.EndDate\t2031-01-15T23:59:59.000Z\n',
    );

    const records = JSON.parse(await piped('--sandbox accounts list --limit 3 --json', env)) as Array<{ Uid: string; Created: string }>;
    const table = await onTerminal('--sandbox accounts list --limit 3', env);
    expect(table).toMatch(/│ Created \(UTC\+09:00\) │\n/);
    for (const a of records) {
      // Tokyo has no daylight-saving time: UTC plus nine hours, every row without a suffix of its own.
      const tokyo = new Date(Date.parse(a.Created) + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
      expect(table).toMatch(new RegExp(`│ ${a.Uid} .*│ ${tokyo} +│\n`));
    }
    const rows = (await piped('--sandbox accounts list --limit 3', env)).trimEnd().split('\n');
    expect(rows.map((row) => row.split('\t').at(-1))).toEqual(records.map((a) => a.Created));
  });

  it("a server's note quoting an instant shows it in local time, with the zone", async () => {
    const env = freshEnv();
    const addOn = 'subaddon_xr1vbf95k';
    await onTerminal(`--sandbox addons expire ${addOn} --yes`, env);
    const again = await onTerminal(`--sandbox addons expire ${addOn} --yes`, env);
    expect(again).toMatch(/^✔ Subscription add-on subaddon_xr1vbf95k already ended\nAdd-on already ended at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? \(UTC\+09:00\)\n$/);
    // The same note on a pipe: the API's text unchanged.
    const r = await runShell(`$BO --sandbox addons expire ${addOn} --yes`, { env });
    expect(r.stderr).toMatch(/^Add-on already ended at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m);
  });

  describe('rows on both sides of a daylight-saving change', () => {
    it('the header names the offset of the first date; a date in another offset carries its own', async () => {
      const items = [
        { Uid: 'acc_w', Name: 'Winter', AccountStage: 3, AccountStageLabel: 'Subscribing', Currency: 'EUR', Created: '2026-01-15T12:00:00.000Z' },
        { Uid: 'acc_s', Name: 'Summer', AccountStage: 3, AccountStageLabel: 'Subscribing', Currency: 'EUR', Created: '2026-07-15T12:00:00.000Z' },
      ];
      server().script(reply.json(200, { metadata: { limit: 100, offset: 0, total: 2 }, items }));
      const table = await onTerminal('accounts list', testEnv(server(), { TZ: 'Europe/Berlin', LANG: 'C.UTF-8' }));
      expect(table).toMatch(/│ Created \(UTC\+01:00\) +│\n/);
      expect(table).toMatch(/│ acc_w .*│ 2026-01-15 13:00 +│\n/);
      expect(table).toMatch(/│ acc_s .*│ 2026-07-15 14:00 \(UTC\+02:00\) │\n/);
    });
  });
});
