// Draws an otpauth URI as a QR code in the terminal that a phone can scan on dark and
// light themes alike. A QR whose light modules are left in the terminal's background
// colour inverts on a dark theme; here every cell carries explicit colours: black on
// white from the 256-colour cube (16 = #000000, 231 = #ffffff), which themes leave
// alone, unlike the 16 base colours they remap.
// Two modules share one character cell ('▀': top in the foreground, bottom in the
// background), and a 4-module white quiet zone surrounds the code, as the QR standard asks.

import { qrMatrix } from './qr-matrix.js';
import { colours256, RESET } from '../output/style.js';

export { qrMatrix };
export const QUIET_ZONE = 4;
export const DARK = 16;
export const LIGHT = 231;

/** How the terminal can show the QR: its width, whether it has block characters and colour. */
export interface QrTerminal {
  /** Columns; undefined: unknown, assumed wide enough. */
  columns?: number;
  /** Lines; undefined: unknown, assumed tall enough. */
  rows?: number;
  /** A UTF-8 locale: '▀' half blocks, two modules a cell. Else spaces, one module two cells wide. */
  unicode: boolean;
  /** Colour allowed (no NO_COLOR, --no-color, TERM=dumb): without it no QR can be drawn. */
  color: boolean;
}

/**
 * The QR drawn for `term` (`indent` columns in, `around` lines of text with it up to the
 * prompt that waits for its code), or why it cannot be: a QR that wraps, whose top has
 * scrolled off the screen by the time the prompt shows, or has no colours cannot be
 * scanned, so it is not shown at all.
 */
export function qrFor(text: string, term: QrTerminal, indent = 2, around = 0): { lines: string[] } | { why: string } {
  if (!term.color) return { why: 'colour is off (NO_COLOR, --no-color or TERM=dumb)' };
  const modules = qrMatrix(text).length + 2 * QUIET_ZONE;
  const width = indent + (term.unicode ? modules : 2 * modules);
  if (term.columns !== undefined && term.columns < width) return { why: `it needs ${width} columns and the terminal has ${term.columns}` };
  const height = (term.unicode ? Math.ceil(modules / 2) : modules) + around;
  if (term.rows !== undefined && term.rows < height) return { why: `it needs ${height} rows with its prompt and the terminal has ${term.rows}` };
  return { lines: term.unicode ? drawQr(text) : drawQrSpaces(text) };
}

/**
 * The QR with spaces on explicit background colours, for a terminal without block
 * characters (a locale that is not UTF-8): a module is two spaces wide and one line
 * high, about square in a terminal's cells.
 */
export function drawQrSpaces(text: string): string[] {
  const m = qrMatrix(text);
  const size = m.length + 2 * QUIET_ZONE;
  const dark = (r: number, c: number) => m[r - QUIET_ZONE]?.[c - QUIET_ZONE] === true;
  const lines: string[] = [];
  for (let r = 0; r < size; r++) {
    let line = '';
    let last = -1;
    for (let c = 0; c < size; c++) {
      const colour = dark(r, c) ? DARK : LIGHT;
      if (colour !== last) line += colours256(colour, colour);
      last = colour;
      line += '  ';
    }
    lines.push(`${line}${RESET}`);
  }
  return lines;
}

/** The QR as terminal lines (SGR colours, reset at each line end), quiet zone included. */
export function drawQr(text: string): string[] {
  const m = qrMatrix(text);
  const size = m.length + 2 * QUIET_ZONE;
  const dark = (r: number, c: number) => m[r - QUIET_ZONE]?.[c - QUIET_ZONE] === true;
  const lines: string[] = [];
  // An odd height gets one more light row at the bottom: extra quiet zone, harmless.
  for (let r = 0; r < size; r += 2) {
    let line = '';
    let last = '';
    for (let c = 0; c < size; c++) {
      const fg = dark(r, c) ? DARK : LIGHT;
      const bg = r + 1 < size && dark(r + 1, c) ? DARK : LIGHT;
      const sgr = colours256(fg, bg);
      if (sgr !== last) line += sgr;
      last = sgr;
      line += '\u2580';
    }
    lines.push(`${line}${RESET}`);
  }
  return lines;
}
