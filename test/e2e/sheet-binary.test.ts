// Edits from a spreadsheet on the built binary against `bo sandbox serve`: a CSV as Excel
// writes it (`;`, BOM, CRLF, quoted cells holding `;`) updates deals; --outcomes writes
// one row per input row in input order, the input's cells as read (`-5`, `=1+1`), and fed
// back with --only failed sends only those rows (the sandbox's activity log counts the
// requests); an unknown column is exit 2 with nothing sent; a sheet batch killed part-way
// and resumed sends nothing twice, and its outcomes file ends whole.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, runShell } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { sandboxForSuite } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');
const BOM = '\ufeff';

interface Activity {
  method: string;
  path: string;
  status: number;
}

interface Deal {
  Uid: string;
  Name: string;
  Amount: number | null;
  DueDate: string | null;
}

/** A file of `rows` as Excel writes a `;` CSV: BOM, CRLF. */
function excel(rows: string[][]): string {
  const cell = (c: string) => (/[;"\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return `${BOM}${rows.map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`;
}

/** The rows of an outcomes file (`;`, BOM, CRLF), its cells unquoted. */
function outcomeRows(text: string): string[][] {
  expect(text.startsWith(BOM)).toBe(true);
  const rows: string[][] = [];
  for (const line of text.slice(1).split('\r\n').filter(Boolean)) {
    const cells: string[] = [];
    const re = /("((?:[^"]|"")*)"|[^;]*)(;|$)/g;
    for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
      cells.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : m[1]!);
      if (m[3] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

describe('edits from a spreadsheet, on the built binary', () => {
  const suite = sandboxForSuite<{ deals: string[]; apiKey: { key: string; secret: string } }>(root);
  const { get } = suite;
  const activity = () => get<Activity[]>('/__sandbox/activity');
  const puts = async () => (await activity()).filter((a) => a.method === 'PUT' && a.path.includes('/crm/deals/'));
  const deal = (uid: string) => get<Deal>(`/__sandbox/records/Deal/${uid}`);
  const dir = () => mkdtempSync(join(tmpdir(), 'bo-sheet-'));

  it("Excel's CSV updates deals; the outcomes file has a row per input row in order, as read; --only failed sends only the failures", async () => {
    const env = testEnv(suite);
    const [d1, d2, d3] = suite.fixtures.deals;
    const sheet = excel([
      ['Uid', 'Name', 'Amount', 'DueDate', 'Account', 'bo_row'],
      [d1!, 'Pilot; phase 2', '1200', '2027-03-01', 'acc_x', ''],
      [d2!, '=1+1', '-5', '', '', ''],
      ['deal_missing1', '', '7', '', '', ''],
      [d3!, '', 'twelve', '', '', ''],
    ]);
    const folder = dir();
    writeFileSync(join(folder, 'in.csv'), sheet);
    const r = await runShell(`cd ${folder} && $BO deals update - --outcomes out.csv --concurrency 4 < in.csv`, { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('column(s) Account of the input: not changed by this command, ignored');
    expect(r.stderr).toMatch(/^2 updated, 1 not found, 1 invalid on /m);
    expect(await deal(d1!)).toMatchObject({ Name: 'Pilot; phase 2', Amount: 1200, DueDate: '2027-03-01T23:59:59.000Z' });
    expect(await deal(d2!)).toMatchObject({ Name: '=1+1', Amount: -5 });

    const rows = outcomeRows(readFileSync(join(folder, 'out.csv'), 'utf8'));
    expect(rows[0]).toEqual(['Uid', 'Name', 'Amount', 'DueDate', 'Account', 'bo_row', 'bo_outcome', 'bo_code', 'bo_message']);
    expect(rows.slice(1).map((row) => row.slice(0, 7))).toEqual([
      [d1, 'Pilot; phase 2', '1200', '2027-03-01', 'acc_x', '2', 'done'],
      [d2, '=1+1', '-5', '', '', '3', 'done'],
      ['deal_missing1', '', '7', '', '', '4', 'failed'],
      [d3, '', 'twelve', '', '', '5', 'invalid'],
    ]);
    expect(rows[3]!.slice(7)).toEqual(['404', 'not found']);
    expect(rows[4]![8]).toContain('Amount must be a decimal number');

    // Fed back: only the failed row is sent.
    const before = (await puts()).length;
    const again = await runShell(`cd ${folder} && $BO deals update - --only failed < out.csv`, { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^0 updated, 1 not found on /m);
    const sent = (await puts()).slice(before);
    expect(sent.map((a) => a.path)).toEqual(['/api/v1/crm/deals/deal_missing1']);
  });

  it("bo deals list --all --csv (Excel's `;`, BOM) round-trips: every deal with its account, and the file edited is bo deals update's input", async () => {
    const env = testEnv(suite);
    const folder = dir();
    const listed = await runShell(`cd ${folder} && $BO deals list --all --csv --csv-separator ';' --bom > deals.csv`, { env });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = outcomeRows(readFileSync(join(folder, 'deals.csv'), 'utf8'));
    expect(rows[0]).toEqual(['Uid', 'Name', 'Amount', 'DueDate', 'Stage', 'Account', 'AccountName']);
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual([...suite.fixtures.deals].sort());
    const json = JSON.parse((await runBin(['deals', 'list', '--account', rows[1]![5]!, '--json'], { env })).stdout) as Array<{ Uid: string; Account: string }>;
    expect(json.map((d) => d.Account)).toEqual(json.map(() => rows[1]![5]));
    expect(json.map((d) => d.Uid)).toContain(rows[1]![0]);

    // Edited as Excel would: one amount changed, a name with a `;`; the rest as exported.
    const edited = rows.map((r, i) => (i === 1 ? [r[0]!, 'Renewal; 2027', '4321', ...r.slice(3)] : r));
    writeFileSync(join(folder, 'deals.csv'), excel(edited));
    const before = (await puts()).length;
    const r = await runShell(`cd ${folder} && $BO deals update - < deals.csv`, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('column(s) Account, AccountName of the input: not changed by this command, ignored');
    expect((await puts()).length - before).toBe(suite.fixtures.deals.length);
    expect(await deal(rows[1]![0]!)).toMatchObject({ Name: 'Renewal; 2027', Amount: 4321 });
  });

  it('--dry-run --diff shows old → new and sends nothing; a real --diff run sends only the rows that change, the others skipped', async () => {
    const env = testEnv(suite);
    const folder = dir();
    const listed = await runShell(`cd ${folder} && $BO deals list --limit 3 --csv --csv-separator ';' --bom > deals.csv`, { env });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = outcomeRows(readFileSync(join(folder, 'deals.csv'), 'utf8'));
    const [changed, same1, same2] = [rows[1]!, rows[2]!, rows[3]!];
    const old = await deal(changed[0]!);
    // One amount edited; a row without its Account cannot be read, and says so.
    const edited = [rows[0]!, [changed[0]!, changed[1]!, '4242', ...changed.slice(3)], same1, same2, [same2[0]!, '', '7', '', '', '', '']];
    writeFileSync(join(folder, 'deals.csv'), excel(edited));
    const before = (await puts()).length;

    const dry = await runShell(`cd ${folder} && $BO deals update - --dry-run --diff < deals.csv`, { env: { ...env, LANG: 'C.UTF-8' } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      `${changed[0]} (line 2)\n  Amount: ${old.Amount} → 4242\n` +
        `${same1[0]} (line 3): already holds; not sent\n${same2[0]} (line 4): already holds; not sent\n` +
        `${same2[0]} (line 5): a deal can be read only inside its account: give an Account column (as bo deals list writes it)\n` +
        `PUT ${suite.url}/api/v1/crm/deals/${same2[0]}\t{"Amount":7}\n`,
    );
    expect(dry.stderr).toContain('2 request(s) would be sent, 2 already held (not sent); nothing was sent.');
    expect((await puts()).length).toBe(before);

    const real = await runShell(`cd ${folder} && $BO deals update - --diff --concurrency 1 --outcomes out.csv < deals.csv`, { env });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toMatch(/^2 updated, 2 already held on /m);
    expect((await puts()).slice(before).map((a) => a.path)).toEqual([`/api/v1/crm/deals/${changed[0]}`, `/api/v1/crm/deals/${same2[0]}`]);
    expect((await deal(changed[0]!)).Amount).toBe(4242);
    // The journal and bo history count the rows not sent apart.
    const [run] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(run).toMatchObject({ done: 2, skipped: 2, failed: 0, state: 'finished' });
    const out = outcomeRows(readFileSync(join(folder, 'out.csv'), 'utf8'));
    expect(out.slice(1).map((r) => [r[0], r[8], r[9]])).toEqual([
      [changed[0], 'done', ''],
      [same1[0], 'skipped', 'already-holds'],
      [same2[0], 'skipped', 'already-holds'],
      [same2[0], 'done', ''],
    ]);

    // A sheet whose every row already holds sends nothing, and is still a run of the journal.
    // (same2's Amount was set by its row without an Account; the edited row's 4242 now holds.)
    writeFileSync(join(folder, 'held.csv'), excel([rows[0]!, same1, edited[1]!]));
    const sent = (await puts()).length;
    const held = await runShell(`cd ${folder} && $BO deals update - --diff < held.csv`, { env });
    expect(held.code, held.stderr).toBe(0);
    expect(held.stderr).toMatch(/^2 already held on /m);
    expect((await puts()).length).toBe(sent);
    const [heldRun] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(heldRun).toMatchObject({ done: 0, skipped: 2, failed: 0, state: 'finished' });
  });

  it('--diff on one target: the read before the change, and nothing sent when its values already hold; a verb that cannot read says so', async () => {
    const env = testEnv(suite);
    const writes = async () => (await activity()).filter((a) => a.method !== 'GET').length;
    const before = await writes();
    const dry = await runBin(['memberships', 'update', 'acc_lvsegbmzg', 'mem_pjidm41zb', '--primary', '--role', '2', '--diff', '--dry-run'], { env: { ...env, LANG: 'C.UTF-8' } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe('acc_lvsegbmzg\n  IsPrimary: false → true\n');
    const held = await runBin(['memberships', 'update', 'acc_lvsegbmzg', 'mem_pjidm41zb', '--no-primary', '--role', '2', '--diff'], { env });
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toBe('mem_pjidm41zb\tok\talready held\n');
    expect(held.stderr).toBe('acc_lvsegbmzg: already holds; not sent\n');
    expect(await writes()).toBe(before);
    const addon = await runBin(['addons', 'expire', 'subaddon_x1', '--diff', '--dry-run'], { env });
    expect(addon.stderr).toContain('--diff: a subscription add-on cannot be read before a change, so the requests are shown instead');
  });

  it('an unknown column is exit 2 naming it and the nearest field, and nothing is sent; --dry-run sends nothing', async () => {
    const env = testEnv(suite);
    const [d1] = suite.fixtures.deals;
    const before = (await puts()).length;
    const bad = await runBin(['deals', 'update', '-'], { env, stdin: excel([['Uid', 'Amout'], [d1!, '5']]) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/column "Amout" is not a field of this command \(did you mean Amount/);
    const dry = await runBin(['deals', 'update', '-', '--dry-run'], { env, stdin: excel([['Uid', 'amount'], [d1!, '5']]) });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(`PUT ${suite.url}/api/v1/crm/deals/${d1}\t{"Amount":5}\n`);
    expect((await puts()).length).toBe(before);
  });

  it('a sheet batch killed part-way and resumed sends nothing twice; its outcomes file ends with every row', async () => {
    const env = testEnv(suite);
    const deals = suite.fixtures.deals;
    const folder = dir();
    writeFileSync(join(folder, 'in.csv'), excel([['Uid', 'Weight'], ...deals.map((uid, i) => [uid, String(i)])]));
    let lines = 0;
    const killed = await runShell(`cd ${folder} && exec $BO deals update - --concurrency 1 --outcomes out.csv < in.csv`, {
      env,
      onSpawn: (child) =>
        child.stdout!.on('data', (d: Buffer) => {
          lines += d.toString().split('\n').length - 1;
          if (lines >= 5) child.kill('SIGKILL');
        }),
    });
    expect(killed.signal).toBe('SIGKILL');
    const partial = outcomeRows(readFileSync(join(folder, 'out.csv'), 'utf8'));
    expect(partial.length).toBeLessThan(deals.length + 1);
    const first = new Map<string, number>();
    for (const a of await puts()) first.set(a.path, (first.get(a.path) ?? 0) + 1);

    const resumed = await runShell(`cd ${folder} && $BO batch resume last`, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const counts = new Map<string, number>();
    for (const a of await puts()) counts.set(a.path, (counts.get(a.path) ?? 0) + 1);
    // Each deal sent; again only the one in flight when the run died (--concurrency 1), whose outcome was never known.
    const twice = deals.filter((uid) => counts.get(`/api/v1/crm/deals/${uid}`) !== 1);
    for (const uid of deals) expect(counts.get(`/api/v1/crm/deals/${uid}`), uid).toBeGreaterThanOrEqual(1);
    expect(twice.length).toBeLessThanOrEqual(1);
    for (const uid of twice) expect(first.get(`/api/v1/crm/deals/${uid}`)).toBe(1);
    const rows = outcomeRows(readFileSync(join(folder, 'out.csv'), 'utf8'));
    expect(rows.slice(1).map((row) => [row[0], row[2], row[3]])).toEqual(deals.map((uid, i) => [uid, String(i + 2), 'done']));
    for (const [i, uid] of deals.entries()) expect((await deal(uid)) as unknown as { Weight: number }).toMatchObject({ Weight: i });
  });
});
