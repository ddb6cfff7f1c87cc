// `bo doctor`'s runtime check against its dated table of Node lines: a line past its end
// of life is a warning naming the fix, a supported one passes, an unknown one warns.
import { describe, expect, it } from 'vitest';
import { NODE_LINES, runtimeCheck } from '../../src/commands/doctor.js';

describe('the runtime check', () => {
  it('holds the lines 20 to 26 with their ends of life', () => {
    expect(NODE_LINES).toEqual([
      [20, '2026-04-30'],
      [22, '2027-04-30'],
      [24, '2028-04-30'],
      [26, '2029-04-30'],
    ]);
  });

  it('a line past its end of life is a warning naming a supported Node release', () => {
    const c = runtimeCheck(new Date('2026-12-01T00:00:00Z'), '20.17.0');
    expect(c).toMatchObject({ id: 'runtime', ok: false, severity: 'warning', fix: 'install a supported Node release (https://nodejs.org)' });
    expect(c.message).toContain('Node 20 reached its end of life on 2026-04-30');
  });

  it('a supported line passes, its end named; the last day still counts', () => {
    expect(runtimeCheck(new Date('2026-12-01T00:00:00Z'), '22.11.0')).toMatchObject({ ok: true, severity: 'info', fix: null });
    expect(runtimeCheck(new Date('2027-04-30T23:00:00Z'), '22.11.0').ok).toBe(true);
    expect(runtimeCheck(new Date('2027-05-01T00:00:00Z'), '22.11.0').ok).toBe(false);
  });

  it('a line the table does not know is a warning', () => {
    expect(runtimeCheck(new Date('2026-12-01T00:00:00Z'), '23.1.0')).toMatchObject({ ok: false, severity: 'warning' });
  });
});
