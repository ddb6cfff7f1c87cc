// Running a verb for a tool call: the session (its profile, one HTTP client), the
// invocation a call stands for, and the run itself through invoke(), in JSON mode, its
// values into a sink, with the call's own client: GET only unless the call may send
// (`--writes direct`), stopped by the call's cancellation. mcp/call.ts decides what to
// run; this runs it.

import { Writable, Readable } from 'node:stream';
import type { CommandDefinition } from '../command.js';
import type { Context, Globals, Io } from '../context.js';
import type { HttpClient, RequestOptions } from '../api/http-types.js';
import { BoError, UsageError } from '../errors.js';
import { invoke, type Invocation, type InvocationValue } from '../invocation.js';
import { collectingSink, type ValueSink } from '../output/value-sink.js';
import { parseToolsets, planTools, writeToolNames, type Tool } from './tools.js';

export interface Session {
  /** The `bo mcp` command's context: its profile, credential, secrets and Ctrl-C. */
  ctx: Context;
  tools: Map<string, Tool>;
  /** The tool names of the mutation verbs: a call to one the session does not offer is refused by name. */
  writes: Set<string>;
  /** The session's one HTTP client (one connection pool and 429 policy for every call). */
  client: () => Promise<HttpClient>;
  /** The MCP client's name, as its initialize request gave it (clientInfo.name): kept with each plan made. */
  clientName?: string;
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
export function planSession(ctx: Context, defs: CommandDefinition<any, any>[]): Session {
  const tools = planTools(defs, parseToolsets(undefined, defs));
  return { ctx, tools: new Map(tools.map((t) => [t.name, t])), writes: writeToolNames(defs), client: sharedClient(ctx) };
}

/** The invocation a tool call stands for: its verb, and its arguments as the verb's operands and options (`more` added). */
export function invocationOfCall(tool: Tool, args: Record<string, unknown>, more: Record<string, InvocationValue> = {}): Invocation {
  const values: Record<string, InvocationValue> = {};
  for (const param of tool.params) {
    const value = args[param.name];
    if (value !== undefined && value !== false) values[param.name] = value as InvocationValue;
  }
  return { path: tool.def.path, values: { ...values, ...more } };
}

/**
 * Runs an invocation as `bo --json` would, in this process, with the session's profile
 * and client: what the verb prints as --json comes back as values (a list's items, or
 * its one value; null when it printed nothing). Its stderr notes go to the server's
 * stderr (the log), never to the agent.
 */
export async function runCommand(
  session: Session,
  def: CommandDefinition<any, any>,
  invocation: Invocation,
  mcpSignal: AbortSignal,
  /** Told of a list's pages and of a change's target (value-sink.ts). */
  hooks: Pick<ValueSink, 'page' | 'target'> = {},
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
  const sink = collectingSink(hooks);
  try {
    await invoke(callCtx, def, invocation, sink);
  } finally {
    const notes = stderr.text();
    if (notes) ctx.io.stderr.write(notes.endsWith('\n') ? notes : `${notes}\n`);
  }
  // Everything a verb shows goes to the sink: text on stdout would be lost to the agent.
  if (stdout.text() !== '') throw new BoError(`${def.path.join(' ')} printed text where a tool gives values`, { code: 'failed' });
  return sink.result();
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
