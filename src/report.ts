// What a run's end says (main.ts): the exit code of an error or of a success, and the
// error as the user reads it: one `error:` line (a `hint:` line), the JSON error object
// for a program reading stderr, the stack only under --verbose. Commands only throw;
// this is the one place that maps errors to exit codes and prints them.

import { CommanderError, type Command } from 'commander';
import type { Globals, Io } from './context.js';
import { BoError, DeclinedError, ExitCode, InterruptedError, errorCode, exitCodeOf, isInternal } from './errors.js';
import { neutralise } from './api/neutralise.js';
import type { SecretValues } from './api/secret-values.js';
import { resolveGlobals } from './globals.js';
import type { RunStop } from './run-stop.js';

export class RunReport {
  /** Once built: its options are the globals of an error reported before they were resolved. */
  program: Command | undefined;
  /** Once the command's action resolved them. */
  globals: Globals | undefined;
  /** Where the command and the report of its error write: `io`, or the pager's. */
  io: Io;

  constructor(
    private readonly argv: string[],
    private readonly baseIo: Io,
    private readonly secrets: SecretValues,
    private readonly stop: RunStop,
  ) {
    this.io = baseIo;
  }

  /** A bug that escaped run(): one line, code `internal`, never Node's stack trace and source. */
  bug(err: unknown): void {
    reportError(err, this.io, this.reportingGlobals(), this.secrets);
  }

  /** The code of a command that returned, or of help or --version printed: 0 unless stdout failed. */
  succeeded(): number {
    const signalled = this.stop.signalCode;
    if (signalled !== undefined) return signalled;
    if (!this.stop.outputFailed) return ExitCode.ok;
    reportError(this.stop.outputFailed, this.io, this.reportingGlobals(), this.secrets);
    return ExitCode.failed;
  }

  /** The code of a run that failed, its error reported. */
  failed(err: unknown): number {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
        return this.succeeded();
      }
      // 'commander.help' (a bare group name) prints help on stderr: a usage error.
      if (err.code !== 'commander.help' && wantsJson(this.program?.opts() ?? {}, this.argv) && !this.baseIo.stderrIsTTY) {
        writeJsonError(this.baseIo, { status: null, code: 'usage', message: err.message.replace(/^error: /, '') });
      }
      return ExitCode.usage;
    }
    const { stop } = this;
    const signalled = stop.signalCode;
    const stopped = stop.signal.aborted && !(err instanceof BoError) ? new InterruptedError() : err;
    // Stopped because stdout failed: that is the error to report.
    const final = stop.outputFailed && signalled === undefined && stopped instanceof InterruptedError ? stop.outputFailed : stopped;
    // A read whose reader left (`| head -1`) is done, not interrupted.
    if (stop.stdoutClosed && signalled === undefined && final instanceof InterruptedError) return ExitCode.ok;
    reportError(final, this.io, this.reportingGlobals(), this.secrets);
    return signalled ?? exitCodeOf(final);
  }

  /** The globals to report an error with, also before they were resolved (or the program built). */
  private reportingGlobals(): Globals {
    if (this.globals) return this.globals;
    const opts = this.program?.opts() ?? {};
    // --json may not be parsed yet (`bo --version --json`): its error object is still due.
    return safeGlobals({ ...opts, json: wantsJson(opts, this.argv) }, this.baseIo);
  }
}

/** Globals for reporting an error that happened before (or while) they were resolved. */
function safeGlobals(opts: Record<string, unknown>, io: Io): Globals {
  try {
    return resolveGlobals(opts, io);
  } catch {
    return resolveGlobals({ ...opts, timeout: undefined, maxRetries: undefined, csvSeparator: undefined, bom: undefined }, { ...io, env: { ...io.env, BO_TIMEOUT: undefined } });
  }
}

function reportError(err: unknown, io: Io, globals: Globals, secrets: SecretValues): void {
  if (err instanceof DeclinedError) {
    // The user said no: one plain line, no "error:".
    io.stderr.write('Nothing was changed.\n');
    if (jsonErrors(io, globals)) writeJsonError(io, { status: null, code: errorCode(err), message: err.message });
    return;
  }
  const bo = err instanceof BoError ? err : undefined;
  const text = secrets.scrub(bo ? bo.message : err instanceof Error ? err.message : String(err));
  // A bug: said as one, its stack shown only under --verbose.
  const internal = isInternal(err);
  const message = internal ? `internal error: ${asLine(text)}` : text;
  const hint = internal && !globals.verbose ? 'run the command again with --verbose to see where it happened' : bo?.hint;
  io.stderr.write(`error: ${asLine(oneLine(message))}\n`);
  if (hint) io.stderr.write(`hint: ${asLine(oneLine(secrets.scrub(hint)))}\n`);
  if (jsonErrors(io, globals)) {
    // `code`: the server's error code, else one of ERROR_CODES (never null); `status`
    // only when an HTTP answer came back.
    writeJsonError(io, { status: bo?.status || null, code: errorCode(err), message });
  }
  if (globals.verbose && err instanceof Error && err.stack && !(err instanceof BoError)) {
    io.stderr.write(`${secrets.scrub(err.stack)}\n`);
  }
}

/**
 * The JSON error object goes with `--json`, `--jsonl` and `--jq` when stderr is read by a
 * program; on a terminal a person reads the `error:` line, and the same error twice is noise.
 */
function jsonErrors(io: Io, globals: Globals): boolean {
  return (globals.json || globals.jsonl) === true && !io.stderrIsTTY;
}

/** `--json` / `--jsonl` even when parsing stopped before the globals were read. */
function wantsJson(opts: Record<string, unknown>, argv: string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  return opts.json === true || opts.jsonl === true || flags.includes('--json') || flags.includes('--jsonl');
}

function writeJsonError(io: Io, error: { status: number | null; code: string; message: string }): void {
  io.stderr.write(`${JSON.stringify({ error })}\n`);
}

/**
 * One style for every `error:` and `hint:` line, whoever wrote the text: it starts in
 * lower case after the colon (`error: who is signing in?`, not `Who`; a word in capitals
 * such as BO_TOKEN or HTTPS_PROXY stays), and commands are written bare, without
 * backticks (`hint: run bo login`).
 */
export function asLine(text: string): string {
  const bare = text.replace(/`([^`\n]*)`/g, '$1');
  // `A password …` and `Wrong …` alike; `API`, `BO_TOKEN`, `TLS` stay as they are.
  return /^[A-Z](?:[a-z]|\s)/.test(bare) ? bare.charAt(0).toLowerCase() + bare.slice(1) : bare;
}

/** One line, neutralised: a server's error_description is API text (api/neutralise.ts). */
export function oneLine(text: string): string {
  // Escape sequences, controls, bidirectional and invisible characters must not reach the terminal raw.
  return neutralise(text.replace(/[\r\n]+/g, ' ')).replace(/ {2,}/g, ' ').trim();
}
