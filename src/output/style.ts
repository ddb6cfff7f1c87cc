// Colour and the other terminal control codes bo writes, in this one module: nothing
// else in src/ spells an escape sequence (neutralise.ts only matches them, to drop
// them from API text). A handful of SGR codes, written here rather than through
// `util.styleText`, whose colour detection reads process.stdout and NO_COLOR itself
// (from Node 22.13; earlier versions do not), where bo decides once, in main.ts
// (the globals' `color`), and has no 256-colour form for the QR code.

const CSI = '\u001b[';

export interface Style {
  green(text: string): string;
  red(text: string): string;
  grey(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `${CSI}${open}m${text}${CSI}${close}m`;
const same = (text: string) => text;

const COLOURED: Style = { green: wrap(32, 39), red: wrap(31, 39), grey: wrap(90, 39), bold: wrap(1, 22) };
const PLAIN: Style = { green: same, red: same, grey: same, bold: same };

/** Text styles when `color` is on (the globals' `color`: --no-color, NO_COLOR, TERM=dumb, a TTY); identity otherwise. */
export function style(color: boolean): Style {
  return color ? COLOURED : PLAIN;
}

/** The parts of JSON a terminal shows in colour (--json, --jq on a TTY), as gh and jq colour them. */
export interface JsonColours {
  key(text: string): string;
  string(text: string): string;
  number(text: string): string;
  /** true, false and null. */
  literal(text: string): string;
}

const JSON_COLOURED: JsonColours = {
  key: (text) => `${CSI}1;34m${text}${CSI}22;39m`,
  string: wrap(32, 39),
  number: wrap(36, 39),
  literal: wrap(33, 39),
};

/** JSON's colours: blue bold keys, green strings, cyan numbers, yellow true, false and null. */
export function jsonColours(): JsonColours {
  return JSON_COLOURED;
}

/**
 * Foreground and background from the 256-colour palette, whatever `color` says: a QR
 * code is unreadable without them (auth/qr.ts).
 */
export function colours256(fg: number, bg: number): string {
  return `${CSI}38;5;${fg};48;5;${bg}m`;
}

/** Every attribute back to the terminal's default. */
export const RESET = `${CSI}0m`;
/** Back to the line's start and erase to its end: a progress line redrawn in place. */
export const REDRAW_LINE = `\r${CSI}K`;
/** Back to the line's start and erase the whole line: a countdown redrawn in place. */
export const CLEAR_LINE = `\r${CSI}2K`;
