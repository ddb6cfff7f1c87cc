// run(argv, options) → exit code: the program built for argv, its command run, the
// run's end reported. How a run stops (signals, pipes, the pager) is run-stop.ts; how
// its end is said (exit codes, error lines) is report.ts; commands only throw.

import type { Command } from 'commander';
import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';
import { loadCommands, verbPaths } from './commands/index.js';
import type { CommandDefinition } from './command.js';
import type { Clock, Context, Globals, Io } from './context.js';
import type { CredentialStore } from './auth/credential-types.js';
import type { Prompter } from './auth/prompter-types.js';
import { readProfile, type Profile } from './config/config.js';
import { ExitCode, InterruptedError, UsageError } from './errors.js';
import { buildProgram, UnknownOptionError, verbsTaking } from './program.js';
import { scanArgv } from './argv-scan.js';
import { withVersionHint } from './help/suggest.js';
import { SecretValues } from './api/secret-values.js';
import { resolveGlobals } from './globals.js';
import { oneLine, RunReport } from './report.js';
import { RunStop } from './run-stop.js';
import { invocationOf, invoke } from './invocation.js';

export interface RunOptions {
  io?: Io;
  /** Tests inject scripted answers; otherwise inquirer's prompts on the terminal. */
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

export async function run(argv: string[], options: RunOptions = {}): Promise<number> {
  const usingProcess = !options.io;
  const io = options.io ?? processIo();
  const stop = new RunStop(io, options.signal);
  // The secrets the command comes to hold, scrubbed from every error it reports.
  const secrets = new SecretValues();
  const report = new RunReport(argv, io, secrets, stop);
  const unwire = usingProcess
    ? stop.wireProcess(
        (err) => report.bug(err),
        // Node's own warnings are for the developers of bo: shown with --verbose only.
        (warning) => report.globals?.verbose && io.stderr.write(`warning: ${oneLine(`${warning.name}: ${warning.message}`)}\n`),
      )
    : undefined;
  // What a command opened (HTTP agents, the embedded sandbox), closed when it ends.
  const closers: Array<() => unknown> = [];
  const program = buildProgram([...(await commandsFor(argv)), ...(options.commands ?? [])], async (def, cmd, args) => {
    const globals = (report.globals = resolveGlobals(cmd.optsWithGlobals(), io));
    if (globals.csv && def.printsRecords !== true) {
      throw new UsageError(`--csv applies to commands that print records (lists and single records); "bo ${def.path.join(' ')}" prints none`);
    }
    if (usingProcess && io.stdoutIsTTY && (def.paged ?? def.printsRecords) === true) report.io = stop.pagedIo(io);
    await dispatch(createContext(report.io, globals, options, stop.signal, closers, secrets), def, cmd, args);
  });
  report.program = program;
  configureOutput(program, io);

  let code: number = ExitCode.failed;
  try {
    let failure: { err: unknown } | undefined;
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (err) {
      failure = { err: err instanceof UnknownOptionError ? await optionElsewhere(err) : err };
    }
    // A stream reports a write's error on the next tick: the last write's comes now.
    await new Promise((resolve) => setImmediate(resolve));
    code = failure ? report.failed(failure.err) : report.succeeded();
  } finally {
    code = await stop.finish(code);
    unwire?.();
    await Promise.allSettled(closers.map(async (close) => close()));
  }
  if (usingProcess) stop.leave(code);
  return code;
}

/**
 * An unknown option reported with the other verbs that take it (`--q is an option of
 * accounts list`), else with commander's guess: every verb is loaded for it, on this
 * path only, so start-up stays as fast. Returns the error commander threw once it wrote it.
 */
async function optionElsewhere(err: UnknownOptionError): Promise<unknown> {
  const all = buildProgram(await loadCommands(), async () => {});
  try {
    return err.report(verbsTaking(all, err.flag, err.path));
  } catch (reported) {
    return reported;
  }
}

/** The command's action, once its globals are read: --jq compiled, then the verb run. */
async function dispatch(ctx: Context, def: CommandDefinition<any>, cmd: Command, args: unknown[]): Promise<void> {
  // Loaded and checked before the command runs: a syntax error is exit 2, nothing sent.
  if (ctx.globals.jq !== undefined) {
    ctx.jq = await (await import('./output/jq.js')).compileJq(ctx.globals.jq, ctx.io.env, ctx.globals.colorJson === true, ctx.io.stderr);
  }
  await invoke(ctx, def, invocationOf(def, cmd, args));
}

/** Commander writes through `io`; its own usage errors are one line (exit 2, report.ts). */
function configureOutput(program: Command, io: Io): void {
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: (s, write) => write(withVersionHint(s)),
  });
  for (const c of allCommands(program)) {
    c.exitOverride();
    c.configureOutput(program.configureOutput());
  }
}

/**
 * The definitions to build the tree from, and so the verb files to load: only the
 * command argv names (`accounts list`), else its group, when it names one (the whole
 * tree costs ~1.5 ms more to build on every run, the accounts group ~0.5 ms more than
 * its list); all of them for help, an unknown word or none, so that commander's lists
 * and suggestions see every command.
 */
async function commandsFor(argv: string[]): Promise<CommandDefinition<any>[]> {
  const named = await namedCommands(argv);
  // A verb whose help is made from the others' definitions (bo mcp's tool groups) comes with all of them.
  return named.some((def) => def.helpFromAll === true) && named.length < verbPaths.length ? loadCommands() : named;
}

function namedCommands(argv: string[]): Promise<CommandDefinition<any>[]> {
  const { command, verb } = scanArgv(argv);
  const all = () => true;
  if (command === undefined || command === 'help') return loadCommands(all);
  const group = verbPaths.filter((path) => path[0] === command);
  if (group.length === 0) return loadCommands(all);
  const one = group.filter((path) => path.length === 2 && path[1] === verb);
  if (one.length === 1) return loadCommands((path) => path.length === 2 && path[0] === command && path[1] === verb);
  return loadCommands((path) => path[0] === command);
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
  let definitions: Promise<CommandDefinition<any>[]> | undefined;
  const ctx: Context = {
    io,
    globals,
    clock: options.clock ?? realClock,
    signal,
    secrets,
    profile: () => (profile ??= Promise.resolve().then(() => readProfile(io.env, globals))),
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
    definitions: () => (definitions ??= loadCommands()),
  };
  return ctx;
}
