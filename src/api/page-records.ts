// A page of a walk read from its bytes a record at a time (README "Performance"). Parsed
// whole, a page's hundred records (and its text, while JSON.parse runs) are alive at
// nearly every young-generation collection of an export, and V8 grows its young
// generation by the bytes that survive them: the peak memory then depends on the
// length of the export. Read here, only the record being written is alive; the page
// itself is a buffer outside V8's heap.

import { isCanonicalJson } from './canonical-json.js';
import { giveBack } from './give-back.js';
import { parseJson } from './json-parse.js';
import type { RecordPage } from './record-source.js';

/** The items of a page, parsed one by one as they are read. */
export class PageRecords<T> implements RecordPage<T> {
  constructor(
    private readonly bytes: Buffer,
    /** Each record's start and end offsets in `bytes`, in pairs. */
    private readonly spans: readonly number[],
    /** What the whole answer's parse would have thrown, for a record that does not parse. */
    private readonly failed: () => never,
    /**
     * Where each record's top-level Uid string is (scanPage), in pairs: its text's start
     * and end, or -1 (none: no Uid key, or not a string), or -2 (read by parsing the
     * record: escapes in the key or the value). Without it every Uid is read by parsing.
     */
    private readonly uids?: readonly number[],
  ) {}

  /** Gives the page's bytes back at once (give-back.ts). Records are not read after this. */
  release(): void {
    giveBack(this.bytes);
  }

  get length(): number {
    return this.spans.length / 2;
  }

  slice(start: number, end: number = this.length): PageRecords<T> {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    return new PageRecords<T>(this.bytes, this.spans.slice(2 * from, 2 * to), this.failed, this.uids?.slice(2 * from, 2 * to));
  }

  /** The records at these indices (ascending), as a page of their own. */
  pick(indices: readonly number[]): PageRecords<T> {
    const spans: number[] = [];
    const uids: number[] | undefined = this.uids ? [] : undefined;
    for (const i of indices) {
      spans.push(this.spans[2 * i]!, this.spans[2 * i + 1]!);
      uids?.push(this.uids![2 * i]!, this.uids![2 * i + 1]!);
    }
    return new PageRecords<T>(this.bytes, spans, this.failed, uids);
  }

  *[Symbol.iterator](): Iterator<T> {
    this.checkKept();
    for (let i = 0; i < this.length; i++) yield this.parse(i);
  }

  /** The `n`th record, parsed. */
  at(n: number): T {
    this.checkKept();
    return this.parse(n);
  }

  /** Whether the `n`th item is a JSON object (scanPage leaves only objects and arrays). */
  isObject(n: number): boolean {
    this.checkKept();
    return this.bytes[this.spans[2 * n]!] === 0x7b;
  }

  /** The `n`th record's top-level Uid when it is a string, read without parsing the record when the scan found it plain. */
  uid(n: number): string | undefined {
    this.checkKept();
    const start = this.uids ? this.uids[2 * n]! : -2;
    if (start >= 0) return this.bytes.toString('utf8', start, this.uids![2 * n + 1]);
    if (start === -1 || !this.isObject(n)) return undefined;
    const uid = (this.parse(n) as { Uid?: unknown }).Uid;
    return typeof uid === 'string' ? uid : undefined;
  }

  /** The `n`th record's bytes, as the server sent them. */
  text(n: number): Buffer {
    this.checkKept();
    return this.bytes.subarray(this.spans[2 * n], this.spans[2 * n + 1]);
  }

  /**
   * Writes the `n`th record with no parse when it can: as its bytes when they are exactly
   * the text JSON.stringify writes for its value (canonical-json.ts) and `asText` is
   * given, else as its value. Returns what the writer returns.
   */
  writeJson(n: number, asValue: (value: T) => boolean, asText?: (bytes: Buffer, start: number, end: number) => boolean): boolean {
    this.checkKept();
    const start = this.spans[2 * n]!;
    const end = this.spans[2 * n + 1]!;
    if (asText && isCanonicalJson(this.bytes, start, end)) return asText(this.bytes, start, end);
    return asValue(this.parse(n));
  }

  private parse(i: number): T {
    try {
      return parseJson(this.bytes.toString('utf8', this.spans[2 * i], this.spans[2 * i + 1])) as T;
    } catch {
      this.failed();
    }
  }

  private checkKept(): void {
    if (this.spans.length > 0 && this.bytes.length === 0) throw new Error('a page was read after its bytes were given back');
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Each byte's part in the scan: 0 nothing, 1 a string's quote, 2 an opening bracket, 3 a closing one. */
const ROLE = new Uint8Array(256);
ROLE[QUOTE] = 1;
ROLE[0x7b] = ROLE[0x5b] = 2;
ROLE[0x7d] = ROLE[0x5d] = 3;
const ITEMS = Buffer.from('items');
const UID = Buffer.from('Uid');

function hasEscape(b: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k] === BACKSLASH) return true;
  return false;
}

/** The index of the quote that ends the string whose content starts at `i`, or -1. */
function stringEnd(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A JSON object's `items` array found in its bytes, its records' spans, and the rest of
 * the object parsed with `items` empty; undefined for anything else (not an object, no
 * such array or two of them, brackets that do not balance, nesting deeper than
 * `maxDepth`), which the caller parses whole to say what is wrong with it.
 */
export function scanPage(bytes: Buffer, maxDepth: number): { spans: number[]; uids: number[]; rest: Record<string, unknown> } | undefined {
  const b = bytes;
  const n = b.length;
  let i = 0;
  while (i < n && isSpace(b[i]!)) i++;
  if (b[i] !== 0x7b) return undefined;
  const spans: number[] = [];
  const uids: number[] = [];
  let uidStart = -1; // the record at hand's Uid (PageRecords.uids)
  let uidEnd = -1;
  let depth = 0;
  let start = -1;
  let open = -1; // where the items array opens
  let close = -1; // just after it closes
  let afterKey = false; // the last string at depth 1 was the key "items"
  for (; i < n; i++) {
    const role = ROLE[b[i]!];
    if (role === 0) continue;
    if (role === 1) {
      const end = stringEnd(b, i + 1);
      if (end < 0) return undefined;
      if (depth === 1) {
        let j = end + 1;
        while (j < n && isSpace(b[j]!)) j++;
        afterKey = false;
        if (b[j] === COLON) {
          // A key written with escapes might be "items" too: read whole.
          if (hasEscape(b, i + 1, end)) return undefined;
          if (end - i - 1 === ITEMS.length && ITEMS.equals(b.subarray(i + 1, end))) {
            if (open !== -1) return undefined;
            afterKey = true;
          }
        }
      } else if (depth === 3 && open >= 0 && close < 0) {
        // A key of a record: where its Uid is, the last such key winning as in JSON.parse.
        let j = end + 1;
        while (j < n && isSpace(b[j]!)) j++;
        if (b[j] === COLON) {
          if (hasEscape(b, i + 1, end)) uidStart = -2;
          else if (end - i - 1 === UID.length && UID.equals(b.subarray(i + 1, end))) {
            j++;
            while (j < n && isSpace(b[j]!)) j++;
            const valueEnd = b[j] === QUOTE ? stringEnd(b, j + 1) : -1;
            uidStart = valueEnd < 0 ? -1 : hasEscape(b, j + 1, valueEnd) ? -2 : j + 1;
            uidEnd = valueEnd;
          }
        }
      }
      i = end;
      continue;
    }
    const inItems = open >= 0 && close < 0;
    if (role === 2) {
      if (depth === 1 && afterKey) {
        afterKey = false;
        if (b[i] !== 0x5b) return undefined;
        open = i;
      } else if (depth === 2 && inItems) {
        start = i;
        uidStart = uidEnd = -1;
      }
      if (++depth > maxDepth) return undefined;
    } else {
      if (--depth < 0) return undefined;
      if (depth === 2 && inItems) {
        spans.push(start, i + 1);
        uids.push(uidStart, uidEnd);
      }
      else if (depth === 1 && inItems) {
        if (b[i] !== 0x5d) return undefined;
        close = i + 1;
      }
    }
  }
  if (depth !== 0 || close < 0) return undefined;
  return scanned(b, open, close, spans, uids);
}

/**
 * scanPage's answer once the items array is found between `open` and `close`: the
 * page's other members (metadata) parsed without it, or undefined to read it whole.
 */
function scanned(b: Buffer, open: number, close: number, spans: number[], uids: number[]): ReturnType<typeof scanPage> {
  let rest: unknown;
  try {
    rest = parseJson(`${b.toString('utf8', 0, open)}[]${b.toString('utf8', close)}`);
  } catch {
    return undefined;
  }
  if (typeof rest !== 'object' || rest === null || Array.isArray(rest)) return undefined;
  // A record that is not an object or array (a bare number) has no span of its own.
  if (!onlySpans(b, open, close, spans)) return undefined;
  return { spans, uids, rest: rest as Record<string, unknown> };
}

/** Whether the array holds only the spans found: between them, commas and spaces. */
function onlySpans(b: Buffer, open: number, end: number, spans: readonly number[]): boolean {
  let at = open + 1;
  for (let k = 0; k <= spans.length; k += 2) {
    const next = k < spans.length ? spans[k]! : end - 1;
    let commas = 0;
    for (let i = at; i < next; i++) {
      if (b[i] === 0x2c) commas++;
      else if (!isSpace(b[i]!)) return false;
    }
    if (commas !== (k === 0 || k === spans.length ? 0 : 1)) return false;
    at = k < spans.length ? spans[k + 1]! : end;
  }
  return true;
}
