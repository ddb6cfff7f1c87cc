// Batch lines (readRecords, parseLine): what a line becomes (a target, an error, or
// nothing for a blank line or a comment), whatever its bytes and wherever the reads of
// stdin cut it; the 64 KiB limit; and a reader that stops when its consumer does.
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foreignFirstLine } from '../../src/input/read-text.js';
import { checkUid } from '../../src/input/validate.js';
import { MAX_LINE_BYTES, parseLine, readRecords, type BatchRecord } from '../../src/mutation/records.js';
import { cutBytes } from '../helpers/cut-bytes.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

async function collect(chunks: Buffer[], key = 'Uid'): Promise<BatchRecord[]> {
  const out: BatchRecord[] = [];
  for await (const rec of readRecords(Readable.from(chunks), key, checkUid)) out.push(rec);
  return out;
}

/** What readRecords gives, or the message it refused the input with (foreignFirstLine). */
const settled = (chunks: Buffer[]) => collect(chunks).catch((err: Error) => ({ refused: err.message }));

/** What the lines should give: split on "\n" at once, each line parsed alone; a first line in UTF-16 or UTF-32 refuses the whole. */
function expected(bytes: Buffer, key = 'Uid'): BatchRecord[] | { refused: string } {
  const out: BatchRecord[] = [];
  let from = 0;
  let line = 0;
  while (from < bytes.length) {
    let nl = bytes.indexOf(10, from);
    if (nl < 0) nl = bytes.length;
    // The first line as the line reader hands it over: without its "\r".
    const first = line === 0 ? bytes.subarray(from, bytes[nl - 1] === 13 && nl > from ? nl - 1 : nl) : undefined;
    const foreign = first && foreignFirstLine('stdin', first);
    if (foreign) return { refused: foreign.message };
    const rec = parseLine(bytes.subarray(from, nl), ++line, key, checkUid);
    if (rec) out.push(rec);
    from = nl + 1;
  }
  // D35: an invalid first line that could be a heading is one when the next record is valid.
  const [head, next] = out;
  if (head && 'heading' in head) {
    const { heading, ...rest } = head;
    out[0] = next && 'target' in next ? { line: head.line, header: heading! } : rest;
  }
  return out;
}

/** Pieces of a line: ASCII, multi-byte characters, JSON-looking starts, "\r", invalid bytes, UTF-16, a byte order mark. */
const fragment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }).map(utf8),
  fc.constantFrom('sa_1', 'é', '€', '𝄞', '{"Uid":"u_1"}', '{"Uid":', '["a"]', '"q"', '#', ' ', '\r', '\t').map(utf8),
  fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]), Buffer.from([0xf0, 0x9d, 0x84])),
  // UTF-16 (a first line of it refuses the input) and a UTF-8 byte order mark.
  fc.constantFrom(Buffer.from('sa_1', 'utf16le'), Buffer.from('sa_1', 'utf16le').swap16(), utf8('\ufeff')),
);
const line = fc.array(fragment, { maxLength: 6 }).map((parts) => Buffer.concat(parts.map((p) => Buffer.from(p.filter((b) => b !== 10)))));
const input = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, trailing]) => Buffer.concat([Buffer.from(lines.map((l) => l.toString('latin1')).join(eol), 'latin1'), Buffer.from(trailing ? eol : '')]));

describe('parseLine', () => {
  it('gives a target, an error or (blank, comment) nothing for any UTF-8 line, and never throws', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.tuple(fc.constantFrom('{', '[', '"', '#', '{"Uid":', ' ', '\r'), fc.string({ unit: 'binary' })).map(([a, b]) => a + b),
      fc.string({ unit: 'binary' }).map((s) => JSON.stringify({ Uid: s })),
    );
    fc.assert(
      fc.property(text.map((s) => s.replace(/\n/g, '')), (s) => {
        const rec = parseLine(utf8(s), 7, 'Uid', checkUid);
        if (rec === undefined) {
          expect(s.trim() === '' || s.trim().startsWith('#'), JSON.stringify(s)).toBe(true);
          return;
        }
        expect(rec.line).toBe(7);
        if ('target' in rec) {
          const t = s.trim();
          // A plain line gives its first tab-separated field (bo's own piped rows); a record its Uid.
          expect([/^\{/.test(t) ? (JSON.parse(t) as { Uid: string }).Uid : t.split('\t', 1)[0]!.trim()]).toContain(rec.target);
          expect(/^[[""]/.test(t), 'a JSON string or array is never a target').toBe(false);
        } else {
          expect('header' in rec, 'only line 1 may be a header, and only when headers are given').toBe(false);
          if ('error' in rec) expect(rec.error).toMatch(/^line 7\b/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a line over 64 KiB, counted in bytes with the line ending aside', () => {
    expect(MAX_LINE_BYTES).toBe(65_536);
    const ok = parseLine(utf8('a'.repeat(MAX_LINE_BYTES)), 1, 'Uid', checkUid);
    expect(ok).toEqual({ line: 1, target: 'a'.repeat(MAX_LINE_BYTES) });
    expect(parseLine(utf8(`${'a'.repeat(MAX_LINE_BYTES)}\r`), 1, 'Uid', checkUid)).toEqual(ok);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('a', 'é', '€', '𝄞', ' '), (over, ch) => {
        const body = ch.repeat(Math.ceil((MAX_LINE_BYTES + over) / utf8(ch).length));
        const rec = parseLine(utf8(body), 3, 'Uid', checkUid);
        expect(rec).toEqual({
          line: 3,
          error: `line 3: ${utf8(body).length.toLocaleString('en-US')} bytes, over the 64 KiB a line may hold`,
          input: ch.repeat(200).trim(),
        });
      }),
      { numRuns: 50 },
    );
  });

  it('refuses bytes that are not UTF-8 as an invalid line (nothing for it is sent)', () => {
    // The line is shown with U+FFFD where its bytes are not UTF-8: it is never sent.
    expect(parseLine(Buffer.from('bad\xff\xfeutf', 'latin1'), 2, 'Uid', checkUid)).toEqual({ line: 2, error: 'line 2: not valid UTF-8', input: 'bad\ufffd\ufffdutf' });
    expect(parseLine(Buffer.from('e@exa\xffmple.com', 'latin1'), 4, 'Email', (_l, v) => v)).toEqual({
      line: 4,
      error: 'line 4: not valid UTF-8',
      input: 'e@exa\ufffdmple.com',
    });
    expect(parseLine(Buffer.from([0xc3]), 1, 'Uid', checkUid)).toEqual({ line: 1, error: 'line 1: not valid UTF-8', input: '\ufffd' });
  });

  it('takes a record object with the key; anything else that starts like JSON is invalid', () => {
    const p = (text: string) => parseLine(utf8(text), 1, 'Uid', checkUid);
    // The record comes along: its other keys are the verb's fields (or refused) in prepare.ts.
    expect(p('{"Uid":"sa_1","Note":"x"}')).toEqual({ line: 1, target: 'sa_1', record: { Uid: 'sa_1', Note: 'x' } });
    expect(p('  sa_2 \r')).toEqual({ line: 1, target: 'sa_2' });
    // A row of bo's own piped output: the first tab-separated field is the Uid.
    expect(p('acc_107m14dk7l\tGlobex Inc\t2 Trialing\tEUR\t2025-10-13T11:48:00.000Z')).toEqual({ line: 1, target: 'acc_107m14dk7l' });
    expect(p('sa_3 \t')).toEqual({ line: 1, target: 'sa_3' });
    for (const bad of ['"quoted"', '["arr"]', '[]', '"sa_1"', '{"Uid": 5}', '{}', '{"Uid":', '[not json']) {
      const rec = p(bad);
      expect(rec && 'error' in rec, bad).toBe(true);
    }
    expect(p('["arr"]')).toEqual({ line: 1, error: 'line 1: starts like JSON but is not a record; give the value alone or {"Uid": "…"}', input: '["arr"]' });
    expect(p('{"Uid": 5}')).toEqual({ line: 1, error: 'line 1: the record has no "Uid" string', input: '{"Uid": 5}' });
    expect(p('# a comment')).toBeUndefined();
    expect(p(' \t\r')).toBeUndefined();
  });

  it('names a row of a spreadsheet CSV export (a ; or , or quotes) as CSV, with the cut for its separator', () => {
    const p = (text: string) => parseLine(utf8(text), 2, 'Uid', checkUid);
    const csv = (cut: string) => `line 2: looks like CSV: pass the first column only (${cut})`;
    expect(p('subaddon_2d4fkjlq2t;Globex')).toEqual({ line: 2, error: csv("cut -d';' -f1"), input: 'subaddon_2d4fkjlq2t;Globex' });
    expect(p('subaddon_x,Acme Inc')).toEqual({ line: 2, error: csv("cut -d',' -f1"), input: 'subaddon_x,Acme Inc' });
    expect(p('"subaddon_y"')).toEqual({ line: 2, error: csv(`cut -d';' -f1 | tr -d '"'`), input: '"subaddon_y"' });
    expect(p('"subaddon_y";"Globex"')).toEqual({ line: 2, error: csv(`cut -d';' -f1 | tr -d '"'`), input: '"subaddon_y";"Globex"' });
    // Only the first column counts: bo's own rows may hold a comma in a name.
    expect(p('acc_1\tAcme, Inc;\t2 Trialing')).toEqual({ line: 2, target: 'acc_1' });
    // A JSON Lines record holds commas and quotes: it is no CSV.
    expect(p('{"Uid":"sa_1","Note":"a;b"}')).toEqual({ line: 2, target: 'sa_1', record: { Uid: 'sa_1', Note: 'a;b' } });
  });

  it('skips a first line that is a column header (any case), only on line 1 and only when headers are given', () => {
    const headers = new Set(['uid', 'id', 'enddate']);
    const p = (text: string, line = 1) => parseLine(utf8(text), line, 'Uid', checkUid, headers);
    expect(p('\ufeffUid\r')).toEqual({ line: 1, header: 'Uid' });
    expect(p('ID')).toEqual({ line: 1, header: 'ID' });
    expect(p('EndDate\tName')).toEqual({ line: 1, header: 'EndDate' });
    // Any other first line is validated like every line; a header past line 1 is a value.
    expect(p('Uid', 2)).toEqual({ line: 2, target: 'Uid' });
    expect(p('Uid;Name')).toEqual({ line: 1, error: "line 1: looks like CSV: pass the first column only (cut -d';' -f1)", input: 'Uid;Name', heading: 'Uid;Name' });
    // An invalid first line of printable text may be a heading (readRecords decides); past line 1, or with control characters, never.
    expect(p('Add-on ID')).toMatchObject({ line: 1, heading: 'Add-on ID' });
    expect(p('Add-on ID', 2)).not.toHaveProperty('heading');
    expect(p('a\u0000b')).not.toHaveProperty('heading');
    expect(parseLine(utf8('Uid'), 1, 'Uid', checkUid)).toEqual({ line: 1, target: 'Uid' });
  });

  it('shows at most 200 characters of an invalid line, neutralised', () => {
    const rec = parseLine(utf8(`${'é'.repeat(300)};\u001b[31mred`), 5, 'Uid', checkUid);
    expect(rec).toMatchObject({ line: 5, input: 'é'.repeat(200) });
    expect(parseLine(utf8('a;\u001b[31mred\u202e'), 5, 'Uid', checkUid)).toMatchObject({ input: 'a;red\\u202e' });
  });
});

describe('readRecords', () => {
  it('refuses stdin that starts with a UTF-16 or UTF-32 byte order mark, naming the encoding and the iconv', async () => {
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('\ufeffsa_1\nsa_2\n', 'utf16le'), 'UTF-16'],
      [Buffer.from('\ufeffsa_1\n', 'utf16le').swap16(), 'UTF-16'],
      [Buffer.from([0xff, 0xfe, 0, 0, 0x73, 0, 0, 0, 0x0a, 0, 0, 0]), 'UTF-32'],
      [Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x73, 0, 0, 0, 0x0a]), 'UTF-32'],
    ];
    for (const [bytes, encoding] of cases) {
      await expect(collect([bytes])).rejects.toThrow(
        expect.objectContaining({ name: 'UsageError', message: `stdin is ${encoding} text, not UTF-8: convert it first with iconv -f ${encoding} -t UTF-8` }),
      );
    }
  });

  it('refuses UTF-16 without a byte order mark, told from its first line, naming the byte order and the iconv', async () => {
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('sa_1\nsa_2\n', 'utf16le'), 'UTF-16LE'],
      [Buffer.from('Uid\r\nsa_1\r\n', 'utf16le'), 'UTF-16LE'],
      [Buffer.from('sa_1\nsa_2\n', 'utf16le').swap16(), 'UTF-16BE'],
      [Buffer.from('{"Uid":"sa_é"}\n', 'utf16le').swap16(), 'UTF-16BE'],
      [Buffer.from('s', 'utf16le'), 'UTF-16LE'],
    ];
    for (const [bytes, encoding] of cases) {
      await expect(collect([bytes])).rejects.toThrow(
        expect.objectContaining({
          name: 'UsageError',
          message: `stdin is ${encoding} text without a byte-order mark, not UTF-8: convert it first with iconv -f ${encoding} -t UTF-8`,
        }),
      );
    }
    // UTF-8 with a NUL here and there is not taken for UTF-16: its lines are judged one by one.
    expect(await collect([Buffer.from('sa_1\u0000x\nsa_2\n')])).toMatchObject([{ line: 1, error: expect.any(String) }, { line: 2, target: 'sa_2' }]);
  });

  it('a byte order mark past the start of the input makes its line invalid (files joined with cat); the others go on', async () => {
    const why = (line: number) => `line ${line}: a byte-order mark in the middle: files joined with cat?`;
    expect(await collect([Buffer.from('\ufeffsa_1\n\ufeffsa_2\nsa_3\n')])).toEqual([
      { line: 1, target: 'sa_1' },
      { line: 2, error: why(2), input: 'sa_2' },
      { line: 3, target: 'sa_3' },
    ]);
    // Files joined without a newline between them: the mark inside a line.
    expect(await collect([Buffer.from('sa_1\ufeffsa_2\nsa_3\n')])).toEqual([
      { line: 1, error: why(1), input: 'sa_1\\ufeffsa_2' },
      { line: 2, target: 'sa_3' },
    ]);
  });

  it('gives the same records wherever the reads cut the input (inside a character, between \\r and \\n)', async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(), { maxLength: 20 }), async (bytes, at) => {
        const whole = await settled([bytes]);
        expect(whole).toEqual(expected(bytes));
        expect(await settled(cutBytes(bytes, at))).toEqual(whole);
        // One byte a read: every boundary at once.
        expect(await settled(cutBytes(bytes, [...bytes.keys()]))).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });

  it('gives a line over 64 KiB as one invalid line, read in any pieces, and goes on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -2, max: 3 }), fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 30 }), async (delta, eol, at) => {
        const long = 'x'.repeat(MAX_LINE_BYTES + delta);
        const bytes = utf8(`sa_1${eol}${long}${eol}sa_2${eol}${long}`);
        const records = await collect(cutBytes(bytes, at.map((n) => n * 4099)));
        expect(records).toEqual(expected(bytes));
        expect(records.map((r) => ('target' in r ? r.target.length : 'error' in r ? r.error : r))).toEqual(
          delta <= 0
            ? [4, MAX_LINE_BYTES + delta, 4, MAX_LINE_BYTES + delta]
            : [4, `line 2: ${(MAX_LINE_BYTES + delta).toLocaleString('en-US')} bytes, over the 64 KiB a line may hold`, 4, `line 4: ${(MAX_LINE_BYTES + delta).toLocaleString('en-US')} bytes, over the 64 KiB a line may hold`],
        );
      }),
      { numRuns: 40 },
    );
  });

  it('reads a 40 MB line in linear time and reports it as one invalid line', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'u');
    const chunks = [utf8('sa_1\n'), ...Array.from({ length: 640 }, () => chunk), utf8('\nsa_2\n')];
    const records = await collect(chunks);
    expect(records).toEqual([
      { line: 1, target: 'sa_1' },
      { line: 2, error: `line 2: ${(640 * 64 * 1024).toLocaleString('en-US')} bytes, over the 64 KiB a line may hold`, input: 'u'.repeat(200) },
      { line: 3, target: 'sa_2' },
    ]);
  });

  it('stops reading when its consumer leaves a for await early: the input is destroyed', async () => {
    const stdin = new PassThrough();
    stdin.write('sa_1\nsa_2\n');
    const seen: BatchRecord[] = [];
    for await (const rec of readRecords(stdin, 'Uid', checkUid)) {
      seen.push(rec);
      break;
    }
    expect(seen).toEqual([{ line: 1, target: 'sa_1' }]);
    expect(stdin.destroyed).toBe(true);
  });

  it('ends at once on return() while a read waits on idle input', async () => {
    const stdin = new PassThrough();
    const records = readRecords(stdin, 'Uid', checkUid);
    const pending = records.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await records.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(stdin.destroyed).toBe(true);
  });

  it('ends without an error when its input is destroyed while a read waits', async () => {
    const stdin = new PassThrough();
    stdin.write('sa_1\nsa_');
    const records = readRecords(stdin, 'Uid', checkUid);
    expect(await records.next()).toEqual({ done: false, value: { line: 1, target: 'sa_1' } });
    const pending = records.next();
    setTimeout(() => stdin.destroy(), 20);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
