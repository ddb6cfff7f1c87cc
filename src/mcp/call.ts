// One tools/call: the arguments checked against the tool's schema, turned into the
// command line the verb's own parser reads (so a tool validates exactly as the command
// does), run with --json into a buffer, and answered as JSON data. Every string that
// leaves is neutralised and scrubbed of the run's secrets; every failure is a tool
// error carrying bo's error code, never a crash of the server.

import type { Context } from '../context.js';
import type { PageMeta } from '../api/paginate.js';
import { BoError, ExitCode, RateLimitedError, UsageError, errorCode, exitCodeOf } from '../errors.js';
import { neutralise } from '../api/neutralise.js';
import { EMBEDDED_SANDBOX } from '../mutation/confirm.js';
import { decodeCursor, encodeCursor, queryKey } from './cursor.js';
import { keyNames } from './keys.js';
import { invocationOfCall, runCommand, type Session } from './run.js';
import type { Invocation } from '../invocation.js';
import { DEFAULT_TOOL_PAGE, type Tool } from './tools.js';
import type { JsonSchema } from './schema.js';
import type { ToolResult } from './sdk.js';
import { savePlan, PLAN_LIFETIME_MS } from '../plan/store.js';
import { planStatus } from './plan-status.js';
import { MAX_CLIENT_NAME } from '../plan/store.js';

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
    const { data, keysChanged } = cleanData(session.ctx, value);
    const text = JSON.stringify(data);
    const result: ToolResult = tool.listing.outputSchema ? { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> } : { content: [{ type: 'text', text }] };
    // Keys written with JSON escapes are named beside the data, never in it (a record may hold any key).
    if (keysChanged.length > 0) {
      result.content.push({ type: 'text', text: JSON.stringify({ keysChanged }) });
      result._meta = { [KEYS_CHANGED_META]: keysChanged };
    }
    return result;
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
  const bo = err instanceof BoError ? err : undefined;
  return {
    code: errorCode(err),
    message: bo ? bo.message : err instanceof Error ? err.message : String(err),
    ...(bo?.hint ? { hint: bo.hint } : {}),
    ...(bo?.status ? { status: bo.status } : {}),
    ...(err instanceof RateLimitedError && err.retryAfter !== undefined ? { retryAfterSeconds: err.retryAfter } : {}),
  };
}

/** Where a result names its changed keys for a client that reads structuredContent. */
const KEYS_CHANGED_META = 'bo/keysChanged';

/** Every string neutralised, with the run's secrets scrubbed; keys as cleanData names them. */
function clean(ctx: Context, value: unknown): unknown {
  return cleanData(ctx, value).data;
}

/**
 * Every string neutralised, with the run's secrets scrubbed; a key that holds a hidden
 * character or a secret written with JSON escapes instead (mcp/keys.ts), so no two keys
 * become one. `keysChanged`: the keys so written, as the result shows them.
 */
function cleanData(ctx: Context, value: unknown): { data: unknown; keysChanged: string[] } {
  const scrub = (text: string) => ctx.secrets.scrub(text);
  const names = keyNames(value, scrub);
  const extra = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return neutralise(scrub(v));
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v);
    if (names.size === 0) return Object.fromEntries(entries.map(([k, item]) => [k, walk(item)]));
    const shown = entries.map(([k]) => names.get(k) ?? k);
    const used = new Set<string>();
    return Object.fromEntries(
      entries.map(([, item], i) => {
        let name = shown[i]!;
        // Two keys that differ only in a secret of the run: numbered, never merged.
        if (used.has(name)) {
          let n = 2;
          while (used.has(`${name} (${n})`) || shown.includes(`${name} (${n})`)) n++;
          name = `${name} (${n})`;
          extra.add(name);
        }
        used.add(name);
        return [name, walk(item)];
      }),
    );
  };
  const data = walk(value);
  return { data, keysChanged: [...new Set([...names.values(), ...extra])] };
}

/** Arguments the tool's schema does not take, or of the wrong type, are a usage error naming the argument. */
function checkArgs(schema: JsonSchema, args: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [key, value] of Object.entries(args)) {
    // Own properties only: `constructor` or `__proto__` is no argument of any tool.
    const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (!prop) throw new UsageError(`argument ${key} is not one this tool takes (${Object.keys(properties).join(', ') || 'none'})`);
    const problem = typeProblem(prop, value);
    if (problem) throw new UsageError(`argument ${key} must be ${problem}`);
  }
  for (const key of (schema.required as string[] | undefined) ?? []) {
    if (!Object.hasOwn(args, key) || args[key] === undefined) throw new UsageError(`argument ${key} is required`);
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
      return { items: await runCommand(session, target.def, { path: target.def.path, values: { fields: true } }, signal) };
    }
    case 'api':
      return runCommand(session, tool.def, invocationOfCall(tool, args, { method: 'GET' }), signal);
    case 'get':
      return runCommand(session, tool.def, invocationOfCall(tool, args), signal);
    case 'list':
      return runList(session, tool, args, signal);
    case 'plan':
      return runPlan(session, tool, args, signal);
    case 'status':
      return planStatus(session.ctx, args);
    case 'write': {
      refuseFileValues(args);
      // The verb's --json outcome (run.ts): the API's answer, and whether it changed anything (D32).
      const outcome = (await runCommand(session, tool.def, invocationOfCall(tool, args, { yes: true }), signal, {}, true)) as Record<string, unknown> | null;
      return { result: outcome?.answer ?? null, changed: outcome?.changed ?? null, reason: outcome?.reason ?? null };
    }
  }
}

/**
 * A plan tool: the verb's dry run (validated as the command validates, nothing sent),
 * kept as a plan a person applies with `bo plan apply <id>`.
 */
async function runPlan(session: Session, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const { invocation, request, target, origin } = await planOf(session, tool, args, signal);
  const { name: profile } = await session.ctx.profile();
  const created = session.ctx.clock.now();
  const named = target === undefined ? {} : { target };
  // The client that made it, as `bo plan list` and plan_status name it: neutralised, bounded (D33).
  const client = session.clientName === undefined ? {} : { client: clientName(session.clientName) };
  const plan = savePlan(session.ctx.io.env, { created: created.toISOString(), profile, origin, invocation: { path: [...invocation.path], values: invocation.values }, request, ...named, ...client });
  return { planId: plan.id, plan: request, ...named, profile, expires: new Date(created.getTime() + PLAN_LIFETIME_MS).toISOString() };
}

/** A client's name as a plan keeps it: neutralised, at most MAX_CLIENT_NAME characters. */
function clientName(name: string): string {
  const text = neutralise(name);
  return text.length > MAX_CLIENT_NAME ? `${text.slice(0, MAX_CLIENT_NAME - 1)}…` : text;
}

/** What a plan tool makes of a call: its invocation, the dry run's one request, what it acts on, where it goes. */
export interface PlanOf {
  invocation: Invocation;
  /** The dry run as `--json` prints it: method, url (a bare path on the embedded sandbox), body. */
  request: Record<string, unknown>;
  /** What the change acts on as a confirmation names it, neutralised and scrubbed; absent when unknown. */
  target?: string;
  /** The kind of thing the target is (`account`). */
  noun?: string;
  origin: string;
}

/**
 * The plan tool's rules, in one place: used when a plan is made (a tool call) and again
 * when it is applied (`bo plan apply`, from the plan file's invocation). The arguments
 * (already checked against the tool's schema) may not make the command read a local file
 * (`@file`) or stdin (`-`); the invocation holds the tool's parameters only, its dry run
 * is run as `bo --json` would, with no stdin and nothing sent, and must be one request.
 */
export async function planOf(session: Session, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<PlanOf> {
  refuseFileValues(args);
  const invocation = invocationOfCall(tool, args);
  let target: string | undefined;
  let noun: string | undefined;
  const observeTarget = (name: string | undefined, kind: string) => {
    target = name;
    noun = kind;
  };
  const dry = { ...invocation, values: { ...invocation.values, dryRun: true } };
  const request = (await runCommand(session, tool.def, dry, signal, { target: observeTarget })) as unknown;
  if (!isRequest(request)) throw new UsageError(`${tool.name} made no plan of one request`);
  return {
    invocation,
    request,
    // Kept in the plan file: scrubbed of the run's secrets as the result is (a server can echo one in a name).
    ...(target === undefined ? {} : { target: clean(session.ctx, target) as string }),
    ...(noun === undefined ? {} : { noun }),
    origin: planOrigin(session.ctx, request.url),
  };
}

const isRequest = (value: unknown): value is Record<string, unknown> & { method: string; url: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>).method === 'string' && typeof (value as Record<string, unknown>).url === 'string';

/**
 * Where a plan's requests go: the origin of `url` (the dry run's, or the base URL), or,
 * under --sandbox, the embedded sandbox by name, as the journal records it (its address
 * is a new port every run, and its dry run shows a bare path).
 */
export function planOrigin(ctx: Context, url: string): string {
  return ctx.globals.sandbox ? EMBEDDED_SANDBOX : new URL(url).origin;
}

/**
 * A plan file's invocation made into a plan again, under the plan tool's rules
 * (`planOf`): read back as the call of the verb's plan tool (only the parameters that
 * tool offers), checked against the tool's schema, and dry-run afresh. For `bo plan apply`.
 */
export async function planOfInvocation(session: Session, stored: Invocation, signal: AbortSignal): Promise<PlanOf & { tool: Tool }> {
  const verb = stored.path.join(' ');
  const tool = [...session.tools.values()].find((t) => t.kind === 'plan' && t.def.path.join(' ') === verb);
  if (!tool) throw new UsageError(`its command (${verb}) is no change a plan can make`);
  const args: Record<string, unknown> = { ...stored.values };
  checkArgs(tool.listing.inputSchema, args);
  return { tool, ...(await planOf(session, tool, args, signal)) };
}

/**
 * A value the command would read from elsewhere is refused in a change: one starting
 * with @ (a local file read into the request), or `-` (stdin: a batch, or a text read from it).
 */
function refuseFileValues(args: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(args)) {
    const values = [value].flat();
    if (values.some((v) => typeof v === 'string' && v.startsWith('@'))) throw new UsageError(`argument ${key} cannot start with @ here (bo would read a file)`);
    if (values.includes('-')) throw new UsageError(`argument ${key} cannot be - here (bo would read stdin)`);
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
  const invocation = invocationOfCall(tool, args, { page, pageSize });
  const items = (await runCommand(session, tool.def, invocation, signal, { page: observePage })) as unknown[];
  const more = total !== undefined ? (page + 1) * pageSize < total : items.length >= pageSize;
  return { items, total: total ?? null, nextCursor: more ? encodeCursor({ tool: tool.name, query, page: page + 1, pageSize }) : null };
}
