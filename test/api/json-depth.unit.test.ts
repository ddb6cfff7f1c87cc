// parseBody refuses JSON nested deeper than MAX_JSON_DEPTH (printing or redacting it
// would exhaust the call stack). It now checks the parsed value rather than scanning
// the text first (~5 ms of every list command): the same answers at the boundary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseBody, valueNestsDeeperThan } from '../../src/api/response-errors.js';

const json = { 'content-type': 'application/json' };
const body = (text: string, headers: Record<string, string> = json) => parseBody(200, headers, Buffer.from(text));
const nested = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
const tooDeep = `JSON nested more than ${MAX_JSON_DEPTH} levels deep`;

describe('JSON nesting limit', () => {
  it(`reads ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, arrays or objects, with or without a JSON content type`, () => {
    expect(body(nested(MAX_JSON_DEPTH))).toMatchObject({ kind: 'json' });
    expect(body(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'malformed', text: nested(MAX_JSON_DEPTH + 1), reason: tooDeep });
    const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    expect(body(objects(MAX_JSON_DEPTH), {})).toMatchObject({ kind: 'json' });
    expect(body(objects(MAX_JSON_DEPTH + 1), {})).toMatchObject({ kind: 'malformed', reason: tooDeep });
  });

  it('counts brackets inside strings as text', () => {
    const text = `{"a":${JSON.stringify('['.repeat(2000))},"b":[${nested(MAX_JSON_DEPTH - 2)}]}`;
    expect(body(text)).toMatchObject({ kind: 'json' });
  });

  it('says "nested too deep" for deep text that does not parse, and otherwise what it said before', () => {
    expect(body(`${'['.repeat(MAX_JSON_DEPTH + 1)}x`)).toMatchObject({ kind: 'malformed', reason: tooDeep });
    expect(body('{"a": nope}')).toEqual({ kind: 'malformed', text: '{"a": nope}' });
    expect(body('[not json', {})).toEqual({ kind: 'text', text: '[not json' });
    expect(body(nested(100_000))).toMatchObject({ kind: 'malformed', reason: tooDeep });
  });

  it('the parsed value nests exactly as deep as its text', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (v, limit) => valueNestsDeeperThan(v, limit) === nestsDeeperThan(JSON.stringify(v), limit)),
    );
  });
});

describe('a parsed answer lets its text go', () => {
  // A successful regular-expression match keeps its subject in the realm's last-match
  // record (what RegExp.input reads) until the next match: a check of the body by a
  // regular expression kept each page of an export alive past its parse, so that V8
  // promoted it and freed it only in a full collection (README "Performance").
  it('parseBody leaves no page text in the last-match record', () => {
    const text = `  ${JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ Uid: `acc_${i}`, Name: 'x'.repeat(2000) })) })}`;
    const parsed = parseBody(200, { 'content-type': 'application/json' }, Buffer.from(text));
    expect(parsed.kind).toBe('json');
    const lastSubject = () => (RegExp as unknown as { input: string }).input;
    expect(lastSubject()).not.toBe(text);
    // Without a JSON content type the body is still recognised by its first character.
    const untyped = `\n ${text}`;
    expect(parseBody(200, {}, Buffer.from(untyped)).kind).toBe('json');
    expect(lastSubject()).not.toBe(untyped);
    expect(parseBody(200, { 'content-type': 'text/html' }, Buffer.from('[1]')).kind).toBe('text');
  });
});
