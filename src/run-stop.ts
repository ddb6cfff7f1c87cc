// How a run stops (main.ts): the first signal (Ctrl-C, SIGTERM, SIGHUP) and the exit code
// it gives, a stdout whose reader left or that cannot be written, a pager that ended.
// With the process's own streams it also wires the process: its signals, a bug that
// escaped run(), Node's warnings.

import { setMaxListeners } from 'node:events';
import type { Writable } from 'node:stream';
import type { Io } from './context.js';
import { ExitCode, InterruptedError, OutputClosedError, OutputError } from './errors.js';
import { createPager, pagerCommand, type Pager } from './output/pager.js';

/** The signals that stop a run as Ctrl-C does, and the exit code each gives (128 + its number). */
const STOP_SIGNALS = { SIGHUP: ExitCode.hangup, SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated } as const;
type StopSignal = keyof typeof STOP_SIGNALS;
/**
 * Listeners on the run's signal: one for each request in flight (at most 16,
 * --concurrency) and a few of the command's own. Node warns past 10; a leak still shows.
 */
const RUN_SIGNAL_LISTENERS = 64;
/** After a signal, what stdout and stderr still hold gets this long to be written, no more. */
const FLUSH_AFTER_SIGNAL_MS = 250;
/** A handle that still holds the process once the run is over and its output written gets this long. */
const HELD_EXIT_MS = 1000;

export class RunStop {
  private readonly controller = new AbortController();
  /** The first signal: exit codes follow it; pipes never turn a failure into success. */
  private signalled: StopSignal | undefined;
  /** `bo … | head`, or q in the pager: the reader left. A read ends there with 0. */
  stdoutClosed = false;
  /** stdout that could not be written (a full disk): the run stops as for a closed pipe, but fails. */
  outputFailed: OutputError | undefined;
  /** On a terminal, the pager a command's output goes through (output/pager.ts). */
  private pager: Pager | undefined;

  constructor(
    private readonly io: Io,
    outer: AbortSignal | undefined,
  ) {
    setMaxListeners(RUN_SIGNAL_LISTENERS, this.controller.signal);
    outer?.addEventListener('abort', () => this.stopFor('SIGINT'), { once: true });
    // A closed reader ends a read with 0; a batch stops sending and exits 141 (batch.ts).
    // Any other write error (ENOSPC of `> /dev/full`, EIO, EDQUOT, EFBIG) stops the run
    // the same way, and it fails: exit 1, code `output`. Once the run is over, a failure
    // keeps its code.
    io.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') this.stdoutClosed = true;
      else this.outputFailed ??= OutputError.of(err);
      this.abort(this.outputFailed ?? new OutputClosedError());
    });
    // A stderr that cannot be written (closed, full) loses the messages, never the exit code.
    io.stderr.on('error', () => {});
  }

  /** Aborted when the run must stop: prompts close, requests stop, a batch reports what was in flight. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The exit code of the signal that stopped the run, if one did. */
  get signalCode(): number | undefined {
    return this.signalled && STOP_SIGNALS[this.signalled];
  }

  /**
   * The process's signals; a bug that escaped run() (a timer's, an emitter's: `onBug`
   * reports it, and the process leaves); Node's own warnings, to `onWarning` instead of
   * Node's printing. The signal handlers are undone by the function returned.
   */
  wireProcess(onBug: (err: unknown) => void, onWarning: (warning: Error) => void): () => void {
    const handlers = Object.keys(STOP_SIGNALS).map((name) => [name, () => this.onSignal(name as StopSignal)] as const);
    for (const [name, handler] of handlers) process.on(name, handler);
    process.on('uncaughtException', (err) => {
      onBug(err);
      process.exit(this.signalCode ?? ExitCode.failed);
    });
    process.removeAllListeners('warning');
    process.on('warning', onWarning);
    return () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    };
  }

  /** An io whose stdout is a pager when one is set (its stderr held once it runs), else `io` itself. */
  pagedIo(io: Io): Io {
    const command = pagerCommand(io.env);
    if (command === undefined) return io;
    // q: the reader left, as `| head` (exit 0, a list stops reading pages); a pager that
    // died of Ctrl-C: the same stop as bo's own.
    const onEnd = (end: { signal: NodeJS.Signals | null }) => {
      if (end.signal && end.signal in STOP_SIGNALS) return this.stopFor(end.signal as StopSignal);
      this.stdoutClosed = true;
      this.abort(new OutputClosedError());
    };
    const paging = createPager(command, io.env, io.stdout, io.stderr, io.stdoutSharesStderr !== false, onEnd);
    this.pager = paging;
    // Stderr turns to the pager's (held) only once it runs: a prompt before draws on the terminal itself.
    return Object.create(io, {
      stdout: { value: paging.stdout, enumerable: true },
      stderr: { get: () => (paging.started ? paging.stderr : io.stderr), enumerable: true },
    }) as Io;
  }

  /**
   * The run is over: the pager first, with the signal handlers still on (the user may be
   * reading still; Ctrl-C there ends it, and bo with 130; held messages are written once
   * it has ended). Answers the code to exit with.
   */
  async finish(code: number): Promise<number> {
    const before = this.signalled;
    await this.pager?.finish(this.signalled !== undefined && this.signalled !== 'SIGINT');
    return this.signalled && !before ? STOP_SIGNALS[this.signalled] : code;
  }

  /**
   * The run is over, on the process's own streams: the exit code is set, and Node ends
   * the process once nothing holds its loop, tearing its isolate down first. Not
   * process.exit(), which skips that teardown: on Node 22 and later it can then hang for
   * ever, when one of V8's background compiles waits for a collection that only the
   * exiting main thread could run (nodejs/node#54918; a finished batch that never
   * exited, about once in fifty runs of it here). Ending this way costs no time we can
   * measure (docs/performance-notes.md). Only what still holds the loop is given a limit
   * before process.exit(): FLUSH_AFTER_SIGNAL_MS after a stop signal, as before; else
   * HELD_EXIT_MS once stdout and stderr are written, so what a slow reader has not taken
   * yet still reaches it, however long it takes. The timer itself holds nothing.
   */
  leave(code: number): void {
    process.exitCode = code;
    const held = () => {
      if (this.signalled || (written(this.io.stdout) && written(this.io.stderr))) process.exit(code);
    };
    setInterval(held, this.signalled ? FLUSH_AFTER_SIGNAL_MS : HELD_EXIT_MS).unref();
  }

  private stopFor(name: StopSignal): void {
    this.signalled ??= name;
    // Ctrl-C reached the pager too, which ends by itself (output/pager.ts); SIGTERM and SIGHUP were bo's alone.
    if (name !== 'SIGINT') this.pager?.kill();
    this.abort(new InterruptedError());
  }

  /**
   * The first Ctrl-C (SIGTERM, SIGHUP) stops the command. A second one, or one while the
   * run already stops for its closed stdout, leaves now.
   */
  private onSignal(name: StopSignal): void {
    if (this.controller.signal.aborted) {
      // The pager may have ended first on the same Ctrl-C: it is tidied away all the same.
      this.pager?.abandon();
      process.exit(STOP_SIGNALS[this.signalled ?? name]);
    }
    this.stopFor(name);
  }

  private abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}

/** Whether a stream holds nothing it has not handed to the system (unknown: it may). */
function written(stream: NodeJS.WritableStream): boolean {
  return (stream as Partial<Writable>).writableLength === 0;
}
