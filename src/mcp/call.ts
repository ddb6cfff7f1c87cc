// One tools/call: the arguments checked against the tool's schema, turned into the
// command line the verb's own parser reads (so a tool validates exactly as the command
// does), run with --json into a buffer, and answered as JSON data. Every string that
// leaves is neutralised and scrubbed of the run's secrets; every failure is a tool
// error carrying bo's error code, never a crash of the server.

import { CommanderError } from 'commander';
import type { Context } from '../context.js';
import type { PageMeta } from '../api/paginate.js';
import { BoError, ExitCode, RateLimitedError, UsageError, errorCode, exitCodeOf } from '../errors.js';
import { neutralise } from '../api/neutralise.js';
import { decodeCursor, encodeCursor, queryKey } from './cursor.js';
import { commandLine, runCommand, withFlag, type Session } from './run.js';
import { DEFAULT_TOOL_PAGE, type Tool } from './tools.js';
import type { JsonSchema } from './schema.js';
import type { ToolResult } from './sdk.js';
import { savePlan, PLAN_LIFETIME_MS } from '../plan/store.js';

export async function callTool(session: Session, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  try {
    const tool = session.tools.get(name);
    if (!tool) {
      const sends = [...session.tools.values()].some((t) => t.kind === 'write');
      if (session.writes.has(name) && !sends) throw new UsageError(`${name} would change data and this server is read-only: no tool of it sends a change`);
      if (session.writes.has(name)) throw new UsageError(`${name} is not among the tools this server may send changes with (its --tools)`);
      throw new UsageError(`no tool named ${JSON.stringify(name)}; tools/list names the tools`);
    }
    checkArgs(tool.listing.inputSchema, args);
    const value = await runTool(session, tool, args, signal);
    const data = clean(session.ctx, value);
    const text = JSON.stringify(data);
    return tool.listing.outputSchema ? { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> } : { content: [{ type: 'text', text }] };
  } catch (err) {
    const error = clean(session.ctx, errorBody(err)) as { code: string; message: string; hint?: string };
    if (exitCodeOf(err) === ExitCode.auth && !session.authReported) {
      session.authReported = true;
      session.ctx.io.stderr.write(`bo mcp: the credential stopped working: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
    }
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
  }
}

/** bo's error as data: its code (the server's or one of ERROR_CODES), message, hint, status, and when to retry a 429. */
function errorBody(err: unknown): Record<string, unknown> {
  if (err instanceof CommanderError) return { code: 'usage', message: err.message.replace(/^error: /, '') };
  const bo = err instanceof BoError ? err : undefined;
  return {
    code: errorCode(err),
    message: bo ? bo.message : err instanceof Error ? err.message : String(err),
    ...(bo?.hint ? { hint: bo.hint } : {}),
    ...(bo?.status ? { status: bo.status } : {}),
    ...(err instanceof RateLimitedError && err.retryAfter !== undefined ? { retryAfterSeconds: err.retryAfter } : {}),
  };
}

/** Every string (and key) neutralised, with the run's secrets scrubbed. */
function clean(ctx: Context, value: unknown): unknown {
  if (typeof value === 'string') return neutralise(ctx.secrets.scrub(value));
  if (Array.isArray(value)) return value.map((v) => clean(ctx, v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(ctx, k), clean(ctx, v)]));
  return value;
}

/** Arguments the tool's schema does not take, or of the wrong type, are a usage error naming the argument. */
function checkArgs(schema: JsonSchema, args: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [key, value] of Object.entries(args)) {
    const prop = properties[key];
    if (!prop) throw new UsageError(`argument ${key} is not one this tool takes (${Object.keys(properties).join(', ') || 'none'})`);
    const problem = typeProblem(prop, value);
    if (problem) throw new UsageError(`argument ${key} must be ${problem}`);
  }
  for (const key of (schema.required as string[] | undefined) ?? []) {
    if (args[key] === undefined) throw new UsageError(`argument ${key} is required`);
  }
}

function typeProblem(prop: JsonSchema, value: unknown): string | undefined {
  switch (prop.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'true or false';
    case 'string':
      if (typeof value !== 'string') return 'a string';
      if (prop.enum && !(prop.enum as string[]).includes(value)) return `one of ${(prop.enum as string[]).join(', ')}`;
      return typeof prop.pattern === 'string' && !new RegExp(prop.pattern).test(value) ? 'a Uid (no spaces, "/" or control characters; not "-", "." or "..")' : undefined;
    case 'integer': {
      const { minimum, maximum } = prop as { minimum: number; maximum: number };
      return Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= maximum ? undefined : `an integer from ${minimum} to ${maximum}`;
    }
    case 'array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'an array of strings';
    default:
      return undefined;
  }
}

async function runTool(session: Session, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  switch (tool.kind) {
    case 'fields': {
      const target = session.tools.get(args.tool as string)!;
      return { items: await runCommand(session, target.def, [...target.def.path, '--fields'], signal) };
    }
    case 'api':
      return runCommand(session, tool.def, ['api', '--method=GET', ...commandLine(tool, args).slice(1)], signal);
    case 'get':
      return runCommand(session, tool.def, commandLine(tool, args), signal);
    case 'list':
      return runList(session, tool, args, signal);
    case 'plan':
      return runPlan(session, tool, args, signal);
    case 'write': {
      refuseFileValues(args);
      // The verb's --json outcome (run.ts): the API's answer, and whether it changed anything (D32).
      const outcome = (await runCommand(session, tool.def, withFlag(commandLine(tool, args), '--yes'), signal, {}, true)) as Record<string, unknown> | null;
      return { result: outcome?.answer ?? null, changed: outcome?.changed ?? null, reason: outcome?.reason ?? null };
    }
  }
}

/**
 * A plan tool: the verb's dry run (validated as the command validates, nothing sent),
 * kept as a plan a person applies with `bo plan apply <id>`. A value starting with @
 * is refused: the command would read a local file into the request.
 */
async function runPlan(session: Session, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  refuseFileValues(args);
  const line = commandLine(tool, args);
  let target: string | undefined;
  const observeTarget = (name: string | undefined) => {
    target = name;
  };
  const request = (await runCommand(session, tool.def, withFlag(line, '--dry-run'), signal, { observeTarget })) as Record<string, unknown> | null;
  if (!request || typeof request.url !== 'string') throw new UsageError(`${tool.name} made no plan of one request`);
  const { name: profile } = await session.ctx.profile();
  const created = session.ctx.clock.now();
  // Kept in the plan file: scrubbed of the run's secrets as the result is (a server can echo one in a name).
  const named = target === undefined ? {} : { target: clean(session.ctx, target) as string };
  const plan = savePlan(session.ctx.io.env, { created: created.toISOString(), profile, origin: new URL(request.url).origin, argv: line, request, ...named });
  return { planId: plan.id, plan: request, ...named, profile, expires: new Date(created.getTime() + PLAN_LIFETIME_MS).toISOString() };
}

/** A value starting with @ is refused in a change: the command would read a local file into the request. */
function refuseFileValues(args: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(args)) {
    if ([value].flat().some((v) => typeof v === 'string' && v.startsWith('@'))) throw new UsageError(`argument ${key} cannot start with @ here (bo would read a file)`);
  }
}

/** One page of a list: the cursor's page (else the first) of the size it carries (else `limit`). */
async function runList(session: Session, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const query = queryKey(args);
  const at = typeof args.cursor === 'string' ? decodeCursor(args.cursor, tool.name, query) : undefined;
  const page = at?.page ?? 0;
  let pageSize = at?.pageSize ?? (args.limit as number | undefined) ?? DEFAULT_TOOL_PAGE;
  let total: number | undefined;
  const observePage = (meta: PageMeta) => {
    total = meta.total;
    pageSize = meta.limit;
  };
  const argv = withFlag(commandLine(tool, args), `--page=${page}`, `--page-size=${pageSize}`);
  const items = (await runCommand(session, tool.def, argv, signal, { observePage })) as unknown[];
  const more = total !== undefined ? (page + 1) * pageSize < total : items.length >= pageSize;
  return { items, total: total ?? null, nextCursor: more ? encodeCursor({ tool: tool.name, query, page: page + 1, pageSize }) : null };
}
