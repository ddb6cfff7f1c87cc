// Where the login flow talks: stderr, one line at a time, plus one self-rewriting
// status line for countdowns. Nothing the flow says ever goes to stdout. Its lines
// carry API text (masked_destination, error descriptions, the setup URI), so they are
// neutralised here, the one way out; only the QR drawing, ours, keeps its colours.

import { neutralise } from '../../api/neutralise.js';
import type { QrTerminal } from '../qr.js';
import type { Context } from '../../context.js';
import { unicodeLocale } from '../../output/symbols.js';

/**
 * What the terminal of a run can show a QR code with: its width and height, the locale's glyphs,
 * and colour. The QR goes to stderr, so colour is judged for it: off with NO_COLOR or
 * TERM=dumb, and with --no-color (which the globals show only while stdout is a
 * terminal too).
 */
export function qrTerminal(ctx: Context): QrTerminal {
  const env = ctx.io.env;
  const color = env.NO_COLOR === undefined && env.TERM !== 'dumb' && (ctx.globals.color || !ctx.io.stdoutIsTTY);
  return { columns: ctx.io.columns, rows: ctx.io.rows, unicode: unicodeLocale(env), color };
}
import { CLEAR_LINE } from '../../output/style.js';

export interface Screen {
  /** One line of talk, shown neutralised (escape sequences, controls, bidi and invisible characters). */
  say(line: string): void;
  /** One line of a drawing made by bo itself (the QR code), written as it is. */
  picture(line: string): void;
  /** A line that replaces itself on a terminal (countdowns); null ends it. */
  status(line: string | null): void;
  /** stderr is a terminal: a person may be reading, so QR codes and secrets may be shown. */
  readonly tty: boolean;
  /** stderr itself, for a code command's own error output. */
  readonly raw: NodeJS.WritableStream;
  /** What a QR code drawn here can use (width, glyphs, colour). */
  readonly qr: QrTerminal;
}

export function createScreen(stderr: NodeJS.WritableStream, tty: boolean, qr: QrTerminal = { unicode: true, color: true }): Screen {
  let statusShown = false;
  const picture = (line: string) => {
    if (statusShown && tty) stderr.write('\n');
    statusShown = false;
    stderr.write(`${line}\n`);
  };
  return {
    tty,
    qr,
    raw: stderr,
    say: (line) => picture(neutralise(line)),
    picture,
    status(line) {
      if (line === null) {
        if (statusShown && tty) stderr.write('\n');
        statusShown = false;
        return;
      }
      if (tty) {
        // Carriage return and erase-line: the countdown rewrites itself in place.
        stderr.write(`${CLEAR_LINE}${neutralise(line)}`);
      } else if (!statusShown) {
        // A log gets the first line only, not one line per second.
        stderr.write(`${neutralise(line)}\n`);
      }
      statusShown = true;
    },
  };
}
