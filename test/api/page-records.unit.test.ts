// A page read a record at a time from its bytes (src/api/page-records.ts) gives what
// JSON.parse of the whole answer gives, or sends the answer to the whole parse: never
// another list, for any text a server may send.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PageRecords, scanPage } from '../../src/api/page-records.js';
import { MAX_JSON_DEPTH } from '../../src/api/response-errors.js';
import { fuzzRuns, fuzzSeed } from '../helpers/fuzz-runs.js';

class WholeParse extends Error {}

/** The page as the reader gives it: items and the rest, or why it did not. */
function read(text: string): { items: unknown[]; rest: Record<string, unknown> } | 'not scanned' | 'a record failed' {
  const bytes = Buffer.from(text, 'utf8');
  const scanned = scanPage(bytes, MAX_JSON_DEPTH);
  if (!scanned) return 'not scanned';
  try {
    const items = [
      ...new PageRecords(bytes, scanned.spans, () => {
        throw new WholeParse();
      }),
    ];
    return { items, rest: scanned.rest };
  } catch (err) {
    if (err instanceof WholeParse) return 'a record failed';
    throw err;
  }
}

/** What parseBody makes of the same bytes: their UTF-8 text (a lone surrogate of `text` is U+FFFD there), parsed whole. */
function whole(text: string): { items: unknown; rest: Record<string, unknown> } | undefined {
  try {
    const { items, ...rest } = JSON.parse(Buffer.from(text, 'utf8').toString('utf8')) as Record<string, unknown>;
    return { items, rest };
  } catch {
    return undefined;
  }
}

// Strings that break a naive scanner: quotes, backslashes, brackets, "items" itself.
const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('"', '\\', '\\"', '{', '}', '[', ']', '},{', '"items":[', 'é', '😀', '\u2028'),
  fc.string({ unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', 'a', 'é') }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const record = fc.oneof(fc.dictionary(tricky, value, { maxKeys: 6 }), fc.array(value, { maxLength: 4 }));
const envelope = fc.record({
  items: fc.array(record, { maxLength: 8 }),
  metadata: fc.record({ limit: fc.nat(), offset: fc.nat(), total: fc.nat() }),
  // Keys JSON writes without escapes (an escaped key at the top is read whole, below).
  others: fc.dictionary(tricky.filter((k) => k !== 'items' && k !== 'metadata' && JSON.stringify(k) === `"${k}"`), value, { maxKeys: 3 }),
  itemsFirst: fc.boolean(),
  indent: fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n'),
});

type Envelope = { items: unknown[]; metadata: unknown; others: Record<string, unknown>; itemsFirst: boolean; indent: string | number | undefined };
const textOf = (e: Envelope) =>
  JSON.stringify(e.itemsFirst ? { items: e.items, metadata: e.metadata, ...e.others } : { ...e.others, metadata: e.metadata, items: e.items }, null, e.indent);

describe('a page read record by record', () => {
  it('gives every record and the rest of the answer as JSON.parse does, however the server writes it', () => {
    fc.assert(
      fc.property(envelope, (e) => {
        const text = textOf(e);
        const got = read(text);
        expect(got).not.toBe('not scanned');
        expect(got).not.toBe('a record failed');
        const want = whole(text)!;
        expect(got).toEqual({ items: want.items, rest: { ...want.rest, items: [] } });
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed(20261128) },
    );
  });

  it('never gives another list than JSON.parse: a damaged answer is read whole (and refused) or read the same', () => {
    const damage = fc.tuple(envelope, fc.nat(), fc.constantFrom('', '"', '\\', '{', '}', '[', ']', ',', ':', 'x', '1', ' ', '"items":[', ']]'), fc.nat(3));
    fc.assert(
      fc.property(damage, ([e, at, insert, cut]) => {
        const text = textOf(e);
        const i = at % (text.length + 1);
        const damaged = text.slice(0, i) + insert + text.slice(i + cut);
        const got = read(damaged);
        const want = whole(damaged);
        if (typeof got === 'string') return; // read whole: parseBody says what is wrong
        expect(want, damaged).toBeDefined();
        expect(got).toEqual({ items: want!.items, rest: { ...want!.rest, items: [] } });
      }),
      { numRuns: fuzzRuns(1000), ...fuzzSeed(20261128) },
    );
  });

  it('sends odd answers to the whole parse: not an object, no items array, two of them, a bare value among records, too deep', () => {
    for (const text of [
      '',
      '[]',
      '"items"',
      '{"metadata":{}}',
      '{"items":{}}',
      '{"items":[1,2]}',
      '{"items":[{},1]}',
      '{"items":[],"items":[{}]}',
      '{"it\\u0065ms":[{"a":1}],"items":[]}',
      '{"items":[{}]} trailing',
      '{"items":[{}]}}',
      `{"items":[${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}]}`,
      '\ufeff{"items":[]}',
    ]) {
      expect(read(text), text).toBe('not scanned');
    }
  });

  it('reads an empty page, pages with spaces between records, and UTF-8 across them', () => {
    expect(read('{"items":[ ],"metadata":{"total":0}}')).toEqual({ items: [], rest: { items: [], metadata: { total: 0 } } });
    expect(read(' {"items" : [ {"Name":"Zoë"} ,\n{"Name":"李"} ] } ')).toEqual({ items: [{ Name: 'Zoë' }, { Name: '李' }], rest: { items: [] } });
  });

  it("reads each record's Uid from its bytes as JSON.parse does (the walk's repeat check, walk-ledger.ts)", () => {
    const uidValue = fc.oneof(tricky, fc.integer(), fc.constant(null));
    const withUid = fc.record({ Uid: uidValue, rest: fc.dictionary(tricky, value, { maxKeys: 3 }), first: fc.boolean() }).map((r) => (r.first ? { Uid: r.Uid, ...r.rest } : { ...r.rest, Uid: r.Uid }));
    const item = fc.oneof(withUid, record);
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), fc.boolean(), fc.constantFrom(undefined, 1), (items, escapeKeys, indent) => {
        let text = JSON.stringify({ items }, null, indent);
        // A key written with escapes is still the key Uid.
        if (escapeKeys) text = text.replaceAll('"Uid":', '"\\u0055id":');
        const bytes = Buffer.from(text, 'utf8');
        const scanned = scanPage(bytes, MAX_JSON_DEPTH);
        if (!scanned) return;
        const page = new PageRecords<unknown>(bytes, scanned.spans, () => {
          throw new WholeParse();
        }, scanned.uids);
        const parsed = (JSON.parse(text) as { items: unknown[] }).items;
        parsed.forEach((p, i) => {
          const isObject = typeof p === 'object' && p !== null && !Array.isArray(p);
          const uid = isObject ? (p as { Uid?: unknown }).Uid : undefined;
          expect(page.isObject(i), text).toBe(isObject);
          expect(page.uid(i), text).toBe(typeof uid === 'string' ? uid : undefined);
        });
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed(20261128) },
    );
    // Two Uid keys: the last one is the record's, as JSON.parse has it.
    const bytes = Buffer.from('{"items":[{"Uid":"a","Plan":{"Uid":"p"},"Uid":"b"},{"Uid":"c","U\\u0069d":"d"},{"Uid":5},["Uid"]]}');
    const scanned = scanPage(bytes, MAX_JSON_DEPTH)!;
    const page = new PageRecords<unknown>(bytes, scanned.spans, () => {
      throw new WholeParse();
    }, scanned.uids);
    expect([0, 1, 2, 3].map((i) => page.uid(i))).toEqual(['b', 'd', undefined, undefined]);
    expect(page.pick([1, 3]).uid(0)).toBe('d');
  });

  it('slices as an array does', () => {
    const bytes = Buffer.from('{"items":[{"n":0},{"n":1},{"n":2},{"n":3}]}');
    const page = new PageRecords<{ n: number }>(bytes, scanPage(bytes, MAX_JSON_DEPTH)!.spans, () => {
      throw new Error('unreachable');
    });
    expect(page.length).toBe(4);
    for (const [a, b] of [[0, 4], [1, 3], [2, 2], [3, 9], [5, 6]] as const) {
      expect([...page.slice(a, b)].map((r) => r.n)).toEqual([0, 1, 2, 3].slice(a, b));
    }
    expect([...page.slice(1).slice(1, 2)].map((r) => r.n)).toEqual([2]);
  });

  it('gives its bytes back once written, where they are a buffer of their own (Node 22 and later)', () => {
    // A buffer of its own, as a body gathered from the network is (small ones from Buffer.from come from a shared pool).
    const own = Buffer.from(new TextEncoder().encode(JSON.stringify({ items: [{ n: 0 }, { n: 1 }] })).buffer);
    const page = new PageRecords<{ n: number }>(own, scanPage(own, MAX_JSON_DEPTH)!.spans, () => {
      throw new Error('unreachable');
    });
    expect([...page].map((r) => r.n)).toEqual([0, 1]);
    page.release();
    if (typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function') {
      expect(own.length).toBe(0);
      expect(() => [...page]).toThrow('a page was read after its bytes were given back');
    } else expect(own.length).toBeGreaterThan(0); // Node 20: left to the collector
    // A view into a larger buffer (Node's pool of small buffers) is not its own: kept.
    const whole = Buffer.from(`xx${JSON.stringify({ items: [{ n: 2 }] })}`);
    const view = whole.subarray(2);
    const shared = new PageRecords<{ n: number }>(view, scanPage(view, MAX_JSON_DEPTH)!.spans, () => {
      throw new Error('unreachable');
    });
    shared.release();
    expect(whole.length).toBeGreaterThan(0);
    expect([...shared].map((r) => r.n)).toEqual([2]);
  });
});
