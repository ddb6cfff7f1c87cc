// Pages of records whose keys are written with escapes, generated, for the hostile-data
// (in process) and hostile-server (the built binary, bo mcp, a pinned affected Node)
// suites. Each page first has a key ending in a backslash (`Tier03\\`), then keys of the
// same prefix written with other escapes (`Tier03\f`, `Tier03\"`, `\u` escapes of any
// character): what V8's key cache misread on Node 24.21 (nodejs/node#63785), each record
// read separately. The first key of SchemaLessData is the case's own, so that every case
// meets a fresh V8 map, as the bug needs.
import fc from 'fast-check';

export interface EscapedPage {
  /** The escaped keys, one a record, as they are. */
  keys: string[];
  /** The page's JSON text, as the server writes it. */
  body: string;
  /** The records, as the server means them. */
  records: Array<{ Uid: string; Name: string; SchemaLessData: Record<string, unknown> }>;
}

const tail = fc.string({ unit: fc.constantFrom('\\', '"', '\f', '\n', '\t', '\b', '\r', '/', '\u0000', '\u001b', '\u007f', '\u2028', '\u202e', 'é', '😀', 'x'), minLength: 1, maxLength: 4 });
const prefix = fc.constantFrom('Tier03', 'K', '');
/** How each character is written: by itself where JSON allows, as its short escape, or as `\u` with either case of hex. */
const writing = fc.array(fc.constantFrom('plain', 'plain', 'short', 'u', 'U'), { minLength: 1, maxLength: 7 });

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '/': '\\/' };

/** `key` as JSON text (quotes included), each character written as `ways` says in turn. */
export function writeKey(key: string, ways: string[]): string {
  let out = '"';
  let n = 0;
  // By code point: a surrogate pair is written whole, raw or as two escapes (the page is sent as UTF-8).
  for (const ch of key) {
    const way = ways[n++ % ways.length]!;
    const c = ch.charCodeAt(0);
    const must = c < 0x20 || ch === '"' || ch === '\\';
    if (way === 'plain' && !must) out += ch;
    else if ((way === 'short' || way === 'plain') && SHORT[ch]) out += SHORT[ch];
    else {
      for (const unit of ch.split('')) {
        const hex = unit.charCodeAt(0).toString(16).padStart(4, '0');
        out += `\\u${way === 'U' ? hex.toUpperCase() : hex}`;
      }
    }
  }
  return `${out}"`;
}

/** A page whose records' SchemaLessData hold `slot` (a key of the case's own), then an escaped key. */
export function escapedPage(slot: () => string): fc.Arbitrary<EscapedPage> {
  return fc
    .tuple(prefix, fc.array(tail, { minLength: 1, maxLength: 6 }), fc.array(writing, { minLength: 7, maxLength: 7 }))
    .map(([p, tails, ways]) => {
      const first = slot();
      // The poison first, then two keys it turned into `${p}\\` (prefixes written plain), then the others.
      const keys = [`${p}\\`, `${p}"`, `${p}\f`, ...tails.map((t) => p + t)];
      const raw = keys.map((k, i) => (i < 3 ? writeKey(k, ['plain']) : writeKey(k, ways[i % ways.length]!)));
      const texts = raw.map((r, i) => `{"Uid":"acc_${i}","Name":"N${i}","SchemaLessData":{"${first}":"x",${r}:${i}}}`);
      const records = keys.map((k, i) => {
        const data: Record<string, unknown> = { [first]: 'x' };
        Object.defineProperty(data, k, { value: i, writable: true, enumerable: true, configurable: true });
        return { Uid: `acc_${i}`, Name: `N${i}`, SchemaLessData: data };
      });
      return { keys, records, body: `{"metadata":{"limit":100,"offset":0,"total":${texts.length}},"items":[${texts.join(',')}]}` };
    });
}
