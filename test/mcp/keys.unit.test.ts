// The keys of a tool result (src/mcp/keys.ts): a key neutralising would change is
// written with JSON escapes that decode to it; a harmless key that reads as such a name
// is escaped in its turn; every key, at any depth, stays distinct.
import { describe, expect, it } from 'vitest';
import { escapedKey, keyNames } from '../../src/mcp/keys.js';

const none = (text: string) => text;

describe('escapedKey', () => {
  it('writes controls, quotes, backslashes and hidden characters as JSON escapes that decode to the key', () => {
    for (const key of ['Tier\t1', 'a"b', 'a\\b', 'x\u202ey', 'e\u001b[31m', 'tag\u{e0041}', 'nl\n', 'c1\u009b']) {
      const escaped = escapedKey(key);
      expect(escaped).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]|\udb40/);
      expect(JSON.parse(`"${escaped}"`)).toBe(key);
    }
    expect(escapedKey('Tier\t1')).toBe('Tier\\t1');
    expect(escapedKey('x\u202ey')).toBe('x\\u202ey');
  });
});

describe('keyNames', () => {
  it('names only the keys neutralising would change; harmless keys keep theirs', () => {
    const names = keyNames({ a: 1, 'b\tc': { 'd\u202e': [{ 'e\u001b[2J': 1 }], plain: 2 }, 'Tier\\': 3 }, none);
    expect(Object.fromEntries(names)).toEqual({ 'b\tc': 'b\\tc', 'd\u202e': 'd\\u202e', 'e\u001b[2J': 'e\\u001b[2J' });
  });

  it('a harmless key that reads as another key\'s name is escaped in its turn, and so on', () => {
    const names = keyNames({ 'x\u202e': 1, 'x\\u202e': 2, 'x\\\\u202e': 3 }, none);
    expect(Object.fromEntries(names)).toEqual({ 'x\u202e': 'x\\u202e', 'x\\u202e': 'x\\\\u202e', 'x\\\\u202e': 'x\\\\\\\\u202e' });
    const shown = ['x\u202e', 'x\\u202e', 'x\\\\u202e'].map((k) => names.get(k) ?? k);
    expect(new Set(shown).size).toBe(3);
  });

  it('over the whole result: a key in one record is never shown as another record\'s changed key', () => {
    const names = keyNames([{ 'k\t': 1 }, { 'k\\t': 2 }], none);
    expect(names.get('k\t')).toBe('k\\t');
    expect(names.get('k\\t')).toBe('k\\\\t');
  });

  it('a key holding a secret of the run is shown scrubbed, and named', () => {
    const names = keyNames({ 'token sk_live_123': 1, other: 2 }, (t) => t.replaceAll('sk_live_123', '[redacted]'));
    expect(Object.fromEntries(names)).toEqual({ 'token sk_live_123': 'token [redacted]' });
  });
});
