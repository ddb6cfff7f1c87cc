// --diff's comparison and its lines (diff.ts): a value held is the value sent when a
// reference has the same Uid, an instant the same time, a record the same JSON in any
// key order; the lines name each field that changes, and a secret is never shown.
import { describe, expect, it } from 'vitest';
import { diffText, same } from '../../src/mutation/diff.js';

describe('--diff', () => {
  it('compares as the API holds what was sent', () => {
    expect(same({ Uid: 'stage_1', Name: 'Won' }, { Uid: 'stage_1' })).toBe(true);
    expect(same(null, { Uid: 'stage_1' })).toBe(false);
    expect(same('2027-01-31T23:59:59+00:00', '2027-01-31T23:59:59.000Z')).toBe(true);
    expect(same('2027-01-31T23:59:58Z', '2027-01-31T23:59:59.000Z')).toBe(false);
    expect(same(1200, 1200)).toBe(true);
    expect(same(1200, 1201)).toBe(false);
    expect(same({ b: 1, a: [1, 2] }, { a: [1, 2], b: 1 })).toBe(true);
    expect(same('Acme', 'Acme ')).toBe(false);
    expect(same(undefined, null)).toBe(true);
  });

  it('shows Field: old → new per field, one line when it holds or cannot be read, never a secret', () => {
    expect(diffText('deal_1', 2, { changes: [['Amount', 17700, 1200], ['DealPipelineStage', { Uid: 's_1' }, { Uid: 's_2' }]] })).toBe(
      'deal_1 (line 2)\n  Amount: 17700 → 1200\n  DealPipelineStage: s_1 → s_2\n',
    );
    expect(diffText('deal_1', 3, { holds: true })).toBe('deal_1 (line 3): already holds; not sent\n');
    expect(diffText('deal_1', 4, { unreadable: 'no Account' }, '->')).toBe('deal_1 (line 4): no Account\n');
    expect(diffText('acc_1', undefined, { changes: [['Token', 'old-secret', 'new-secret']] }, '->')).not.toMatch(/secret/);
  });
});
