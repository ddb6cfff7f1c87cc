// run(argv, options) → exit code. The one place that maps errors to exit codes and
// prints them; commands only throw.

import { CommanderError, type Command } from 'commander';
import { setMaxListeners } from 'node:events';
import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';
import { loadCommands, verbPaths } from './commands/index.js';
import type { CommandDefinition } from './command.js';
import type { Clock, Context, Globals, Io } from './context.js';
import type { CredentialStore } from './auth/credential-types.js';
import type { Prompter } from './auth/prompter-types.js';
import type { Profile } from './config/config.js';
import { BoError, DeclinedError, ExitCode, InterruptedError, OutputClosedError, OutputError, UsageError, errorCode, exitCodeOf, isInternal } from './errors.js';
import { neutralise } from './api/neutralise.js';
import { buildProgram } from './program.js';
import { scanArgv } from './argv-scan.js';
import { withVersionHint } from './help/suggest.js';
import { SecretValues } from './api/secret-values.js';
import { resolveGlobals } from './globals.js';
import type { Pager } from './output/pager.js';
import { runVerb } from './run-verb.js';

export interface RunOptions {
  io?: Io;
  /** Tests inject scripted answers; otherwise @inquirer/prompts on the terminal. */
  prompter?: Prompter;
  /** Tests inject a memory store; otherwise the profile's backend. */
  credentials?: CredentialStore;
  clock?: Clock;
  /** Aborting it acts as Ctrl-C. */
  signal?: AbortSignal;
  /** Commands added to bo's own: tests add one that fails as a bug would, to see it reported. */
  commands?: CommandDefinition<any>[];
}

export function processIo(): Io {
  return {
    // Made when first read: creating process.stdin costs ~1 ms that most commands never use.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: isatty(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdoutSharesStderr: process.stdout.isTTY && process.stderr.isTTY ? sameFile(1, 2) : undefined,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    rows: process.stderr.isTTY ? process.stderr.rows : undefined,
    env: process.env,
  };
}

/** Whether two file descriptors are the same file (device and inode), e.g. one terminal. */
function sameFile(a: number, b: number): boolean | undefined {
  try {
    const x = fstatSync(a);
    const y = fstatSync(b);
    return x.dev === y.dev && x.ino === y.ino && x.rdev === y.rdev;
  } catch {
    return undefined;
  }
}

export const realClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

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

export async function run(argv: string[], options: RunOptions = {}): Promise<number> {
  const usingProcess = !options.io;
  const io = options.io ?? processIo();
  const controller = new AbortController();
  setMaxListeners(RUN_SIGNAL_LISTENERS, controller.signal);
  // Exit codes follow the first signal; pipes never turn a failure into success.
  let signalled: StopSignal | undefined;
  let stdoutClosed = false;
  // stdout that could not be written (a full disk): the run stops as for a closed pipe, but fails.
  let outputFailed: OutputError | undefined;
  // On a terminal, a command's output may go through a pager (output/pager.ts): it
  // takes stdout (and holds stderr) from the first byte on; see pagedIo below.
  let pager: Pager | undefined;
  const stopFor = (name: StopSignal) => {
    signalled ??= name;
    // Ctrl-C reached the pager too, which ends by itself (output/pager.ts); SIGTERM and SIGHUP were bo's alone.
    if (name !== 'SIGINT') pager?.kill();
    if (!controller.signal.aborted) controller.abort(new InterruptedError());
  };
  options.signal?.addEventListener('abort', () => stopFor('SIGINT'), { once: true });
  // The first Ctrl-C (SIGTERM, SIGHUP) stops the command: prompts close, requests stop,
  // a batch reports what was in flight. A second one, or one while the run already stops
  // for its closed stdout, leaves now.
  const onSignal = (name: StopSignal) => {
    if (controller.signal.aborted) {
      // The pager may have ended first on the same Ctrl-C: it is tidied away all the same.
      pager?.abandon();
      process.exit(STOP_SIGNALS[signalled ?? name]);
    }
    stopFor(name);
  };
  const signalHandlers = Object.keys(STOP_SIGNALS).map((name) => [name, () => onSignal(name as StopSignal)] as const);
  let verbose = false;
  // `bo … | head`: the reader left. A read ends there with 0; a batch stops sending and
  // exits 141 (batch.ts). Any other write error (ENOSPC of `> /dev/full`, EIO, EDQUOT,
  // EFBIG) stops the run the same way, and it fails: exit 1, code `output`. Once the run
  // is over, a failure keeps its code.
  io.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') stdoutClosed = true;
    else outputFailed ??= OutputError.of(err);
    if (!controller.signal.aborted) controller.abort(outputFailed ?? new OutputClosedError());
  });
  // A stderr that cannot be written (closed, full) loses the messages, never the exit code.
  io.stderr.on('error', () => {});
  let globals: Globals | undefined;
  // The secrets the command comes to hold, scrubbed from every error it reports.
  const secrets = new SecretValues();
  if (usingProcess) {
    for (const [name, handler] of signalHandlers) process.on(name, handler);
    // The last resort against a bug that escaped run() (a timer's, an emitter's): one
    // line, code `internal`, exit 1, never Node's stack trace and source.
    process.on('uncaughtException', (err) => {
      reportError(err, runIo, reportingGlobals(), secrets);
      process.exit(signalled ? STOP_SIGNALS[signalled] : ExitCode.failed);
    });
    // Node's own warnings are for the developers of bo: shown with --verbose only.
    process.removeAllListeners('warning');
    process.on('warning', (warning) => {
      if (verbose) io.stderr.write(`warning: ${oneLine(`${warning.name}: ${warning.message}`)}\n`);
    });
  }

  // What a command opened (HTTP agents, the embedded sandbox), closed when it ends.
  const closers: Array<() => unknown> = [];
  const action = async (def: CommandDefinition<any>, cmd: Command, args: unknown[]) => {
    globals = resolveGlobals(cmd.optsWithGlobals(), io);
    verbose = globals.verbose;
    if (globals.csv && def.printsRecords !== true) {
      throw new UsageError(`--csv applies to commands that print records (lists and single records); "bo ${def.path.join(' ')}" prints none`);
    }
    if (usingProcess && io.stdoutIsTTY && (def.paged ?? def.printsRecords) === true) runIo = await pagedIo();
    const ctx = createContext(runIo, globals, options, controller.signal, closers, secrets);
    // Loaded and checked before the command runs: a syntax error is exit 2, nothing sent.
    if (globals.jq !== undefined) ctx.jq = await (await import('./output/jq.js')).compileJq(globals.jq, runIo.env, globals.colorJson === true, runIo.stderr);
    await runVerb(ctx, def, cmd, args);
  };
  // What the command (and the report of its error) writes to: `io`, or the pager's.
  let runIo = io;
  async function pagedIo(): Promise<Io> {
    const { createPager, pagerCommand } = await import('./output/pager.js');
    const command = pagerCommand(io.env);
    if (command === undefined) return io;
    // q: the reader left, as `| head` (exit 0, a list stops reading pages); a pager that
    // died of Ctrl-C: the same stop as bo's own.
    const onEnd = (end: { signal: NodeJS.Signals | null }) => {
      if (end.signal && end.signal in STOP_SIGNALS) return stopFor(end.signal as StopSignal);
      stdoutClosed = true;
      if (!controller.signal.aborted) controller.abort(new OutputClosedError());
    };
    const paging = createPager(command, io.env, io.stdout, io.stderr, io.stdoutSharesStderr !== false, onEnd);
    pager = paging;
    // Stderr turns to the pager's (held) only once it runs: a prompt before draws on the terminal itself.
    return Object.create(io, {
      stdout: { value: paging.stdout, enumerable: true },
      stderr: { get: () => (paging.started ? paging.stderr : io.stderr), enumerable: true },
    }) as Io;
  }

  const program = buildProgram([...(await commandsFor(argv)), ...(options.commands ?? [])], action);
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    // Commander's own usage errors: one line, exit 2 (set below).
    outputError: (s, write) => write(withVersionHint(s)),
  });
  for (const c of allCommands(program)) {
    c.exitOverride();
    c.configureOutput(program.configureOutput());
  }

  let code: number;
  try {
    let failure: { err: unknown } | undefined;
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (err) {
      failure = { err };
    }
    // A stream reports a write's error on the next tick: the last write's comes now.
    await new Promise((resolve) => setImmediate(resolve));
    code = failure ? exitFor(failure.err) : succeeded();
  } finally {
    // The pager first, with the signal handlers still on: the user may be reading still.
    // Ctrl-C there ends it (and bo: 130); held messages are written once it has ended.
    const before = signalled;
    await pager?.finish(signalled !== undefined && signalled !== 'SIGINT');
    if (signalled && !before) code = STOP_SIGNALS[signalled];
    if (usingProcess) for (const [name, handler] of signalHandlers) process.off(name, handler);
    await Promise.allSettled(closers.map(async (close) => close()));
  }
  // Stopped by a signal: a reader that stopped reading must not keep `bo` running.
  if (usingProcess && signalled) setTimeout(() => process.exit(code), FLUSH_AFTER_SIGNAL_MS).unref();
  return code;

  /** The globals to report an error with, also before they were resolved (or the program built). */
  function reportingGlobals(): Globals {
    if (globals) return globals;
    let opts: Record<string, unknown> = {};
    try {
      opts = program.opts();
    } catch {
      // Not built yet: a bug while loading the commands.
    }
    // --json may not be parsed yet (`bo --version --json`): its error object is still due.
    return safeGlobals({ ...opts, json: wantsJson(opts, argv) }, io);
  }

  /** The code of a command that returned, or of help or --version printed: 0 unless stdout failed. */
  function succeeded(): number {
    if (signalled) return STOP_SIGNALS[signalled];
    if (!outputFailed) return ExitCode.ok;
    reportError(outputFailed, runIo, reportingGlobals(), secrets);
    return ExitCode.failed;
  }

  function exitFor(err: unknown): number {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
        return succeeded();
      }
      // 'commander.help' (a bare group name) prints help on stderr: a usage error.
      if (err.code !== 'commander.help' && wantsJson(program.opts(), argv) && !io.stderrIsTTY) {
        writeJsonError(io, { status: null, code: 'usage', message: err.message.replace(/^error: /, '') });
      }
      return ExitCode.usage;
    }
    const stopped = controller.signal.aborted && !(err instanceof BoError) ? new InterruptedError() : err;
    // Stopped because stdout failed: that is the error to report.
    const final = outputFailed && !signalled && stopped instanceof InterruptedError ? outputFailed : stopped;
    // A read whose reader left (`| head -1`) is done, not interrupted.
    if (stdoutClosed && !signalled && final instanceof InterruptedError) return ExitCode.ok;
    reportError(final, runIo, reportingGlobals(), secrets);
    return signalled ? STOP_SIGNALS[signalled] : exitCodeOf(final);
  }
}

/**
 * The definitions to build the tree from, and so the verb files to load: only the
 * command argv names (`accounts list`), else its group, when it names one (the whole
 * tree costs ~1.5 ms more to build on every run, the accounts group ~0.5 ms more than
 * its list); all of them for help, an unknown word or none, so that commander's lists
 * and suggestions see every command.
 */
function commandsFor(argv: string[]): Promise<CommandDefinition<any>[]> {
  const { command, verb } = scanArgv(argv);
  const all = () => true;
  if (command === undefined || command === 'help') return loadCommands(all);
  const group = verbPaths.filter((path) => path[0] === command);
  if (group.length === 0) return loadCommands(all);
  const one = group.filter((path) => path.length === 2 && path[1] === verb);
  if (one.length === 1) return loadCommands((path) => path.length === 2 && path[0] === command && path[1] === verb);
  return loadCommands((path) => path[0] === command);
}

/** Globals for reporting an error that happened before (or while) they were resolved. */
function safeGlobals(opts: Record<string, unknown>, io: Io): Globals {
  try {
    return resolveGlobals(opts, io);
  } catch {
    return resolveGlobals({ ...opts, timeout: undefined, maxRetries: undefined }, { ...io, env: { ...io.env, BO_TIMEOUT: undefined } });
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

function createContext(
  io: Io,
  globals: Globals,
  options: RunOptions,
  signal: AbortSignal,
  closers: Array<() => unknown>,
  secrets: SecretValues,
): Context {
  let profile: Promise<Profile> | undefined;
  let store: Promise<CredentialStore> | undefined;
  let prompter: Promise<Prompter> | undefined;
  const ctx: Context = {
    io,
    globals,
    clock: options.clock ?? realClock,
    signal,
    secrets,
    profile: () => (profile ??= import('./config/config.js').then((m) => m.readProfile(io.env, globals))),
    credentials: () =>
      (store ??= options.credentials
        ? Promise.resolve(options.credentials)
        : Promise.all([import('./auth/credentials.js'), ctx.profile()]).then(([m, p]) => m.openCredentialStore(io.env, p, { sandbox: globals.sandbox }))),
    prompter: () =>
      (prompter ??= options.prompter
        ? Promise.resolve(options.prompter)
        : import('./auth/prompter.js').then((m) => m.createPrompter(io, signal))),
    api: async (apiOptions) => {
      const client = await (await import('./connection.js')).connect(ctx, apiOptions);
      closers.push(() => client.close());
      return client;
    },
  };
  return ctx;
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
  // A bug (issue 30 item 7): said as one, its stack shown only under --verbose.
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

function oneLine(text: string): string {
  // A server's error_description is API text: escape sequences, controls, bidirectional
  // and invisible characters must not reach the terminal raw (api/neutralise.ts).
  return neutralise(text.replace(/[\r\n]+/g, ' ')).replace(/ {2,}/g, ' ').trim();
}
