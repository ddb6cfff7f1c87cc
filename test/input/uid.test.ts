// Uids are opaque, but never empty and never with white space, "/" or control
// characters, C1 included (COMMANDS.md "Input is checked before any request").
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
});
