import { beforeAll, describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/output/table.js';
import { ListCell } from '../../src/output/list-cell.js';
import { unicodeLocale } from '../../src/output/symbols.js';
import { displayWidth, truncate, widthsFor } from '../../src/output/width.js';

// Text beyond ASCII is measured once the library is loaded, as a table loads it.
beforeAll(() => widthsFor(['é']));

describe('display width', () => {
  it('counts East Asian wide characters and emoji as two cells, joiners and combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('東京')).toBe(4);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ＡＢ')).toBe(4);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('می\u200cخواهم')).toBe(7);
  });

  it('measures a grapheme as a terminal draws it: a ZWJ family, a flag, a skin tone and an emoji variation take two cells', () => {
    expect(displayWidth('👨\u200d👩\u200d👧')).toBe(2);
    expect(displayWidth('🇯🇵')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('⚠\ufe0f')).toBe(2);
    expect(displayWidth('a🇯🇵b')).toBe(4);
  });

  it('measures and cuts a long cell in time that grows with its length: a 1 MB value of CJK, accents and emoji, measured piece by piece, as a whole', () => {
    // The segmenter and the library each take time that grows with the square of the
    // length on their own (a 100 KB cell of CJK took 20 s): this bounded the suite.
    const mixed = '漢字 é 👨\u200d👩\u200d👧 🇯🇵 a\u0301. '.repeat(40_000);
    const one = displayWidth('漢字 é 👨\u200d👩\u200d👧 🇯🇵 a\u0301. ');
    expect(displayWidth(mixed)).toBe(one * 40_000);
    expect(displayWidth('漢'.repeat(500_000))).toBe(1_000_000);
    expect(displayWidth('é'.repeat(500_000))).toBe(500_000);
    const cut = truncate(mixed, 101);
    expect(displayWidth(cut)).toBeLessThanOrEqual(101);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never cuts a grapheme in two', () => {
    expect(truncate('🇯🇵🇯🇵🇯🇵', 4)).toBe('🇯🇵…');
    expect(truncate('👨\u200d👩\u200d👧 family', 4)).toBe('👨\u200d👩\u200d👧 …');
    expect(truncate('👍🏽👍🏽', 3)).toBe('👍🏽…');
    expect(displayWidth(truncate('⚠\ufe0f⚠\ufe0f⚠\ufe0f', 5))).toBe(5);
  });

  it('cuts by cells with an ellipsis, never splitting a wide character past the limit', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
    expect(truncate('東京都庁', 5)).toBe('東京…');
    expect(displayWidth(truncate('東京都庁', 4))).toBeLessThanOrEqual(4);
    expect(truncate('abcdef', 4, '~')).toBe('abc~');
  });
});

describe('fitting columns', () => {
  it('shrinks the widest text column first, date-like columns last, fixed ones never', () => {
    // borders: 3 per column + 1
    expect(fitWidths([10, 30, 16], [true, false, false], 50, [false, false, true])).toEqual([10, 14, 16]);
    expect(fitWidths([10, 30, 16], [true, false, false], 30, [false, false, true])).toEqual([10, 3, 7]);
    expect(fitWidths([10, 30], [true, false], undefined)).toEqual([10, 30]);
  });

  it("a date column whose header is wider than its dates gives the header's name up first, never its zone", () => {
    // [text 12, date column: header 19 wide (`Created (UTC+09:00)`) over dates 10 wide,
    // its zone ` (UTC+09:00)` and 3 cells of name at least]; 5 cells too many.
    const limits = { min: [0, 15], cells: [Infinity, 10] };
    expect(fitWidths([12, 19], [false, false], 33, [false, true], limits)).toEqual([11, 15]);
    // Without them the date column (shrunk last) keeps its header whole and the text pays.
    expect(fitWidths([12, 19], [false, false], 33, [false, true])).toEqual([7, 19]);
    // Never below the zone, however narrow.
    expect(fitWidths([30, 19], [false, false], 10, [false, true], limits)[1]).toBe(15);
  });

  it('a list too wide for its cell keeps the items that fit whole and says how many it left out', () => {
    const list = new ListCell(['mem_aaaa', 'mem_bbbb', 'mem_cccc', 'mem_dddd']);
    expect(list.fit(100, '…')).toBe('mem_aaaa, mem_bbbb, mem_cccc, mem_dddd');
    expect(list.fit(30, '…')).toBe('mem_aaaa, mem_bbbb, +2 more');
    expect(list.fit(17, '…')).toBe('mem_aaaa, +3 more');
    // Not one item whole: the first cut, then the count; narrower still, the count alone.
    expect(list.fit(14, '…')).toBe('mem_…, +3 more');
    expect(list.fit(8, '~')).toBe('4 items');
    expect(new ListCell(['only one item here']).fit(10, '…')).toBe('only one …');
    // Items measured by their graphemes: two flags are four cells.
    expect(new ListCell(['🇯🇵🇯🇵', '👍🏽x', 'abc']).fit(13, '…')).toBe('🇯🇵🇯🇵, +2 more');
    expect(new ListCell(['🇯🇵🇯🇵', '👍🏽x', 'abc']).fit(14, '…')).toBe('🇯🇵🇯🇵, 👍🏽x, abc');
  });

  it('draws ASCII boxes under a locale that is not UTF-8', () => {
    expect(unicodeLocale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(unicodeLocale({})).toBe(true);
    expect(unicodeLocale({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(unicodeLocale({ LANG: 'de_DE.ISO-8859-1' })).toBe(false);
  });
});
