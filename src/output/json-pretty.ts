// JSON for people: compact JSON text (JSON.stringify's, or jq's -c output) laid out as
// jq and gh lay it out on a terminal, two spaces an indent, and coloured (style.ts).
// It works on the text, not on parsed values, so a number keeps the digits jq printed
// (`1.50`, `100000000000000000001`). Strings are copied as their JSON text: their
// controls are escaped already (JSON's own escapes, and escapeJson for the rest).

import type { JsonColours } from './style.js';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * `text` (one compact JSON value) indented, each line after the first starting with
 * `indent` more; no final newline. Empty arrays and objects stay `[]` and `{}`.
 */
export function prettyJson(text: string, colours: JsonColours, indent = ''): string {
  let out = '';
  let depth = 0;
  const pad = () => `\n${indent}${'  '.repeat(depth)}`;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      const token = text.slice(i, end);
      i = end;
      // A key is a string followed by a colon.
      if (text[i] === ':') {
        out += `${colours.key(token)}: `;
        i++;
      } else out += colours.string(token);
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      if (text[i + 1] === close) {
        out += ch + close;
        i += 2;
      } else {
        depth++;
        out += ch + pad();
        i++;
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += pad() + ch;
      i++;
    } else if (ch === ',') {
      out += `,${pad()}`;
      i++;
    } else if (ch === 't' || ch === 'f' || ch === 'n') {
      const word = ch === 't' ? 'true' : ch === 'f' ? 'false' : 'null';
      out += colours.literal(word);
      i += word.length;
    } else if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      i++;
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      // Not JSON (never from JSON.stringify or jq): the rest as it is.
      if (!m || m[0] === '') return out + text.slice(i);
      out += colours.number(m[0]);
      i += m[0].length;
    }
  }
  return out;
}

/** The index just past the string token that starts at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; text[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}
