// The pager, as git and gh have one: on a terminal, the output of lists, records and
// `bo api` goes through BO_PAGER, else PAGER, else `less -FRXK` when less is on the PATH
// (DEFAULT_PAGER). `BO_PAGER=cat` or an empty value turns it off. src/main.ts decides when (a terminal, a command that prints records,
// never a batch nor anything piped) and owns what follows: exit codes and signals.
//
// The pager starts with the first byte of output, not before: a confirmation asked
// first, or a command that fails before printing, never shows one. While it runs,
// messages for stderr (a note after a list, an error, the --verbose trace) are held,
// and written once it has ended, so that they neither tear its screen nor vanish
// under it. q in the pager ends the output (`bo` stops reading pages, exit 0). Ctrl-C
// reaches both: `bo` stops, and waits for the pager to end (less -K quits at once; a
// pager that stays open on Ctrl-C ends with q), then exits 130. Only a stop the pager
// did not see (SIGTERM, SIGHUP sent to bo) ends it from here, with one SIGTERM: a
// second, or one racing its own Ctrl-C handling, would cut less short while it restores
// the terminal.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Writable } from 'node:stream';
import { spawn, type ChildProcess } from 'node:child_process';
import { REDRAW_LINE } from './style.js';

/**
 * -F: output that fits on one screen prints as usual; -R: colours; -X: the text stays
 * on the screen after q; -K: Ctrl-C quits it (and bo, which got the same Ctrl-C).
 */
export const DEFAULT_PAGER = 'less -FRXK';

/** The pager command, or undefined for none. */
export function pagerCommand(env: Record<string, string | undefined>): string | undefined {
  const chosen = env.BO_PAGER ?? env.PAGER;
  if (chosen !== undefined) {
    const command = chosen.trim();
    return command === '' || command === 'cat' ? undefined : command;
  }
  return onPath('less', env.PATH) ? DEFAULT_PAGER : undefined;
}

/** Whether `file` is an executable in one of PATH's folders (or is a path to one). */
function onPath(file: string, path: string | undefined): boolean {
  const candidates = file.includes('/') ? [file] : (path ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, file));
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What a shell would read differently from words split at spaces: such a command runs
 * through `sh -c` (as git runs it), with `exec` so that the pager is the child bo signals.
 */
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[#~=%]/;

/** How the pager ended: by itself (q), or by a signal (Ctrl-C that reached it). */
export interface PagerEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Pager {
  /** Stdout for the command: the pager's input once a byte is written. */
  readonly stdout: NodeJS.WritableStream;
  /** Stderr for the command: held while the pager runs (see the head of the file). */
  readonly stderr: NodeJS.WritableStream;
  /** Whether the pager was started. */
  readonly started: boolean;
  /**
   * Ends the pager's input and waits for it to end (the user reads to the end and
   * presses q, or -F ends it). With `stop`, it is ended at once instead (a SIGTERM to
   * bo). Then the held messages are written.
   */
  finish(stop: boolean): Promise<void>;
  /** Ends the pager at once (a stop signal the pager did not get); finish() still waits for it. */
  kill(): void;
  /** For a `bo` that exits now (a second Ctrl-C): ends the pager, tidies its line, writes what was held. */
  abandon(): void;
}

/** The variables that carry bo's credentials, kept from the pager. */
const SECRET_VARIABLES = new Set(['BO_TOKEN', 'BO_API_SECRET', 'BO_TOTP_SECRET']);

/** Messages held while paging: enough for a long --verbose trace; past it, the rest is counted. */
const MAX_HELD = 8 * 1024 * 1024;

/**
 * A pager for `command` in front of `out` (the terminal). `holdErr`: stderr is that
 * terminal too, so its messages wait for the pager. `onEnd` is told when the pager
 * ends (or its input breaks) before finish() asked it to.
 */
export function createPager(
  command: string,
  env: Record<string, string | undefined>,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  holdErr: boolean,
  onEnd: (end: PagerEnd) => void,
): Pager {
  let child: ChildProcess | undefined;
  let gone = false;
  let finishing = false;
  let direct = false;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  let held: Buffer[] = [];
  let heldBytes = 0;
  let dropped = 0;
  let holding = false;

  const release = () => {
    holding = false;
    for (const chunk of held) err.write(chunk);
    if (dropped > 0) err.write(`(${dropped} more bytes of messages were written while paging and are not shown)\n`);
    held = [];
  };

  function start(): void {
    const words = command.split(/\s+/).filter(Boolean);
    const viaShell = SHELL_SYNTAX.test(command);
    if (!viaShell && !onPath(words[0]!, env.PATH)) {
      // As git: a pager that cannot start is no reason to lose the output.
      direct = true;
      err.write(`warning: the pager "${command}" was not found; printing directly (set BO_PAGER=cat to stop this)\n`);
      return;
    }
    // The environment bo runs in, less its own secrets (a pager has no use for them); less
    // and lv read their options from LESS and LV when the user set none (as git and gh do).
    const childEnv = Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_VARIABLES.has(name)));
    childEnv.LESS ??= 'FRX';
    childEnv.LV ??= '-c';
    child = viaShell
      ? spawn('/bin/sh', ['-c', `exec ${command}`], { stdio: ['pipe', 'inherit', 'inherit'], env: childEnv })
      : spawn(words[0]!, words.slice(1), { stdio: ['pipe', 'inherit', 'inherit'], env: childEnv });
    holding = holdErr;
    // q while output is still coming: the pipe breaks. Nothing to report; the exit says it.
    child.stdin!.on('error', () => {
      gone = true;
    });
    child.on('error', () => {
      gone = true;
      resolveEnded();
    });
    child.on('exit', (code, signal) => {
      gone = true;
      resolveEnded();
      if (!finishing) onEnd({ code, signal });
    });
  }

  let killed = false;
  /** less ended by our SIGTERM restores the terminal but leaves its prompt (":") on the last line. */
  const tidy = () => {
    if (killed) out.write(REDRAW_LINE);
  };
  function kill(): void {
    // Once: a second SIGTERM would cut less short in the middle of restoring the terminal.
    if (!child || gone || killed) return;
    killed = true;
    child.kill('SIGTERM');
  }

  const stdout = new Writable({
    // A chunk is taken when the pager has read it: a reader that stops reading stops bo.
    write(chunk: Buffer, _encoding, callback) {
      if (!child && !direct) start();
      // Called back once written, not once queued: the writer may reuse the chunk's buffer then (sink.ts).
      if (direct) return void out.write(chunk, () => callback());
      if (gone) return callback();
      child!.stdin!.write(chunk, () => callback());
    },
    final(callback) {
      if (child && !gone) child.stdin!.end();
      callback();
    },
  });

  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!holding) {
        err.write(chunk);
      } else if (heldBytes + chunk.length <= MAX_HELD) {
        held.push(chunk);
        heldBytes += chunk.length;
      } else {
        dropped += chunk.length;
      }
      callback();
    },
  });

  return {
    stdout,
    stderr,
    get started() {
      return child !== undefined;
    },
    kill,
    abandon() {
      kill();
      tidy();
      release();
    },
    async finish(stop) {
      finishing = true;
      if (child && !gone) {
        if (stop) kill();
        else await new Promise<void>((resolve) => stdout.end(resolve));
      }
      if (child) await ended;
      tidy();
      release();
    },
  };
}
