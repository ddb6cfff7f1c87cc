// Whether a record's bytes are already what `bo` would print for it: exactly
// JSON.stringify's text of JSON.parse's value. An export then copies them to stdout as
// they are (page-records.ts), where parsing and writing each record again allocated
// several times its size: the garbage that made the young generation grow with the
// length of an export (README "Performance"). The test is strict and answers false
// for anything it is not sure of, which takes the parse-and-write path as before:
//
// - no whitespace outside strings;
// - strings: well-formed UTF-8, no raw control character, and only the escapes
//   JSON.stringify writes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00xx` in
//   lower case for the other controls);
// - numbers: no exponent, no trailing zero in a fraction, no `-0`, at most 15
//   significant digits (any such decimal reads back as the same digits), and no more
//   than 5 zeros after `0.` (JavaScript writes 1e-7 with an exponent);
// - object keys: no key twice (the parse keeps the last value at the first place) and
//   no key of digits only (JavaScript puts array-index keys first);
// - at most MAX_DEPTH levels and MAX_KEYS keys an object (duplicates are looked for
//   key by key).

const MAX_DEPTH = 64;
const MAX_KEYS = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// Reused between calls (one record at a time): the container open at each depth (1 an
// object, 2 an array), where its keys begin in `keys`, and the keys of the objects
// open, as start/end pairs.
const kind = new Uint8Array(MAX_DEPTH + 1);
const keyBase = new Int32Array(MAX_DEPTH + 1);
let keys = new Int32Array(2 * 64);

/** Whether `b[start, end)` is exactly JSON.stringify(JSON.parse(its text)). */
export function isCanonicalJson(b: Uint8Array, start: number, end: number): boolean {
  let depth = 0;
  let keyTop = 0;
  let i = start;
  for (;;) {
    // A value at i.
    if (i >= end) return false;
    const c = b[i]!;
    if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return false;
      kind[depth] = c === 0x7b ? 1 : 2;
      keyBase[depth] = keyTop;
      i++;
      if (i < end && b[i] === c + 2) {
        // {} or []
        depth--;
        i++;
      } else if (kind[depth] === 1) {
        const after = key(b, i, end, keyBase[depth]!, keyTop);
        if (after < 0) return false;
        keyTop += 2;
        i = after;
        continue;
      } else continue;
    } else if (c === QUOTE) {
      i = stringEnd(b, i + 1, end);
      if (i < 0) return false;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = numberEnd(b, i, end);
      if (i < 0) return false;
    } else if (c === 0x74) {
      if (!word(b, i, end, TRUE)) return false;
      i += 4;
    } else if (c === 0x66) {
      if (!word(b, i, end, FALSE)) return false;
      i += 5;
    } else if (c === 0x6e) {
      if (!word(b, i, end, NULL)) return false;
      i += 4;
    } else return false;
    // After a value: close containers, or go on to the next member.
    for (;;) {
      if (depth === 0) return i === end;
      if (i >= end) return false;
      const d = b[i];
      if (d === 0x2c) {
        i++;
        if (kind[depth] === 1) {
          if (keyTop - keyBase[depth]! >= 2 * MAX_KEYS) return false;
          const after = key(b, i, end, keyBase[depth]!, keyTop);
          if (after < 0) return false;
          keyTop += 2;
          i = after;
        }
        break;
      }
      if (d !== (kind[depth] === 1 ? 0x7d : 0x5d)) return false;
      keyTop = keyBase[depth]!;
      depth--;
      i++;
    }
  }
}

/**
 * A key and its colon at `i`: where its value starts, or -1 for a key that is not
 * canonical, of digits only, or already among the keys at `keys[from, to)`.
 */
function key(b: Uint8Array, i: number, end: number, from: number, to: number): number {
  if (b[i] !== QUOTE) return -1;
  const close = stringEnd(b, i + 1, end);
  if (close < 0 || b[close] !== 0x3a) return -1;
  const s = i + 1;
  const e = close - 1;
  let digits = true;
  for (let k = s; k < e && digits; k++) digits = b[k]! >= 0x30 && b[k]! <= 0x39;
  if (digits) return -1; // also the empty key: harmless, but rare enough to read whole
  for (let k = from; k < to; k += 2) {
    const ks = keys[k]!;
    if (keys[k + 1]! - ks !== e - s) continue;
    let same = true;
    for (let m = 0; m < e - s && same; m++) same = b[ks + m] === b[s + m];
    if (same) return -1;
  }
  if (to + 2 > keys.length) {
    const more = new Int32Array(2 * keys.length);
    more.set(keys);
    keys = more;
  }
  keys[to] = s;
  keys[to + 1] = e;
  return close + 1;
}

/** Escapes JSON.stringify writes with a letter: b f n r t for 08 0C 0A 0D 09, and `"` `\`. */
const SHORT = new Uint8Array(128);
for (const ch of 'bfnrt"\\') SHORT[ch.charCodeAt(0)] = 1;

/**
 * Just past the quote that ends the string whose content starts at `i`, or -1 when
 * the string is not as JSON.stringify writes it.
 */
function stringEnd(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c < 0x80) {
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      if (i + 2 > end) return -1;
      const e = b[i + 1]!;
      if (e < 128 && SHORT[e] === 1) {
        i += 2;
        continue;
      }
      // \u00xx for a control without a letter of its own, in lower case.
      if (e !== 0x75 || i + 6 > end || b[i + 2] !== 0x30 || b[i + 3] !== 0x30) return -1;
      const hi = b[i + 4]!;
      const lo = b[i + 5]!;
      if (hi !== 0x30 && hi !== 0x31) return -1;
      const low = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x61 + 10 : -1;
      if (low < 0) return -1;
      const code = (hi - 0x30) * 16 + low;
      if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return -1;
      i += 6;
      continue;
    }
    const n = utf8Length(b, i, end);
    if (n < 0) return -1;
    i += n;
  }
  return -1;
}

function cont(c: number | undefined): boolean {
  return c !== undefined && (c & 0xc0) === 0x80;
}

/** The length of the well-formed UTF-8 sequence at `i` (no overlong form, no surrogate), or -1. */
function utf8Length(b: Uint8Array, i: number, end: number): number {
  const c = b[i]!;
  if (c >= 0xc2 && c <= 0xdf) return i + 2 <= end && cont(b[i + 1]) ? 2 : -1;
  if (c >= 0xe0 && c <= 0xef) {
    if (i + 3 > end || !cont(b[i + 1]) || !cont(b[i + 2])) return -1;
    const d = b[i + 1]!;
    if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f)) return -1;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (i + 4 > end || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) return -1;
    const d = b[i + 1]!;
    if ((c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f)) return -1;
    return 4;
  }
  return -1;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** Just past the number at `i`, or -1 when JavaScript would write it otherwise. */
function numberEnd(b: Uint8Array, i: number, end: number): number {
  const first = i;
  if (b[i] === 0x2d) i++;
  let significant = 0;
  let nonZero = false;
  if (i < end && b[i] === 0x30) i++;
  else if (i < end && isDigit(b[i])) {
    while (i < end && isDigit(b[i])) {
      i++;
      significant++;
    }
    nonZero = true;
  } else return -1;
  if (i < end && b[i] === 0x2e) {
    i++;
    if (i >= end || !isDigit(b[i])) return -1;
    // Zeros after `0.` before the first other digit (`0.000001` is written so, 1e-7 is not).
    let zeros = 0;
    while (i < end && isDigit(b[i])) {
      if (nonZero) significant++;
      else if (b[i] === 0x30) zeros++;
      else if (zeros > 5) return -1;
      else {
        nonZero = true;
        significant++;
      }
      i++;
    }
    if (b[i - 1] === 0x30) return -1; // a trailing zero
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) return -1;
  if (!nonZero && b[first] === 0x2d) return -1; // -0
  if (significant > 15) return -1;
  return i;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function word(b: Uint8Array, i: number, end: number, w: readonly number[]): boolean {
  if (i + w.length > end) return false;
  for (let k = 0; k < w.length; k++) if (b[i + k] !== w[k]) return false;
  return true;
}
