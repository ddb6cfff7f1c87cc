// Display width of terminal text, as a terminal draws it: the cells of each grapheme
// (what the cursor steps over as one: 👨‍👩‍👧, 🇯🇵, 👍🏽 and ⚠️ take two cells each; East
// Asian wide characters two; combining marks, joiners and variation selectors none),
// measured by the string-width library. Cells of a table and the record view are
// measured and cut with this, never with String.length.
//
// Only tables load it (table.ts, with import()): the library builds a grapheme segmenter
// and Unicode property patterns as it loads, which a run that draws no table never needs.

import stringWidth from 'string-width';

const ASCII = /^[\u0020-\u007e]*$/;

let graphemes: Intl.Segmenter | undefined;

/** The graphemes of `text`: a cut never splits one. */
function* graphemesOf(text: string): Generator<string> {
  graphemes ??= new Intl.Segmenter();
  for (const { segment } of graphemes.segment(text)) yield segment;
}

export function displayWidth(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

/** Cut to at most `max` cells, ending with `…` (one cell) when anything was cut. */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  const room = max - displayWidth(ellipsis);
  if (ASCII.test(text)) return text.slice(0, Math.max(0, room)) + ellipsis;
  let width = 0;
  let out = '';
  for (const grapheme of graphemesOf(text)) {
    const w = stringWidth(grapheme);
    if (width + w > room) break;
    width += w;
    out += grapheme;
  }
  return out + ellipsis;
}

/** Pads with spaces to `width` cells. */
export function padEnd(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/** What a table measures and cuts text with: this module, once table.ts has loaded it. */
export interface TextWidth {
  displayWidth(text: string): number;
  truncate(text: string, max: number, ellipsis?: string): string;
}
