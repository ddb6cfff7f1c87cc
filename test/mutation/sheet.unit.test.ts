// A sheet as batch input (sheet.ts, records.ts): a CSV or TSV whose header row names the
// columns becomes records keyed by column, whatever the reads of stdin cut; Excel's `;`,
// BOM, CRLF and quoted cells (a `;` or a line break inside) read as Excel wrote them;
// an unknown column refuses the whole input; --only passes over the other rows.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUid } from '../../src/input/validate.js';
import { field } from '../../src/mutation/field.js';
import { readRecords, type BatchRecord } from '../../src/mutation/records.js';
import { splitRow, type SheetRules } from '../../src/mutation/sheet.js';

const FIELDS = [field.text('--name <name>', 'Name', 'the name'), field.number('--amount <number>', 'Amount', 'the amount'), field.text('--token <t>', 'Token', 'a secret', { secret: true })];
const RULES: SheetRules = { key: 'Uid', fields: FIELDS, resource: 'Deal', context: ['Account'] };

async function read(text: string | Buffer, rules: Partial<SheetRules> = {}, cut = 0): Promise<BatchRecord[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const chunks = cut > 0 ? [bytes.subarray(0, cut), bytes.subarray(cut)] : [bytes];
  const out: BatchRecord[] = [];
  for await (const rec of readRecords(Readable.from(chunks), 'Uid', checkUid, undefined, undefined, { ...RULES, ...rules })) out.push(rec);
  return out;
}

const targets = (records: BatchRecord[]) => records.flatMap((r) => ('target' in r ? [{ line: r.line, target: r.target, record: r.record }] : []));

describe('a sheet as batch input', () => {
  it("Excel's CSV: BOM, `;`, CRLF, a quoted cell holding `;`, a doubled quote and a line break; empty cells left out", async () => {
    const csv = '\ufeffUid;Name;Amount;Account\r\ndeal_1;"Pilot; ""phase"" 2";1200;acc_1\r\ndeal_2;;-5;acc_2\r\n\r\ndeal_3;"two\r\nlines";;\r\n';
    const records = await read(csv);
    expect(records[0]).toMatchObject({ line: 1, sheet: { separator: ';', bom: true, columns: ['Uid', 'Name', 'Amount', 'Account'] }, ignored: ['Account'] });
    expect(targets(records)).toEqual([
      { line: 2, target: 'deal_1', record: { Name: 'Pilot; "phase" 2', Amount: '1200' } },
      { line: 3, target: 'deal_2', record: { Amount: '-5' } },
      { line: 5, target: 'deal_3', record: { Name: 'two\nlines' } },
    ]);
  });

  it('the same records wherever the reads of stdin cut the input', async () => {
    const csv = '\ufeffUid,amount\r\ndeal_1,"=1+1"\r\ndeal_2,"a,b"\r\n';
    const whole = await read(csv);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: Buffer.byteLength(csv) - 1 }), async (cut) => {
        expect(await read(csv, {}, cut)).toEqual(whole);
      }),
    );
    expect(targets(whole).map((r) => r.record)).toEqual([{ amount: '=1+1' }, { amount: 'a,b' }].map((r) => ({ Amount: r.amount })));
  });

  it('an unknown column is refused, naming it and the nearest field; a sheet needs its key column', async () => {
    await expect(read('Uid;Amout\ndeal_1;5\n')).rejects.toThrow(/column "Amout" is not a field of this command \(did you mean Amount/);
    await expect(read('Name;Amount\nx;5\n', { format: 'csv' })).rejects.toThrow(/no Uid column/);
  });

  it('not a sheet: lines without a key column, or --input-format lines; a TSV is one too', async () => {
    expect(await read('deal_1\ndeal_2\n')).toEqual([
      { line: 1, target: 'deal_1' },
      { line: 2, target: 'deal_2' },
    ]);
    expect((await read('Uid;Name\ndeal_1;x\n', { format: 'lines' }))[1]).toMatchObject({ error: expect.stringContaining('looks like CSV') });
    expect(targets(await read('Uid\tName\ndeal_1\tx\n'))).toEqual([{ line: 2, target: 'deal_1', record: { Name: 'x' } }]);
    expect(targets(await read('Uid\ndeal_1\n', { format: 'tsv' }))).toEqual([{ line: 2, target: 'deal_1', record: {} }]);
  });

  it("bo's result columns are ignored; --only takes the rows with that bo_outcome; a secret written as *** is an invalid row", async () => {
    const file = 'Uid;Amount;Token;bo_row;bo_outcome;bo_code;bo_message\ndeal_1;1;;2;done;;\ndeal_2;2;***;3;failed;400;no\ndeal_3;3;;4;failed;400;no\n';
    const records = await read(file, { only: 'failed' });
    expect(targets(records)).toEqual([{ line: 4, target: 'deal_3', record: { Amount: '3' } }]);
    expect(records.find((r) => 'error' in r)).toMatchObject({ line: 3, error: expect.stringContaining('secret written as ***'), cells: ['deal_2', '2', '***', '3', 'failed', '400', 'no'] });
    await expect(read('deal_1\n', { only: 'failed' })).rejects.toThrow(/--only failed reads a sheet/);
  });

  it('splitRow: an open quote asks for the next line', () => {
    expect(splitRow('a;"b', ';')).toBeUndefined();
    expect(splitRow('a;"b;c";', ';')).toEqual(['a', 'b;c', '']);
  });
});
