import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes, jsonText, neutralise } from '../../src/api/neutralise.js';
import { UNSAFE_IN_JSON, UNSAFE_IN_TEXT, allCases, escapedCases, keptCases, sequenceCases } from './hostile-text.js';

describe('neutralise (text output)', () => {
  it.each(escapedCases.map((c) => [c.name, c] as const))('shows %s escaped, visibly', (_name, c) => {
    expect(neutralise(`a${c.raw}b`)).toBe(`a${c.shown}b`);
  });

  it.each(sequenceCases.map((c) => [c.name, c] as const))('drops the whole %s sequence, payload included', (_name, c) => {
    const out = neutralise(`a${c.raw}\tb`);
    expect(out).toBe('a b');
    expect(out).not.toMatch(/pwned|\]0;|\[2J/);
  });

  it.each(keptCases.map((c) => [c.name, c] as const))('keeps %s as text', (_name, c) => {
    expect(neutralise(`a${c.raw}b`)).toBe(`a${c.shown}b`);
  });

  it('drops an unterminated OSC to the end, as a terminal would swallow it', () => {
    expect(neutralise('name\u001b]0;pwned')).toBe('name');
  });

  it('never leaves an unsafe character, whatever the input', () => {
    const alphabet = fc.constantFrom('a', ' ', '[', ']', ';', '\\', 'P', '0', ...allCases.map((c) => c.raw));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (parts) => {
        expect(neutralise(parts.join(''))).not.toMatch(UNSAFE_IN_TEXT);
      }),
      { numRuns: 500 },
    );
  });
});

describe('jsonText (--json, --jsonl, bo api)', () => {
  it('escapes DEL, C1, bidirectional, invisible and tag characters, joiners included, and parses back to the same value', () => {
    const value: Record<string, unknown> = {};
    for (const [i, c] of [...allCases, ...range(0x80, 0x9f)].entries()) value[`k${i}${c.raw}`] = [`v${c.raw}`, { n: c.raw }];
    const text = jsonText(value);
    expect(text).not.toMatch(UNSAFE_IN_JSON);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\u200c');
    expect(text).toContain('\\udb40\\udc41');
    expect(JSON.parse(text)).toEqual(value);
    const pretty = jsonText(value, 2);
    expect(pretty).not.toMatch(UNSAFE_IN_JSON);
    expect(JSON.parse(pretty)).toEqual(value);
  });

  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const text = jsonText({ [s]: s });
        expect(text).not.toMatch(UNSAFE_IN_JSON);
        expect(JSON.parse(text)).toEqual({ [s]: s });
      }),
      { numRuns: 1000 },
    );
  });
});

// Characters of a string: ASCII, letters and symbols that leave a chunk plain, and every
// character JSON output must escape (and the controls JSON escapes itself).
const PLAIN_OR_NOT = fc.oneof(
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
  fc.constantFrom('é', 'ß', 'Müller', '中', '😀', '€', '\u00a0', '£', '’', '…'),
  fc.constantFrom(...[...allCases, ...range(0x7f, 0x9f)].map((c) => c.raw).filter((raw) => raw !== '')),
);

describe('JSON text as the bytes a list writes (jsonBytes)', () => {
  it('holds nothing jsonText escapes, and parses back to the same values, whether or not the bytes test passes', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ stringUnit: PLAIN_OR_NOT }), { minLength: 1, maxLength: 4 }), (values) => {
        const text = values.map((v) => JSON.stringify(v)).join('\n');
        const written = jsonBytes(Buffer.from(text)).toString('utf8');
        expect(written).not.toMatch(UNSAFE_IN_JSON);
        expect(written).toBe(values.map((v) => jsonText(v)).join('\n'));
        expect(written.split('\n').map((line) => JSON.parse(line))).toEqual(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 2000 },
    );
    for (const text of ['{"a":"\u202e"}', '{"a":"\u007f"}', '{"a":"\u0085"}', '{"a":"\u061c"}', '{"a":"\ufeff"}', '{"a":"\u{e0041}"}']) {
      expect(jsonBytes(Buffer.from(text)).toString('utf8'), text).not.toMatch(UNSAFE_IN_JSON);
    }
    for (const text of ['{"é":"Müller, 中, 😀"}', '{"a":"plain"}', '{"a":"tab\\tnew\\nline \\"q\\" \\\\ /"}']) {
      expect(jsonBytes(Buffer.from(text)).toString('utf8'), text).toBe(text);
    }
  });
});

function range(from: number, to: number) {
  return Array.from({ length: to - from + 1 }, (_, i) => ({ name: '', raw: String.fromCharCode(from + i), shown: '' }));
}
