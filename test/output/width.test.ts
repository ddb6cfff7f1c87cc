import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/output/table.js';
import { unicodeLocale } from '../../src/output/symbols.js';
import { displayWidth, truncate } from '../../src/output/width.js';

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

  it('draws ASCII boxes under a locale that is not UTF-8', () => {
    expect(unicodeLocale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(unicodeLocale({})).toBe(true);
    expect(unicodeLocale({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(unicodeLocale({ LANG: 'de_DE.ISO-8859-1' })).toBe(false);
  });
});
