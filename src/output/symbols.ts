// The glyphs bo draws: outcome marks, the table's ellipsis and borders, boxes, the
// progress line. Under a locale that is not UTF-8 a terminal would show them as
// mojibake, so each has an ASCII stand-in. Every place that prints one of these takes
// it from here.

export interface BoxChars {
  h: string;
  v: string;
  tl: string;
  tm: string;
  tr: string;
  ml: string;
  mm: string;
  mr: string;
  bl: string;
  bm: string;
  br: string;
}

export interface Symbols {
  unicode: boolean;
  ok: string;
  fail: string;
  /** A prompt answered but not yet judged (a code on its way to the server). */
  pointer: string;
  /** The chosen line of a prompt's list. */
  cursor: string;
  /** One cell: what a cut cell ends with. */
  ellipsis: string;
  /** In a sentence: "try again in 5 s…". */
  dots: string;
  /** From an old value to a new one (`Amount: 1200 → 4242`). */
  arrow: string;
  /** A field the user asked for that holds nothing: shown, so "empty" is not read as "no such field". */
  empty: string;
  box: BoxChars;
  /** Between the parts of the progress line. */
  separator: string;
  barDone: string;
  barLeft: string;
}

const UNICODE: Symbols = {
  unicode: true,
  ok: '✔',
  fail: '✘',
  pointer: '›',
  cursor: '❯',
  ellipsis: '…',
  dots: '…',
  arrow: '→',
  empty: '—',
  box: { h: '─', v: '│', tl: '┌', tm: '┬', tr: '┐', ml: '├', mm: '┼', mr: '┤', bl: '└', bm: '┴', br: '┘' },
  separator: ' · ',
  barDone: '█',
  barLeft: '░',
};

const ASCII: Symbols = {
  unicode: false,
  ok: '+',
  fail: 'x',
  pointer: '>',
  cursor: '>',
  ellipsis: '~',
  dots: '...',
  arrow: '->',
  empty: '-',
  box: { h: '-', v: '|', tl: '+', tm: '+', tr: '+', ml: '+', mm: '+', mr: '+', bl: '+', bm: '+', br: '+' },
  separator: ', ',
  barDone: '#',
  barLeft: '-',
};

/**
 * True unless the locale in effect names an encoding other than UTF-8. As the C
 * library does, the first non-empty of LC_ALL, LC_CTYPE and LANG is the locale; with
 * none set, UTF-8 is assumed (terminals without a locale, such as Windows', take it).
 */
export function unicodeLocale(env: Record<string, string | undefined>): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return !locale || /utf-?8/i.test(locale);
}

export function symbolsFor(unicode: boolean): Symbols {
  return unicode ? UNICODE : ASCII;
}

/** The glyphs for the locale in `env`. */
export function symbols(env: Record<string, string | undefined>): Symbols {
  return symbolsFor(unicodeLocale(env));
}
