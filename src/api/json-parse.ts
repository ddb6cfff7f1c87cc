// The one parse of JSON text that came from a server (a page's records and the rest of
// it, a whole answer, what `bo mcp` reads back of a command's --json) or from a batch's
// records: JSON.parse, but for the texts this runtime would misread.
//
// Some V8 releases (seen on Node 24.15, 24.21, 25.9, 26.3-26.5: nodejs/node#63785) read an object
// key written with escapes through the map transition an earlier, separate JSON.parse
// left behind, comparing the raw text with it: once `{"Plan":1,"Tier03\\":1}` was read,
// a later `{"Plan":1,"Tier03\f":1}` or `{"Plan":1,"Tier03\"":1}` comes back with the key
// `Tier03\`. bo reads each record of a page separately, so one record's key could
// rename another's. On such a runtime a text with a backslash in a key is read by
// json-reader.ts instead; every other text keeps JSON.parse (a key without a backslash
// is never misread: the misread needs a raw backslash where the key it is taken for has
// its last character).

import { readJson } from './json-reader.js';

let misreads: boolean | undefined;

/**
 * Whether this runtime's JSON.parse misreads escaped keys. Found once, when first
 * asked (microseconds): keys after a first key of the probe's own, a random one no
 * server's key can be, so that the object's map is fresh (one transition, as the bug
 * needs) and the transitions the probe leaves behind are on a map no other text reaches.
 */
export function misreadsEscapedKeys(): boolean {
  if (misreads === undefined) {
    const probe = `bo escaped-key probe ${Math.random().toString(36).slice(2)}`;
    const misread = (variant: string, escaped: string, expected: string): boolean => {
      JSON.parse(`{"${probe}${variant}":0,"\\\\":0}`);
      const keys = Object.keys(JSON.parse(`{"${probe}${variant}":0,"${escaped}":0}`) as object);
      return keys[1] !== expected;
    };
    misreads = misread('a', '\\"', '"') || misread('b', '\\f', '\f');
  }
  return misreads;
}

/** JSON.parse(text), read by bo's own reader where this runtime would misread a key. */
export function parseJson(text: string): unknown {
  if (text.indexOf('\\') === -1 || !misreadsEscapedKeys() || !hasEscapedKey(text)) return JSON.parse(text);
  return readJson(text);
}

/**
 * Whether a string followed by a colon (an object's key) holds a backslash. The strings
 * are found with indexOf (~0.1 ms a page of 100 records); for a text that is not JSON
 * the answer does not matter, JSON.parse then says what is wrong with it.
 */
export function hasEscapedKey(text: string): boolean {
  const n = text.length;
  let backslash = text.indexOf('\\');
  for (let open = text.indexOf('"'); open >= 0 && backslash >= 0; open = text.indexOf('"', open + 1)) {
    // The string's closing quote: the next one after an even run of backslashes.
    let end = open;
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
    }
    if (backslash < open) backslash = text.indexOf('\\', open);
    if (backslash > open && backslash < end) {
      let i = end + 1;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
        i++;
      }
      if (text.charCodeAt(i) === 0x3a) return true;
    }
    open = end;
  }
  return false;
}
