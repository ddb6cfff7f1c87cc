// Progress of long work (`--all`, `--paginate`, batches) on stderr: records done, and
// with a known total the share, rate and time left. One line redrawn in place at most
// ten times a second and erased when the work ends. Lists and batches both use it.
//
// Shown only when stderr is a terminal that stdout is not writing to as well: on one
// shared terminal the table's own rows (or the outcome lines) are the progress, and a
// redrawn line would tear them. Never under BO_NO_PROGRESS=1, nor with --verbose
// (the trace writes to stderr all the time).

import type { Clock, Io } from '../context.js';
import { symbols, type Symbols } from './symbols.js';
import { PAGES, type Paged } from './pages.js';

/** Least time between two redraws: at most ten a second. */
export const REDRAW_MS = 100;
const BAR_CELLS = 20;
const ERASE = '\r\u001b[K';

export interface Progress {
  /** `done` records so far; redraws when the last drawing is old enough. */
  update(done: number): void;
  /** Erases the line for good: before a message, or when the work ends. */
  end(): void;
}

const NONE: Progress = { update() {}, end() {} };

function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

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
 * Long work keeps V8's young generation at its first size (1 MiB a semi-space) instead
 * of letting it grow to 16: an export allocates its whole volume (260 MB of JSON for
 * 100,000 accounts) as short-lived pages and records, and with four pages in flight
 * enough survives each scavenge that V8 grows the semi-spaces to their cap, and lets
 * that much more dead page text and response buffers pile up between collections.
 * Measured on `accounts list --all --jsonl` (test/bench/run.mjs, Node 20, 2 cores):
 * peak RSS 114–132 MiB at 100,000 accounts and 97–115 at 10,000 by default, 85–94 and
 * 81–87 with this. It costs scavenges (~1,850 instead of ~110), some 10–25 % more CPU
 * time, but part of an export's time is spent waiting for the server: its rate stayed 0.94–1.04 × the
 * 4-way floor client (0.81–0.96 × without). `--max-semi-space-size` would do the same
 * but only from the command line (it is fixed when the heap is made). Set at run time
 * when long work starts (V8 reads this flag each time it considers growing), so no
 * command that does not page pays anything for it; and put
 * back to V8's default (2) when it ends: the flags are part of the code cache's key
 * (bin/bo.js), and a cache written after an export would otherwise be refused once by
 * the next ordinary command.
 */
function heapForLongWork(on: boolean): void {
  try {
    const v8 = process.getBuiltinModule('node:v8') as typeof import('node:v8');
    v8.setFlagsFromString(`--semi-space-growth-factor=${on ? 1 : 2}`);
  } catch {
    // not a Node that has it: the work runs the same, with V8's own sizing
  }
}

/**
 * The progress of long work (a list's every page, a batch), from its start to its
 * end(), which it also marks for the heap (heapForLongWork). `total` reads the whole
 * count at each drawing, once known (a list's first page says it; stdin never does).
 */
export function startProgress(env: { io: Io; clock: Clock; verbose: boolean; total?: () => number | undefined }): Progress {
  heapForLongWork(true);
  const line = progressLine(env);
  return {
    update: line.update,
    end() {
      line.end();
      heapForLongWork(false);
    },
  };
}

function progressLine(env: { io: Io; clock: Clock; verbose: boolean; total?: () => number | undefined }): Progress {
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
      io.stderr.write(`${ERASE}${progressText(sym, done, total(), now - started)}`);
      shown = true;
    },
    end() {
      ended = true;
      if (shown) io.stderr.write(ERASE);
      shown = false;
    },
  };
}

/**
 * Marks a list as long work (every record: --all, --paginate), so printList shows its
 * progress. `total` reads the count once a page has said it.
 */
export const LONG_WORK = Symbol('long work');

export interface LongWork<T> extends AsyncIterable<T> {
  [LONG_WORK]: () => number | undefined;
}

export function longWork<T>(records: Paged<T>, total: () => number | undefined): LongWork<T> & Paged<T> {
  return { [Symbol.asyncIterator]: () => records[Symbol.asyncIterator](), [PAGES]: () => records[PAGES](), [LONG_WORK]: total };
}

/** The total reader of a list marked as long work; undefined for any other list. */
export function longWorkTotal(records: unknown): (() => number | undefined) | undefined {
  return typeof records === 'object' && records !== null && LONG_WORK in records ? (records as LongWork<unknown>)[LONG_WORK] : undefined;
}
