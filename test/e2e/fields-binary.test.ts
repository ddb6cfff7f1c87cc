// Field discovery and per-record batch fields on the built binary, as a user's shell
// runs them against the embedded sandbox (test/commands/fields-flag.test.ts and
// test/mutation/record-fields.test.ts check every case in process).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCE_FIELDS } from '../../src/api/resource-fields.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runShell } from '../helpers/run-bin.js';

/** A fresh config folder and embedded sandbox state of its own. */
function freshEnv() {
  const t = tempConfig();
  return { ...t.env, BO_DATA_DIR: join(t.root, 'data') };
}

describe('fields (built binary)', () => {
  it('--fields alone prints the fields and their types, exit 0', async () => {
    const r = await runShell('$BO --sandbox accounts list --fields', { env: freshEnv() });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const names = rows.map(([name]) => name);
    for (const [field] of RESOURCE_FIELDS.Account!) expect(names).toContain(field);
    expect(rows).toContainEqual(['PrimaryContact', 'Person']);
    expect(rows).toContainEqual(['PrimaryContact.Email', 'string']);
  });

  it('an unknown field is still sent, named on stderr with the nearest known one', async () => {
    const r = await runShell('$BO --sandbox accounts list --fields Nmae,Name --limit 1', { env: freshEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: --fields: Account has no known field Nmae (nearest: Name); sent as given');
    expect(r.stdout).toMatch(/^acc_\S+\t/);
  });

  it('JSON Lines records of a batch carry their own fields; an unknown key makes its record invalid', async () => {
    const env = freshEnv();
    const records = [
      '{"Uid":"deal_z9w6mp246","Amount":1200,"DueDate":"2027-01-31"}',
      '{"Uid":"deal_1hgoryug1t","amount":"99.5","weight":7}',
      '{"Uid":"deal_23efw2yqk3","Colour":"red"}',
    ].join('\\n');
    const r = await runShell(`printf '${records}\\n' | $BO --sandbox deals update - --concurrency 1`, { env });
    expect(r.code).toBe(1);
    // One outcome a record, in the order they complete; an ok line's values are those of
    // the deal the sandbox answered with, so what it stored.
    const outcomes = r.stdout.trimEnd().split('\n');
    expect(outcomes).toHaveLength(3);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'deal_z9w6mp246\tok\tAmount=1200;DueDate=2027-01-31T23:59:59.000Z',
        'deal_1hgoryug1t\tok\tAmount=99.5;Weight=7',
        expect.stringMatching(/^deal_23efw2yqk3\tinvalid\tline 3: unknown key "Colour"/),
      ]),
    );
  });
});
