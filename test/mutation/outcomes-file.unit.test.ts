// The outcomes file (outcomes-file.ts): one row per input row in input order whatever
// order the outcomes come in, written as soon as the rows before it are; the input's
// cells as read (no formula guard: `=1+1`, `-5` stay), bo's columns guarded; an earlier
// file's bo_ columns replaced; a secret field's cell as `***`; rows never settled are
// `not attempted`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FedRecord, RecordFeed } from '../../src/mutation/feed.js';
import { field } from '../../src/mutation/field.js';
import { outcomesFile } from '../../src/mutation/outcomes-file.js';
import type { Sheet } from '../../src/mutation/sheet.js';

const SHEET: Sheet = { separator: ';', columns: ['Uid', 'Amount', 'Token', 'bo_outcome'], bom: true };
const FIELDS = [field.number('--amount <n>', 'Amount', 'amount'), field.text('--token <t>', 'Token', 'a secret', { secret: true })];

function feedOf(records: FedRecord[]): RecordFeed {
  let i = 0;
  return { complete: false, sheet: SHEET, close() {}, next: async () => records[i++] };
}

const ok = (line: number, uid: string) => ({ uid, line, ok: true, status: 200, changed: true, reason: null, error: null }) as const;

describe('--outcomes', () => {
  it('rows in input order as their outcomes allow, the cells as read, bo columns guarded, a secret as ***, the rest not attempted', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bo-outcomes-')), 'out.csv');
    const records: FedRecord[] = [
      { line: 2, target: 'deal_1', record: { Amount: '-5' }, cells: ['deal_1', '-5', 'tok_secret', 'failed'] },
      { line: 3, target: 'deal_2', record: { Amount: '=1+1' }, cells: ['deal_2', '=1+1', '', 'failed'] },
      { line: 4, target: 'deal_3', record: {}, cells: ['deal_3', '7', '', ''] },
    ];
    const { feed, file } = outcomesFile(path, feedOf(records), FIELDS);
    for (let r = await feed.next(); r; r = await feed.next());
    file.reported({ uid: 'deal_2', line: 3, ok: false, status: 400, changed: false, reason: 'refused', error: { code: 'bad', message: '=HYPERLINK("x")' } });
    // Row 2 has no outcome yet: nothing past the header is written.
    expect(readFileSync(path, 'utf8')).toBe('\ufeffUid;Amount;Token;bo_row;bo_outcome;bo_code;bo_message\r\n');
    file.reported(ok(2, 'deal_1'));
    file.end();
    expect(readFileSync(path, 'utf8').split('\r\n')).toEqual([
      '\ufeffUid;Amount;Token;bo_row;bo_outcome;bo_code;bo_message',
      'deal_1;-5;***;2;done;;',
      `deal_2;=1+1;;3;failed;400;"'=HYPERLINK(""x"")"`,
      'deal_3;7;;4;not attempted;;the batch stopped before sending it',
      '',
    ]);
  });

  it('a folder that does not exist is exit 2 naming --outcomes', () => {
    expect(() => outcomesFile('/nonexistent-dir/out.csv', feedOf([]), FIELDS)).toThrow(/--outcomes "\/nonexistent-dir\/out.csv": no such folder; nothing was sent/);
  });
});
