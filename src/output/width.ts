// Display width of terminal text: East Asian wide and fullwidth characters and emoji
// take two cells, combining marks, joiners and variation selectors none. Cells of a
// table are measured and cut with this, never with String.length.

const ASCII = /^[\u0020-\u007e]*$/;

/** Zero-width: combining marks, ZWJ/ZWNJ, variation selectors, tag characters. */
const ZERO = /[\p{Mn}\p{Me}\u200b-\u200f\ufe00-\ufe0f\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** Two cells: emoji presentation and East Asian Wide/Fullwidth blocks. */
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

function charWidth(ch: string): number {
  if (ZERO.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/** Cut to at most `max` cells, ending with `…` (one cell) when anything was cut. */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  let width = 0;
  let out = '';
  for (const ch of text) {
    const w = charWidth(ch);
    if (width + w > max - 1) break;
    width += w;
    out += ch;
  }
  return out + ellipsis;
}

/** Pads with spaces to `width` cells. */
export function padEnd(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}
