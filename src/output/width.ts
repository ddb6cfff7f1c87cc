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

/**
 * The sum of the widths of `text`'s graphemes, each measured by the library once (a
 * grapheme seen before is looked up): the library measures a long text by segmenting it
 * whole, which, as the segmenter below, takes time that grows with the square of the
 * text's length (a 100 KB cell of CJK text: 20 s on Node 20).
 */
function measure(text: string): number {
  let width = 0;
  for (const grapheme of graphemesOf(text)) width += graphemeWidth(grapheme);
  return width;
}

const GRAPHEME_WIDTHS = new Map<string, number>();

function graphemeWidth(grapheme: string): number {
  if (isNarrow(grapheme)) return grapheme.length;
  if (!stringWidth) throw new Error('display width of text beyond ASCII asked before widthsFor() loaded the library');
  let width = GRAPHEME_WIDTHS.get(grapheme);
  if (width === undefined) {
    width = stringWidth(grapheme);
    if (GRAPHEME_WIDTHS.size < 4096) GRAPHEME_WIDTHS.set(grapheme, width);
  }
  return width;
}

/**
 * Intl.Segmenter takes time that grows with the square of the text's length, so a long
 * text is segmented a piece of about PIECE code units at a time, cut where a grapheme
 * surely starts: before printable ASCII or a CJK ideograph (no rule of UAX #29 joins
 * either to what precedes it, but a prepended concatenation mark). A piece with no such
 * place (2 × PIECE code units of emoji or combining marks, as only hostile data has) is
 * cut where it does not split a surrogate pair, which may part one grapheme in two.
 */
const PIECE = 512;
const PREPEND = new Set([0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0xd4e]);

function startsGrapheme(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return ((c >= 0x20 && c <= 0x7e) || (c >= 0x3400 && c <= 0x9fff)) && !PREPEND.has(text.charCodeAt(i - 1));
}

function pieceEnd(text: string, start: number): number {
  if (text.length - start <= 2 * PIECE) return text.length;
  for (let i = start + PIECE; i < start + 2 * PIECE; i++) if (startsGrapheme(text, i)) return i;
  const end = start + 2 * PIECE;
  const c = text.charCodeAt(end);
  return c >= 0xdc00 && c <= 0xdfff ? end + 1 : end;
}

/** The graphemes of `text`: a cut never splits one (but as pieceEnd says). */
function* graphemesOf(text: string): Generator<string> {
  graphemes ??= new Intl.Segmenter();
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    for (const { segment } of graphemes.segment(start === 0 && end === text.length ? text : text.slice(start, end))) yield segment;
    start = end;
  }
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
    const w = graphemeWidth(grapheme);
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
