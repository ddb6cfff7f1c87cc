// Display width of terminal text, as a terminal draws it: the cells of each grapheme
// (what the cursor steps over as one: 👨‍👩‍👧, 🇯🇵, 👍🏽 and ⚠️ take two cells each; East
// Asian wide characters two; combining marks, joiners and variation selectors none),
// measured by the string-width library. Cells of a table and the record view are
// measured and cut with this, never with String.length.
//
// Printable ASCII, and the glyphs bo draws itself (the ellipsis, box drawing and block
// elements, one cell each as the library measures them), need no library. It builds a
// grapheme segmenter and Unicode property patterns as it loads (~20 ms of a run), so it
// is loaded only once text beyond ASCII is to be measured: the table calls
// widthsFor(texts) with what it is about to measure (table.ts), and a run that draws no
// table, or only ASCII, never loads it.

/** One cell a character: printable ASCII, `…`, box drawing and block elements. */
const NARROW = /^[\u0020-\u007e\u2026\u2500-\u259f]*$/;

let stringWidth: ((text: string) => number) | undefined;
let graphemes: Intl.Segmenter | undefined;

/** Whether `text` is one cell a character, measured without the library. */
const isNarrow = (text: string): boolean => NARROW.test(text);

/** Loads the width library unless every one of `texts` is one cell a character (or it is loaded). */
export async function widthsFor(texts: Iterable<string>): Promise<void> {
  if (stringWidth) return;
  for (const text of texts) {
    if (!isNarrow(text)) {
      stringWidth = (await import('string-width')).default;
      return;
    }
  }
}

/** Whether text beyond ASCII can be measured now (widthsFor loaded the library). */
export const widthsLoaded = (): boolean => stringWidth !== undefined;

function measure(text: string): number {
  if (!stringWidth) throw new Error('display width of text beyond ASCII asked before widthsFor() loaded the library');
  return stringWidth(text);
}

/** The graphemes of `text`: a cut never splits one. */
function* graphemesOf(text: string): Generator<string> {
  graphemes ??= new Intl.Segmenter();
  for (const { segment } of graphemes.segment(text)) yield segment;
}

export function displayWidth(text: string): number {
  return isNarrow(text) ? text.length : measure(text);
}

/** Cut to at most `max` cells, ending with `ellipsis` (one cell: `…` or `~`) when anything was cut. */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  const room = max - 1;
  if (isNarrow(text)) return text.slice(0, Math.max(0, room)) + ellipsis;
  let width = 0;
  let out = '';
  for (const grapheme of graphemesOf(text)) {
    const w = measure(grapheme);
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
