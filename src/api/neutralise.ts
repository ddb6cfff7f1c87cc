// The one place that decides which characters from the API may reach a terminal.
// Text that came from a server (values, property names, error descriptions) can carry
// escape sequences that retitle or repaint the terminal, control characters, and
// bidirectional or invisible characters that make a value look like another one.
//
// Text output (tables, TSV, CSV, the record view, error lines): whole escape sequences
// are dropped, so their payload does not survive as if it were data; every other
// control, bidirectional or invisible character is shown escaped (`\u202e`) so an
// admin sees that the value is odd. Zero-width non-joiner and joiner (U+200C, U+200D)
// stay: Persian and Indic names and emoji need them.
//
// JSON output: the same characters (joiners included) and C1 controls and DEL are
// written as `\u009b`-style escapes, so the text parses back to the same string and
// is still safe on a TTY.

import { isAscii } from 'node:buffer';

/**
 * Escape sequences, whole: CSI (ESC [ or U+009B, parameters, intermediates, final),
 * OSC (ESC ] or U+009D up to BEL or ST), DCS, SOS, PM and APC (ESC P/X/^/_ or
 * U+0090/0098/009E/009F up to ST), other two-character ESC sequences, and a lone ESC.
 * An unterminated string sequence runs to the end of the text, as a terminal would
 * swallow it.
 */
// eslint-disable-next-line no-control-regex
const SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/** Controls (C0 but tab and newline, DEL, C1) plus the bidirectional and invisible set. */
// eslint-disable-next-line no-control-regex
const TEXT_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** In JSON: DEL, C1 and the bidirectional and invisible set, joiners included (C0 JSON already escapes). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** Whether text holds a control (but C0, which JSON escapes), bidirectional or invisible character, joiners included. */
export function hasHiddenCharacters(text: string): boolean {
  return text.search(JSON_UNSAFE) !== -1;
}

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `\u202e` for a BMP character, `\u{e0041}` for a tag character. */
function visible(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : hex4(code);
}

/**
 * API text made safe for a terminal, on one line: sequences dropped, tab and newline
 * become a space (they would break a TSV row or a table), every other unsafe character
 * shown escaped.
 */
export function neutralise(text: string): string {
  let out = text.replace(SEQUENCE, '');
  out = out.replace(/[\t\n]/g, ' ');
  return out.replace(TEXT_UNSAFE, visible);
}

/**
 * API text for a CSV field: as neutralise(), except that tab, CR and LF stay (the
 * field is quoted, so they are data, not row breaks).
 */
export function neutraliseKeeping(text: string): string {
  return text.replace(SEQUENCE, '').replace(TEXT_UNSAFE, (ch) => (ch === '\r' ? ch : visible(ch)));
}

/**
 * API text made safe for a terminal, keeping its lines: as neutralise(), except that
 * tab and newline stay (a string --jq prints raw on a terminal, which may be a
 * multi-line text or tab-separated fields the expression built). CR is shown escaped.
 */
export function neutraliseLines(text: string): string {
  return text.replace(SEQUENCE, '').replace(TEXT_UNSAFE, visible);
}

/** JSON text with DEL, C1 controls and the bidirectional and invisible characters written as `\uXXXX`. */
export function escapeJson(text: string): string {
  return text.replace(JSON_UNSAFE, (ch) => hex4(ch.charCodeAt(0)) + (ch.length > 1 ? hex4(ch.charCodeAt(1)) : ''));
}

/**
 * JSON.stringify, with DEL, C1 controls and the bidirectional and invisible characters
 * written as `\uXXXX` escapes. They can only occur inside strings (keys or values), so
 * the result parses back to exactly the same value.
 */
export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  return text === undefined ? 'null' : escapeJson(text);
}

/**
 * JSON text (JSON.stringify's, any number of values, as UTF-8) as the bytes to write,
 * escaped as jsonText escapes. A list's writer hands its chunks here: the bytes are
 * tested (memchr-fast searches, where the regular expression walks every character),
 * so a chunk with nothing to escape is written as it is (`bytes` itself), ~5 % of an
 * export's CPU time; one that has is new bytes.
 */
export function jsonBytes(bytes: Buffer): Buffer {
  return needsEscape(bytes) ? Buffer.from(escapeJson(bytes.toString('utf8')), 'utf8') : bytes;
}

/**
 * Whether UTF-8 bytes may hold a character JSON_UNSAFE matches: DEL, or a byte sequence
 * that begins one. C1 controls are C2 80-9F (any C2 counts: NBSP, £ or © only send a
 * chunk the slow way); U+061C D8 9C; U+200B-206F E2 80 and E2 81 (so do curly quotes);
 * U+FEFF and U+FFF9-FFFB EF BB and EF BF; tags F3 A0. Accented letters, CJK and emoji pass.
 */
function needsEscape(bytes: Buffer): boolean {
  if (bytes.indexOf(0x7f) !== -1) return true;
  if (isAscii(bytes)) return false;
  return UNSAFE_UTF8_LEADS.some((lead) => bytes.indexOf(lead) !== -1);
}

const UNSAFE_UTF8_LEADS: readonly Buffer[] = [[0xc2], [0xd8, 0x9c], [0xe2, 0x80], [0xe2, 0x81], [0xef, 0xbb], [0xef, 0xbf], [0xf3, 0xa0]].map((bytes) => Buffer.from(bytes));
