// What a new user sees on a terminal (120 and 60 columns) and piped, against the
// embedded sandbox (its seed is deterministic): money that reads as money, values a
// user copies never cut, dates that give way before names, one note for an empty page,
// dry runs and hints that name things as the user types them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { runBo } from '../helpers/run-bo.js';
import { runTty } from './tty-run.js';

let root: string;
let env: Record<string, string>;
let fixtures: { users: Array<{ username: string; password: string; totpSecret: string | null }>; subscriptionAddOns: string[] };

beforeAll(async () => {
  // Its own data folder: a sandbox seeded for this file alone.
  root = mkdtempSync(join(tmpdir(), 'bo-new-user-'));
  env = { BO_DATA_DIR: join(root, 'data'), BO_CONFIG_DIR: join(root, 'config') };
  const r = await runBo(['--sandbox', 'sandbox', 'fixtures'], { env });
  expect(r.code, r.stderr).toBe(0);
  fixtures = JSON.parse(r.stdout);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tty = (argv: string[], columns: number, extra: Record<string, string> = {}) =>
  runTty(['--sandbox', '--no-color', ...argv], { env: { ...env, ...extra }, columns });
const lines = (text: string) => text.trimEnd().split('\n');

describe('money', () => {
  it('coupons list: a percentage as "10 %", an amount as "50 off" (coupons carry no currency)', async () => {
    const t = await tty(['coupons', 'list'], 120);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/│ WELCOME10 +│ Welcome 10% +│ 10 % +│/);
    expect(t.stdout).toMatch(/│ GROWTH50 +│ Growth launch \$50 off +│ 50 off +│/);
    const piped = await runBo(['--sandbox', 'coupons', 'list'], { env });
    const discount = Object.fromEntries(lines(piped.stdout).map((l) => l.split('\t')).map((c) => [c[1], c[3]]));
    expect(discount).toMatchObject({ WELCOME10: '10 %', GROWTH50: '50 off' });
  });
});

describe('what a user copies is never cut', () => {
  it('sandbox users at 120 columns shows every TOTP secret, username and password whole', async () => {
    const t = await tty(['sandbox', 'users'], 120);
    expect(t.code, t.stderr).toBe(0);
    for (const line of lines(t.stdout)) expect(displayWidth(line), line).toBeLessThanOrEqual(120);
    const secrets = fixtures.users.map((u) => u.totpSecret).filter((s): s is string => s !== null);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(t.stdout).toContain(` ${secret} `);
    for (const u of fixtures.users) {
      expect(t.stdout).toContain(` ${u.username} `);
      expect(t.stdout).toContain(` ${u.password} `);
    }
  });
});

describe('narrow terminals', () => {
  it('at 60 columns accounts list shows dates without their time before cutting names', async () => {
    const t = await tty(['accounts', 'list', '--limit', '5'], 60);
    expect(t.code, t.stderr).toBe(0);
    const rows = lines(t.stdout);
    for (const line of rows) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    const body = rows.slice(3, -1);
    expect(body).toHaveLength(5);
    // The column keeps the width of its header's zone (`Cr… (UTC+09:00)`).
    for (const row of body) expect(row).toMatch(/│ \d{4}-\d\d-\d\d +│$/);
    expect(rows[1]).toMatch(/│ C\S* \(UTC[+-]\d\d:\d\d\) │$/);
    expect(body.join('\n')).not.toMatch(/\d\d:\d\d/);
    // The room the time gave up goes to the name: `Acme…` keeps more than `Acm…`.
    expect(body[0]).toMatch(/│ Acme/);
  });

  it('at 120 columns the same list keeps date and time', async () => {
    const t = await tty(['accounts', 'list', '--limit', '5'], 120);
    for (const row of lines(t.stdout).slice(3, -1)) expect(row).toMatch(/│ \d{4}-\d\d-\d\d \d\d:\d\d +│$/);
  });
});

describe('small things', () => {
  it('an empty --page on a terminal says why, once', async () => {
    const t = await tty(['accounts', 'list', '--page', '9'], 120);
    expect(t).toMatchObject({ code: 0, stdout: '' });
    expect(t.stderr).toMatch(/^page 9 is empty: there are 60 records \(page 0 only with --page-size 100\)\n$/m);
    expect(t.stderr).not.toContain('No records.');
    // A list that is simply empty still says so.
    const none = await tty(['accounts', 'list', '--q', 'no-such-account-anywhere'], 120);
    expect(none.stderr).toContain('No records.');
  });

  it('a dry run on the embedded sandbox names it as confirmations do', async () => {
    const r = await runBo(['--sandbox', 'addons', 'expire', fixtures.subscriptionAddOns[0]!, '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Dry run on profile "sandbox" (the embedded sandbox): nothing was sent.');
    expect(r.stderr).not.toContain('127.0.0.1');
    const api = await runBo(['--sandbox', 'api', '-X', 'DELETE', `/email/campaigns/drips/drip_nope`, '--dry-run'], { env });
    expect(api.stderr).toContain('(the embedded sandbox): nothing was sent.');
  });

  it.each([['version'], ['-v'], ['-V']])('bo %s points to bo --version (exit 2)', async (word) => {
    const r = await runBo([word], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(did you mean bo --version?)');
  });

  it('errors start in lower case and hints write commands bare, in one style', async () => {
    const who = await runBo(['--sandbox', 'login', '--no-input', '--insecure-storage'], { env });
    expect(who.code).toBe(4);
    expect(who.stderr).toMatch(/^error: who is signing in\? /m);
    const noUrl = await runBo(['accounts', 'list'], { env });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('hint: pass --base-url https://<tenant>, run bo config set base-url <url>, or try bo --sandbox …\n');
    for (const r of [who, noUrl]) {
      expect(r.stderr).not.toContain('`');
      expect(r.stderr).not.toMatch(/^(error|hint): [A-Z][a-z]/m);
    }
  });
});

describe('one record view for every get', () => {
  it('accounts get on a terminal: nested objects as indented rows, lists counted, empty values left out', async () => {
    const uid = 'acc_lvsegbmzg';
    const t = await tty(['accounts', 'get', uid], 120);
    expect(t.code, t.stderr).toBe(0);
    const rows = lines(t.stdout).map((l) => l.replace(/^│ | │$/g, '').split(' │ ').map((c) => c.trimEnd()));
    const after = (key: string) => rows.slice(rows.findIndex((r) => r[0] === key));
    // The address as sub-rows, not a JSON blob.
    expect(after('BillingAddress').slice(0, 3)).toEqual([['BillingAddress', ''], ['  AddressLine1', '218 Market Street'], ['  City', 'Berlin']]);
    expect(t.stdout).not.toContain('{"');
    // A list: its count, then an indented row per item.
    expect(after('PersonAccount').slice(0, 2)).toEqual([['PersonAccount', '4 items'], ['  1', 'mem_noq5bd38l']]);
    // A nested record by its name and Uid.
    expect(rows).toContainEqual(['PrimaryContact', expect.stringMatching(/^\S.* \(per_\w+\)$/)]);
    // Empty values and the API's _objectType are left out.
    for (const key of ['ActivityEventData', 'MailingAddress', 'InvoiceNotes', '_objectType']) expect(rows.map((r) => r[0])).not.toContain(key);
    // Piped, the record stays one `Key<TAB>Value` line per property, as before.
    const piped = await runBo(['--sandbox', 'accounts', 'get', uid], { env });
    expect(piped.stdout).toContain('BillingAddress\t{"AddressLine1":"218 Market Street"');
    expect(piped.stdout).toMatch(/^ActivityEventData\t$/m);
  });

  it('at 30 columns the record view cuts names, never a Uid', async () => {
    const t = await tty(['accounts', 'get', 'acc_lvsegbmzg'], 30);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/│ acc_lvsegbmzg +│/);
    expect(t.stdout).toMatch(/│ mem_noq5bd38l +│/);
    expect(t.stdout).toContain('…');
  });

  it('broadcasts get uses the same view: empty fields left out, a list of values on its row', async () => {
    const t = await tty(['broadcasts', 'get', 'bcast_lbhuomyvex'], 120);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/│ Lists +│ list_hrald2nybc +│\n/);
    expect(t.stdout).not.toMatch(/│ (Send at|Next run|Segments|Template) /);
  });

  it('a list of records inside a record shows each by the record it holds (DealPeople)', async () => {
    const { startFaultServer, reply } = await import('../helpers/fault-server.js');
    const { testEnv } = await import('../helpers/test-env.js');
    const server = await startFaultServer();
    try {
      const account = {
        Uid: 'acc_x1', Name: 'Initech', ActivityEventData: {}, MailingAddress: null,
        Deals: [{ Uid: 'deal_x1', Name: 'Renewal', DealPeople: [{ Person: { Uid: 'per_x1', FullName: 'Ada Lovelace' }, Deal: {} }] }],
        DealPeople: [{ Person: { Uid: 'per_x1', FullName: 'Ada Lovelace' }, Deal: {} }, { Person: { Uid: 'per_x2', FullName: 'Alan Turing' }, Deal: {} }],
      };
      server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: 1 }, items: [account] }));
      const t = await runTty(['--no-color', 'accounts', 'get', 'acc_x1'], { env: testEnv(server.url), columns: 120 });
      expect(t.code, t.stderr).toBe(0);
      expect(t.stdout).toMatch(/│ DealPeople +│ 2 items +│\n│ {3}1 +│ Ada Lovelace \(per_x1\) +│\n│ {3}2 +│ Alan Turing \(per_x2\) +│/);
      expect(t.stdout).toMatch(/│ {3}1 +│ Renewal \(deal_x1\) +│/);
      expect(t.stdout).not.toContain('{"Person"');
    } finally {
      await server.close();
    }
  });
});
