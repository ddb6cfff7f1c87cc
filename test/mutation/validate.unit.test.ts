// The input checks mutations share (src/input/validate.ts): dates, whole numbers, text.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDate, checkInteger, checkText } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';
import { tempConfig } from '../helpers/config-dir.js';

describe('checkDate', () => {
  it('a bare date is 23:59:59 UTC that day; a date-time keeps its instant', () => {
    expect(checkDate('--to', '2027-01-31')).toBe('2027-01-31T23:59:59.000Z');
    expect(checkDate('--to', '2024-02-29')).toBe('2024-02-29T23:59:59.000Z');
    expect(checkDate('--to', '2027-01-31T12:30:00Z')).toBe('2027-01-31T12:30:00.000Z');
    expect(checkDate('--to', '2027-01-31T12:30+01:00')).toBe('2027-01-31T11:30:00.000Z');
    expect(checkDate('--to', '2027-01-31T12:30:05.250-0300')).toBe('2027-01-31T15:30:05.250Z');
  });

  it('refuses what is not a real date, or a date-time without a zone, naming the flag', () => {
    for (const bad of ['2023-02-29', '2027-13-01', '2027-1-31', '31/01/2027', 'tomorrow', '', '2027-01-31T25:00:00Z', '2027-01-31T10:00:00']) {
      expect(() => checkDate('--due', bad), bad).toThrow(UsageError);
      expect(() => checkDate('--due', bad), bad).toThrow(/^--due (must be a date|is not a real|needs a time zone)/);
    }
  });
});

describe('checkInteger', () => {
  it('accepts plain whole numbers within the bounds only', () => {
    expect(checkInteger('--n', '16', 1, 16)).toBe(16);
    expect(checkInteger('--n', '-3', -5, 5)).toBe(-3);
    for (const bad of ['17', '0', '1.5', '1e2', '0x10', '', ' ', 'four']) {
      expect(() => checkInteger('--n', bad, 1, 16), bad).toThrow('--n must be a whole number from 1 to 16');
    }
  });
});

describe('checkText', () => {
  it('checks the length in characters and reads @file', async () => {
    expect(await checkText('--name', 'héllo', { min: 1, max: 5 })).toBe('héllo');
    await expect(checkText('--name', '', { min: 1 })).rejects.toThrow('--name must not be empty');
    await expect(checkText('--name', 'x'.repeat(101), { min: 1, max: 100 })).rejects.toThrow('--name must be at most 100 characters (got 101)');
    const t = tempConfig();
    const file = join(t.root, 'body.txt');
    writeFileSync(file, 'from a file');
    expect(await checkText('--body', `@${file}`, {})).toBe('from a file');
    await expect(checkText('--body', '@/no/such/file', {})).rejects.toThrow('--body cannot read "/no/such/file": no such file');
  });
});
