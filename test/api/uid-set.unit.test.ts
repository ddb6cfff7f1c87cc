// UidSet (src/api/uid-set.ts), the walk's set of Uids outside V8's heap, against a Set of
// strings: the same answer for every add, through the table's and the arena's growth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UidSet } from '../../src/api/uid-set.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** Adds each to both; the answers of UidSet.add, and of the Set (new or not). */
function both(uids: readonly string[], ahead: { at: number; count: number } | null): { ours: boolean[]; theirs: boolean[]; size: number } {
  const set = new UidSet();
  const plain = new Set<string>();
  const ours = uids.map((u, i) => {
    if (ahead && i === ahead.at) set.expect(ahead.count);
    return set.add(u);
  });
  const theirs = uids.map((u) => (plain.has(u) ? false : (plain.add(u), true)));
  return { ours, theirs, size: set.size };
}

describe('UidSet', () => {
  it('says whether each Uid is new, as a Set of strings does, for any strings', () => {
    // Few distinct values, so repeats are common; full Unicode, lone surrogates included.
    const uid = fc.oneof(fc.constantFrom('acc_1', 'acc_2', '', '\ud800', '\ud801', '\ufffd', 'é', 'e\u0301'), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      // A total announced ahead, at some point of the walk: the table is made larger then.
      fc.property(fc.array(uid, { maxLength: 300 }), fc.option(fc.record({ at: fc.nat(300), count: fc.oneof(fc.nat(20_000), fc.constantFrom(-1, NaN, Infinity, 1e12)) })), (uids, ahead) => {
        const { ours, theirs, size } = both(uids, ahead);
        expect(ours).toEqual(theirs);
        expect(size).toBe(new Set(uids).size);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it.each([[false], [true]])('keeps every Uid through its growth (total announced ahead: %s): 300,000 distinct, then each again', (ahead) => {
    const set = new UidSet();
    if (ahead) set.expect(300_000);
    const uids = Array.from({ length: 300_000 }, (_, i) => `acc_${(i * 7919).toString(36)}${i % 7 === 0 ? 'x'.repeat(i % 500) : ''}`);
    expect(uids.every((u) => set.add(u))).toBe(true);
    expect(set.size).toBe(300_000);
    expect(uids.some((u) => set.add(u))).toBe(false);
    expect(set.add('acc_new')).toBe(true);
    expect(set.size).toBe(300_001);
  });

  it('tells apart Uids whose UTF-8 bytes would be the same (lone surrogates)', () => {
    const set = new UidSet();
    expect([set.add('a\ud800'), set.add('a\ud801'), set.add('a\ufffd'), set.add('a\ud800')]).toEqual([true, true, true, false]);
    // Kept a byte each or two: the same code units are never confused across the two.
    expect([set.add('\u0100'), set.add('\u0000\u0001'), set.add('\u0001\u0000'), set.add('\u0100')]).toEqual([true, true, true, false]);
  });
});
