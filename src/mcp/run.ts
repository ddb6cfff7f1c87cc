// Running a verb for a tool call: the session (its profile, one HTTP client), the
// command line a call stands for, and the run itself, with --json into a buffer and the
// call's own client: GET only unless the call may send (`--writes direct`), stopped by
// the call's cancellation. mcp/call.ts decides what to run; this runs it.

import { Writable, Readable } from 'node:stream';
import type { CommandDefinition } from '../command.js';
import type { Context, Globals, Io } from '../context.js';
import type { HttpClient, RequestOptions } from '../api/http-types.js';
import type { PageMeta } from '../api/paginate.js';
import { parseJson } from '../api/json-parse.js';
import { UsageError } from '../errors.js';
import { runArgv } from '../run-verb.js';
import { buildProgram } from '../program.js';
import { paramSchema } from './schema.js';
import { parseToolsets, planTools, writeToolNames, type Tool } from './tools.js';

export interface Session {
  /** The `bo mcp` command's context: its profile, credential, secrets and Ctrl-C. */
  ctx: Context;
  tools: Map<string, Tool>;
  /** The tool names of the mutation verbs: a call to one the session does not offer is refused by name. */
  writes: Set<string>;
  /** The session's one HTTP client (one connection pool and 429 policy for every call). */
  client: () => Promise<HttpClient>;
  /** Set once a refused credential was reported on stderr: the person running the agent reads it once, not at every call. */
  authReported?: boolean;
}

/** The session's HTTP client, created on first use; a failure is not kept (the next call tries again). */
export function sharedClient(ctx: Context): () => Promise<HttpClient> {
  let shared: Promise<HttpClient> | undefined;
  return () => {
    shared ??= ctx.api().catch((err: unknown) => {
      shared = undefined;
      throw err;
    });
    return shared;
  };
}

/** The session of `bo plan apply`: the plan tools of every group (`--writes plan`'s), run in `ctx`. */
export function planSession(ctx: Context, defs: CommandDefinition<any>[]): Session {
  const tools = planTools(defs, buildProgram(defs, async () => {}), parseToolsets(undefined, defs));
  return { ctx, tools: new Map(tools.map((t) => [t.name, t])), writes: writeToolNames(defs), client: sharedClient(ctx) };
}

/** The command line a call stands for: options as --name=value, the arguments after `--`. */
export function commandLine(tool: Tool, args: Record<string, unknown>): string[] {
  const options: string[] = [];
  const operands: string[] = [];
  for (const param of tool.params) {
    const value = args[param.name];
    if (value === undefined || value === false) continue;
    if (param.kind === 'argument') operands.push(...(Array.isArray(value) ? value : [String(value)]));
    else if (value === true) options.push(param.option.long!);
    else for (const v of Array.isArray(value) ? value : [value]) options.push(`${param.option.long!}=${String(v)}`);
  }
  return [...tool.def.path, ...options, '--', ...operands];
}

/**
 * The arguments of a tool call that `commandLine` turns into `line`: its inverse, for
 * `bo plan apply`, which reads a plan file's command line back as the plan tool's call
 * (and so under the plan tool's rules). A word the tool's command line cannot hold (an
 * option the tool does not offer, a flag given twice, a missing `--`, an operand too
 * many) is a UsageError naming it.
 */
export function argsOfLine(tool: Tool, line: readonly string[]): Record<string, unknown> {
  const path = tool.def.path;
  const verb = path.join(' ');
  if (!path.every((word, i) => line[i] === word)) throw new UsageError(`its command is not ${verb}`);
  const end = line.indexOf('--', path.length);
  if (end < 0) throw new UsageError('its command has no "--" before its arguments');
  const args: Record<string, unknown> = {};
  for (const word of line.slice(path.length, end)) {
    const eq = word.indexOf('=');
    const flag = eq < 0 ? word : word.slice(0, eq);
    const param = tool.params.find((p) => p.kind === 'option' && p.option.long === flag);
    if (!param) throw new UsageError(`${JSON.stringify(flag)} is not an option the plan tool offers for ${verb}`);
    const { type } = paramSchema(param);
    const given = Object.hasOwn(args, param.name);
    if (type === 'boolean') {
      if (eq >= 0 || given) throw new UsageError(`${flag} takes no value and is given once`);
      args[param.name] = true;
      continue;
    }
    if (eq < 0) throw new UsageError(`${flag} has no value`);
    const value = word.slice(eq + 1);
    if (type === 'array') args[param.name] = [...((args[param.name] as string[] | undefined) ?? []), value];
    else if (given) throw new UsageError(`${flag} is given twice`);
    else args[param.name] = type === 'integer' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
  }
  const operands = line.slice(end + 1);
  for (const param of tool.params) {
    if (param.kind !== 'argument' || operands.length === 0) continue;
    args[param.name] = param.argument.variadic ? operands.splice(0) : operands.shift();
  }
  if (operands.length > 0) throw new UsageError(`its command has an argument too many: ${JSON.stringify(operands[0])}`);
  return args;
}

/** A command line with `flags` added before its operands. */
export function withFlag(line: string[], ...flags: string[]): string[] {
  const end = line.indexOf('--');
  return [...line.slice(0, end), ...flags, ...line.slice(end)];
}


/** A Writable that keeps what is written. */
function buffer(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
}

/**
 * Runs a verb as `bo --json <argv>` would, in this process: parsed by its own commander
 * declaration, with the session's profile and client, its output kept and parsed. Its
 * stderr notes go to the server's stderr (the log), never to the agent.
 */
export async function runCommand(
  session: Session,
  def: CommandDefinition<any>,
  argv: string[],
  mcpSignal: AbortSignal,
  /** Joins the verb's parsed options (run-verb.ts): a list's `observePage`, a plan's `observeTarget`. */
  extra: { observePage?: (meta: PageMeta) => void; observeTarget?: (name: string | undefined, noun: string) => void } = {},
  /** `--writes direct`: this call may send a change. */
  sends = false,
): Promise<unknown> {
  const { ctx } = session;
  const signal = AbortSignal.any([ctx.signal, mcpSignal]);
  const stdout = buffer();
  const stderr = buffer();
  const io: Io = { ...ctx.io, stdin: Readable.from([]), stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, stdoutSharesStderr: undefined, columns: undefined };
  const globals: Globals = { ...ctx.globals, json: true, jsonl: false, csv: false, color: false, colorJson: false, jq: undefined, input: false };
  const callCtx: Context = { ...ctx, io, globals, signal, api: (options) => (options ? ctx.api(options) : session.client()).then((c) => withSignal(c, signal, sends)) };
  try {
    await runArgv(callCtx, def, argv, extra);
  } finally {
    const notes = stderr.text();
    if (notes) ctx.io.stderr.write(notes.endsWith('\n') ? notes : `${notes}\n`);
  }
  const text = stdout.text();
  return text.trim() === '' ? null : parseJson(text);
}

/**
 * The client a tool call gets: the session's, sending only GET unless the call is a
 * `--writes direct` one (read-only is enforced here, where every request of a call
 * passes, not only by which tools are listed), with the call's signal, so a cancelled
 * call stops its walk. Closing it is the session's job.
 */
function withSignal(client: HttpClient, signal: AbortSignal, sends: boolean): HttpClient {
  return checkedClient(client, (options) => {
    if (!sends && (options.method ?? 'GET') !== 'GET') throw new UsageError(`bo mcp is read-only: ${options.method} was not sent`);
    return { ...options, signal: options.signal ? AbortSignal.any([options.signal, signal]) : signal };
  });
}

/**
 * `client` with every request passed through `check` first, which may refuse it (throw:
 * nothing is sent) or change its options. Closing it is its owner's job, not the caller's.
 */
export function checkedClient(client: HttpClient, check: (options: RequestOptions) => RequestOptions | Promise<RequestOptions>): HttpClient {
  return {
    baseUrl: client.baseUrl,
    ...(client.command ? { command: client.command } : {}),
    request: async <T>(options: RequestOptions) => client.request<T>(await check(options)),
    requestBytes: async (options) => client.requestBytes(await check(options)),
    close: () => {},
  };
}
