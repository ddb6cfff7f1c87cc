// Uids are opaque, but never empty and never with white space, "/" or control
// characters, C1 included (COMMANDS.md "Input is checked before any request").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUid } from '../../src/input/validate.js';

describe('checkUid', () => {
  it('takes an opaque Uid as it is', () => {
    expect(checkUid('<uid>', 'acc_0001')).toBe('acc_0001');
    expect(checkUid('<uid>', 'ünïcode-Ω')).toBe('ünïcode-Ω');
  });

  it('refuses empty, white space, "/", C0, DEL and C1 controls, naming the label', () => {
    for (const bad of ['', 'a b', 'a\tb', 'a/b', 'a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u009bb', 'a\u0085b']) {
      expect(() => checkUid('<uid>', bad), JSON.stringify(bad)).toThrow(/^<uid> must/);
    }
  });

  it('refuses ".", ".." in any encoding and "-", and takes what only looks like them', () => {
    for (const bad of ['.', '..', '%2e', '%2E%2e', '.%2e', '%252e', '-']) expect(() => checkUid('<uid>', bad), bad).toThrow(/^<uid> (cannot be|takes one value)/);
    for (const fine of ['...', '.a', 'a..', '--', '-a']) expect(checkUid('<uid>', fine)).toBe(fine);
  });

  it('property: a zero-width, bidirectional or invisible character anywhere in a Uid is refused', () => {
    const hidden = fc.constantFrom(...'\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\u2060\u061c');
    const text = fc.string({ maxLength: 6 });
    fc.assert(
      fc.property(text, hidden, text, (before, ch, after) => {
        expect(() => checkUid('<uid>', `a${before}${ch}${after}z`)).toThrow(/^<uid> must be a Uid without spaces, "\/" or control characters, got ".*\\u[0-9a-f]{4}/);
      }),
    );
  });
});
