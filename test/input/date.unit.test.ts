import { describe, expect, it } from 'vitest';
import { checkDate } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';

function refusal(text: string): UsageError {
  try {
    checkDate('--to', text);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error(`accepted ${JSON.stringify(text)}`);
}

describe('checkDate', () => {
  it('reads a bare date as 23:59:59 UTC that day', () => {
    expect(checkDate('--to', '2026-03-01')).toBe('2026-03-01T23:59:59.000Z');
    expect(checkDate('--to', ' 1900-01-01 ')).toBe('1900-01-01T23:59:59.000Z');
    expect(checkDate('--to', '9999-12-31')).toBe('9999-12-31T23:59:59.000Z');
  });

  it('accepts 29 February in leap years only', () => {
    expect(checkDate('--to', '2024-02-29')).toBe('2024-02-29T23:59:59.000Z');
    expect(checkDate('--to', '2000-02-29')).toBe('2000-02-29T23:59:59.000Z');
    for (const bad of ['2026-02-29', '1900-02-29', '2100-02-29']) expect(refusal(bad).message).toContain('not a real date');
  });

  it('refuses impossible days and months', () => {
    for (const bad of ['2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32']) {
      expect(refusal(bad).message, bad).toBe(`--to is not a real date: "${bad}"`);
    }
  });

  it('refuses years outside 1900-9999', () => {
    expect(refusal('1899-12-31').message).toContain('year from 1900 to 9999');
    expect(refusal('0001-01-01').message).toContain('year from 1900 to 9999');
    expect(refusal('+010000-01-01').message).toMatch(/^--to must be a date/);
    // The instant, once the offset is applied, must stay in range too.
    expect(refusal('9999-12-31T23:00:00-05:00').message).toContain('year from 1900 to 9999');
  });

  it('converts date-times with a zone to the UTC instant', () => {
    expect(checkDate('--to', '2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00.000Z');
    expect(checkDate('--to', '2026-03-01T10:00:00+02:00')).toBe('2026-03-01T08:00:00.000Z');
    expect(checkDate('--to', '2026-03-01T23:30-05:30')).toBe('2026-03-02T05:00:00.000Z');
    expect(checkDate('--to', '2026-03-01T10:00:00+0100')).toBe('2026-03-01T09:00:00.000Z');
    expect(checkDate('--to', '2026-03-01 10:00:00.123456z')).toBe('2026-03-01T10:00:00.123Z');
    expect(checkDate('--to', '2024-02-29T00:00:00.5+14:00')).toBe('2024-02-28T10:00:00.500Z');
  });

  it('refuses a date-time without a zone, saying how to add one', () => {
    expect(refusal('2026-03-01T10:00:00').message).toBe(
      '--to needs a time zone: add Z for UTC or an offset like +02:00, as in "2026-03-01T10:00:00Z"',
    );
  });

  it('refuses impossible times and offsets', () => {
    for (const bad of ['2026-03-01T24:00:00Z', '2026-03-01T10:60:00Z', '2026-03-01T10:00:60Z']) {
      expect(refusal(bad).message, bad).toContain('not a real time of day');
    }
    for (const bad of ['2026-03-01T10:00:00+15:00', '2026-03-01T10:00:00+02:75']) {
      expect(refusal(bad).message, bad).toContain('impossible time zone offset');
    }
  });

  it('refuses other shapes, naming the flag and the value', () => {
    for (const bad of ['', 'tomorrow', '2026-3-1', '01/03/2026', '20260301', '2026-03-01T10Z', '1767225599', '2026-03-01T10:00:00ZZ']) {
      const err = refusal(bad);
      expect(err.message, bad).toMatch(/^--to must be a date \(YYYY-MM-DD, meaning 23:59:59 UTC that day\) or a date-time with a zone/);
      expect(err.message).toContain(JSON.stringify(bad));
      expect(err.exitCode).toBe(2);
    }
  });
});
