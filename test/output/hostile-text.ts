// Every character class that must not reach a terminal raw, with how text output shows
// it: escape sequences dropped whole (their payload too), controls and bidirectional
// and invisible characters escaped visibly. Zero-width (non-)joiners stay.

export interface HostileCase {
  name: string;
  raw: string;
  /** What tables, TSV, the record view and error lines show instead. */
  shown: string;
}

const bmp = (code: number): HostileCase => ({
  name: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
  raw: String.fromCharCode(code),
  shown: `\\u${code.toString(16).padStart(4, '0')}`,
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => bmp(from + i));

export const escapedCases: HostileCase[] = [
  ...range(0x202a, 0x202e), // bidirectional embeddings and overrides
  ...range(0x2066, 0x2069), // bidirectional isolates
  bmp(0x200b), bmp(0x200e), bmp(0x200f), // zero-width space, LRM, RLM
  bmp(0x2060), bmp(0xfeff), bmp(0x061c), bmp(0x2028), bmp(0x2029),
  ...[0xe0001, 0xe0041, 0xe007f].map((code) => ({
    name: `tag U+${code.toString(16).toUpperCase()}`,
    raw: String.fromCodePoint(code),
    shown: `\\u{${code.toString(16)}}`,
  })),
  bmp(0x01), bmp(0x07), bmp(0x08), bmp(0x0d), bmp(0x1f), // C0 (tab and newline become spaces)
  bmp(0x7f), // DEL
  bmp(0x80), bmp(0x85), bmp(0x9c), // C1 controls outside a sequence
];

export const sequenceCases: HostileCase[] = [
  { name: 'CSI colour', raw: '\u001b[31;1m', shown: '' },
  { name: 'CSI erase screen', raw: '\u001b[2J', shown: '' },
  { name: 'OSC title, BEL', raw: '\u001b]0;pwned-title\u0007', shown: '' },
  { name: 'OSC hyperlink, ST', raw: '\u001b]8;;http://evil.example/pwned\u001b\\', shown: '' },
  { name: 'DCS', raw: '\u001bP+q pwned-dcs\u001b\\', shown: '' },
  { name: 'APC', raw: '\u001b_pwned-apc\u001b\\', shown: '' },
  { name: 'PM', raw: '\u001b^pwned-pm\u001b\\', shown: '' },
  { name: 'SOS', raw: '\u001bXpwned-sos\u001b\\', shown: '' },
  { name: '8-bit CSI', raw: '\u009b2J', shown: '' },
  { name: '8-bit OSC', raw: '\u009d0;pwned-c1-title\u009c', shown: '' },
  { name: 'ESC c (reset)', raw: '\u001bc', shown: '' },
  { name: 'lone ESC', raw: '\u001b', shown: '' },
];

export const keptCases: HostileCase[] = [
  { name: 'tab', raw: '\t', shown: ' ' },
  { name: 'newline', raw: '\n', shown: ' ' },
  { name: 'ZWNJ in a Persian name', raw: 'می\u200cخواهم', shown: 'می\u200cخواهم' },
  { name: 'ZWJ in an emoji', raw: '👩\u200d💻', shown: '👩\u200d💻' },
];

export const allCases = [...escapedCases, ...sequenceCases, ...keptCases];

/** Characters that must never appear raw in text output. */
// eslint-disable-next-line no-control-regex
export const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;
/** In JSON output, not even the joiners (they are written as escapes). */
export const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;
