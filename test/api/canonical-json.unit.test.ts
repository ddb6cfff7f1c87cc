// A record's bytes are copied to stdout as they are only when they are exactly what
// `bo` would print for it (src/api/canonical-json.ts): JSON.stringify of JSON.parse.
// The check may say no to text that would have passed (that costs a parse), never yes
// to text that would not (that would print another record than before).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isCanonicalJson } from '../../src/api/canonical-json.js';
import { PageRecords, scanPage } from '../../src/api/page-records.js';
import { MAX_JSON_DEPTH } from '../../src/api/response-errors.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** What `bo` printed for these bytes before: JSON.stringify of their parsed UTF-8 text, or undefined when they do not parse. */
function printed(bytes: Buffer): string | undefined {
  try {
    return JSON.stringify(JSON.parse(bytes.toString('utf8')));
  } catch {
    return undefined;
  }
}

function check(bytes: Buffer): void {
  // Inside a larger buffer, as a page holds it: what lies around the span must not count.
  const framed = Buffer.concat([Buffer.from('[1,"'), bytes, Buffer.from('"}]')]);
  const yes = isCanonicalJson(framed, 4, 4 + bytes.length);
  expect(isCanonicalJson(bytes, 0, bytes.length)).toBe(yes);
  if (yes) expect(printed(bytes), bytes.toString('utf8')).toBe(bytes.toString('utf8'));
}

// JSON texts written every way the grammar allows: spaces, any escape in either case,
// numbers in any form, keys repeated or of digits, controls and lone surrogates.
const space = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n ');
const char = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.constantFrom('"', '\\', '/', '\u0000', '\u0008', '\u001b', '\u001f', '\u007f', '\u0085', '\u2028', 'é', '😀', '\ud800', '\udfff', 'a'),
);
const escaped = (ch: string, how: number): string => {
  const code = ch.charCodeAt(0);
  if (how === 1) return `\\u${code.toString(16).padStart(4, '0')}`;
  if (how === 2) return `\\u${code.toString(16).padStart(4, '0').toUpperCase()}`;
  if (how === 3 && ch === '/') return '\\/';
  return JSON.stringify(ch).slice(1, -1);
};
const jsonString = fc
  .array(fc.tuple(char, fc.nat(5)), { maxLength: 5 })
  .map((parts) => `"${parts.map(([s, how]) => [...s].map((ch) => escaped(ch, how)).join('')).join('')}"`);
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const jsonNumber = fc.oneof(
  fc.tuple(fc.boolean(), digits(1, 18), fc.option(digits(1, 9)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)))).map(
    ([minus, int, frac, exp]) => `${minus ? '-' : ''}${int.replace(/^0+(?=.)/, '')}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom('0', '-0', '0.0', '1.50', '0.000001', '0.0000001', '-0.0000001', '1e21', '123456789012345', '1234567890123456', '9007199254740993', '0.1', '1.0000001'),
);
const key = fc.oneof(jsonString, fc.constantFrom('"0"', '"1"', '"10"', '"01"', '""', '"a"', '"__proto__"', '"toJSON"'));
const text: fc.Arbitrary<string> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    jsonString,
    jsonNumber,
    fc.constantFrom('true', 'false', 'null'),
    fc.tuple(fc.array(fc.tuple(tie('v') as fc.Arbitrary<string>, space), { maxLength: 4 }), space).map(([items, s]) => `[${s}${items.map(([v, t]) => `${v}${t}`).join(',')}]`),
    fc
      .tuple(fc.array(fc.tuple(key, space, tie('v') as fc.Arbitrary<string>), { maxLength: 4 }), fc.boolean())
      .map(([members, twice]) => {
        const all = twice && members.length > 0 ? [...members, members[0]!] : members;
        return `{${all.map(([k, s, v]) => `${k}${s}:${v}`).join(',')}}`;
      }),
  ),
})).v as fc.Arbitrary<string>;

describe('the text a record is copied as', () => {
  it('is taken only when it is exactly what JSON.stringify writes for its value, for JSON written any way', () => {
    fc.assert(
      fc.property(text, (t) => check(Buffer.from(t, 'utf8'))),
      { numRuns: fuzzRuns(3000) },
    );
  });

  it('is never taken for damaged text: bytes cut, doubled or replaced anywhere, invalid UTF-8 included', () => {
    const damage = fc.tuple(text, fc.nat(), fc.nat(3), fc.uint8Array({ maxLength: 3 }));
    fc.assert(
      fc.property(damage, ([t, at, cut, insert]) => {
        const bytes = Buffer.from(t, 'utf8');
        const i = at % (bytes.length + 1);
        check(Buffer.concat([bytes.subarray(0, i), insert, bytes.subarray(i + cut)]));
      }),
      { numRuns: fuzzRuns(3000) },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => check(Buffer.from(bytes))),
      { numRuns: fuzzRuns(1000) },
    );
  });

  it('is taken for what JSON.stringify writes of ordinary records: names in any script, emoji, controls, whole numbers and decimals', () => {
    const plainKey = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !/^\d*$/.test(k));
    const plain = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'grapheme' }),
        fc.string(),
        fc.integer({ min: -1e14, max: 1e14 }),
        fc.integer({ min: -99999999, max: 99999999 }).map((n) => n / 100),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(plainKey, tie('v'), { maxKeys: 5 }),
      ),
    })).v;
    fc.assert(
      fc.property(plain, (v) => {
        const t = JSON.stringify(v);
        // A lone surrogate is written as an escape JSON.stringify uses, which the check leaves to the parse.
        fc.pre(!/\\ud[89a-f]/.test(t));
        expect(isCanonicalJson(Buffer.from(t), 0, Buffer.byteLength(t)), t).toBe(true);
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });

  it('says no to each way a text can differ from what JSON.stringify writes', () => {
    for (const t of [
      '{"a": 1}',
      ' {"a":1}',
      '{"a":1} ',
      '{"a":1,"a":2}',
      '{"b":1,"1":2}',
      '{"":1}',
      '{"a":1.0}',
      '{"a":1e3}',
      '{"a":-0}',
      '{"a":0.0000001}',
      '{"a":1234567890123456}',
      '{"a":"\\/"}',
      '{"a":"\\u0041"}',
      '{"a":"\\u001B"}',
      '{"a":"\\u0009"}',
      '{"a":"\\ud83d\\ude00"}',
      '{"a":"\u0001"}',
      '{"a":01}',
      '{"a":tru}',
      '{"a":[1,]}',
      '{"a":1',
      '[',
      '',
      `${'['.repeat(65)}${']'.repeat(65)}`,
    ]) {
      expect(isCanonicalJson(Buffer.from(t), 0, Buffer.byteLength(t)), t).toBe(false);
    }
    expect(isCanonicalJson(Buffer.from([0x22, 0xc3, 0x28, 0x22]), 0, 4)).toBe(false); // invalid UTF-8
    expect(isCanonicalJson(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), 0, 5)).toBe(false); // a surrogate in UTF-8
    for (const t of ['{"a":"\\u001b","b":"\\n","c":"é😀\u2028\u007f"}', '[0,-1,0.5,0.000001,123456789012345,-9.25,true,false,null,{},[]]', `${'['.repeat(64)}${']'.repeat(64)}`]) {
      expect(isCanonicalJson(Buffer.from(t), 0, Buffer.byteLength(t)), t).toBe(true);
    }
  });

  it('lets a page hand its records on as their bytes, or as values when they are written otherwise', () => {
    const bytes = Buffer.from('{"items":[{"n":1},{"n": 2},{"n":3.0},{"n":"\\u0041"}]}');
    const page = new PageRecords<{ n: unknown }>(bytes, scanPage(bytes, MAX_JSON_DEPTH)!.spans, () => {
      throw new Error('unreachable');
    });
    const got: string[] = [];
    const sink = {
      push: (v: { n: unknown }) => (got.push(`value ${JSON.stringify(v)}`), false),
      pushText: (b: Buffer, s: number, e: number) => (got.push(`text ${b.toString('utf8', s, e)}`), false),
    };
    for (let i = 0; i < page.length; i++) page.writeJson(i, sink.push, sink.pushText);
    expect(got).toEqual(['text {"n":1}', 'value {"n":2}', 'value {"n":3}', 'value {"n":"A"}']);
    got.length = 0;
    for (let i = 0; i < 2; i++) page.slice(2).writeJson(i, sink.push);
    expect(got).toEqual(['value {"n":3}', 'value {"n":"A"}']);
  });
});
