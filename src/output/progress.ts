// Progress of long work (`--all`, `--paginate`, batches) on stderr: records done, and
// with a known total the share, rate and time left. One line redrawn in place at most
// ten times a second and erased when the work ends. Lists and batches both use it.
//
// Shown only when stderr is a terminal that stdout is not writing to as well: on one
// shared terminal the table's own rows (or the outcome lines) are the progress, and a
// redrawn line would tear them. Never under BO_NO_PROGRESS=1, nor with --verbose
// (the trace writes to stderr all the time).

import type { Clock, Io } from '../context.js';
import { REDRAW_LINE } from './style.js';
import { symbols, type Symbols } from './symbols.js';
import { envFlag } from '../env.js';

/** Least time between two redraws: at most ten a second. */
export const REDRAW_MS = 100;
const BAR_CELLS = 20;

export interface Progress {
  /** `done` records so far; redraws when the last drawing is old enough. */
  update(done: number): void;
  /** Erases the line for good: before a message, or when the work ends. */
  end(): void;
}

const NONE: Progress = { update() {}, end() {} };

/** Whether progress may be drawn for this run (see the head of the file). */
export function progressWanted(io: Io, verbose: boolean): boolean {
  if (!io.stderrIsTTY || envFlag(io.env.BO_NO_PROGRESS) || verbose) return false;
  // Both terminals: the same one unless main.ts found they differ.
  return !io.stdoutIsTTY || io.stdoutSharesStderr === false;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `7s`, `2m05s`, `1h02m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${two(Math.floor((s % 3600) / 60))}m`;
}

/** The text of the line, e.g. `[████░░…] 1,234 of 5,000 · 512/s · 7s left`. */
export function progressText(sym: Symbols, done: number, total: number | undefined, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const rateText = `${count(Math.round(rate))}/s`;
  if (total === undefined || total <= 0) return [`${count(done)} done`, rateText].join(sym.separator);
  const share = Math.min(1, done / total);
  const filled = Math.round(share * BAR_CELLS);
  const bar = `[${sym.barDone.repeat(filled)}${sym.barLeft.repeat(BAR_CELLS - filled)}]`;
  const left = rate > 0 && done < total ? `${duration((total - done) / rate)} left` : undefined;
  return [`${bar} ${count(done)} of ${count(total)}`, rateText, left].filter(Boolean).join(sym.separator);
}

/**
 * The progress of long work (a list's every page, a batch) until end(); a no-op when
 * progress is not drawn here. `total` reads the whole count at each drawing, once known
 * (a list's first page says it; stdin never does).
 */
export function startProgress(env: { io: Io; clock: Clock; verbose: boolean; total?: () => number | undefined }): Progress {
  if (!progressWanted(env.io, env.verbose)) return NONE;
  const { io, clock } = env;
  const total = env.total ?? (() => undefined);
  const sym = symbols(io.env);
  const started = clock.now().getTime();
  let drawnAt = -Infinity;
  let shown = false;
  let ended = false;
  return {
    update(done) {
      if (ended) return;
      const now = clock.now().getTime();
      if (now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      io.stderr.write(`${REDRAW_LINE}${progressText(sym, done, total(), now - started)}`);
      shown = true;
    },
    end() {
      ended = true;
      if (shown) io.stderr.write(REDRAW_LINE);
      shown = false;
    },
  };
}
