// The tools `bo mcp` offers, derived from the command tree: a verb has a read tool when
// its definition says so (`mcp: 'read'`), a mutation a plan or write tool under
// --writes, and a tool's group (what --tools names) is its verb's first word; everything
// else about a tool (its name, description, input schema) comes from the verb's
// definition and its declarations. Verbs that change data, print credentials or
// local settings (auth, config, profiles, sandbox, login, completion) have no read tool.

import type { CommandDefinition } from '../command.js';
import { UsageError } from '../errors.js';
import { MAX_PAGE_SIZE } from '../input/list-options.js';
import { inputSchema, paramsOf, type JsonSchema, type Param } from './schema.js';
import { toolText } from './tool-text.js';
import type { ToolListing } from './sdk.js';

/** Records a list tool returns when the call names no limit. */
export const DEFAULT_TOOL_PAGE = 25;

/** The list options a cursor replaces: a list tool pages with `limit` and `cursor`. */
const PAGING = new Set(['limit', 'all', 'page', 'pageSize', 'concurrency']);
/** `bo api`'s parameters a tool may set: the path and text query fields (never -F's @file, --input or headers). */
const API_PARAMS = new Set(['path', 'rawField']);
/** The name of the field-discovery tool (what `--fields` alone lists). */
export const FIELDS_TOOL = 'fields';

/** `status`: plan_status (mcp/plan-status.ts), offered with the plan tools. */
export type ToolKind = 'list' | 'get' | 'api' | 'fields' | 'plan' | 'write' | 'status';

export interface Tool {
  name: string;
  /** Its group for --tools: the verb's first word (accounts, coupons, …, api). */
  toolset: string;
  kind: ToolKind;
  def: CommandDefinition<any, any>;
  params: Param[];
  listing: ToolListing;
}

/** accounts list → accounts_list; the raw request tool is api_get. */
export function toolName(path: readonly string[]): string {
  return path.join(' ') === 'api' ? 'api_get' : path.join('_').replaceAll('-', '_');
}

const LIST_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    items: { type: 'array', items: { type: 'object' }, description: 'the records, as --json prints them' },
    total: { type: ['integer', 'null'], description: 'how many records match, when the API says' },
    nextCursor: { type: ['string', 'null'], description: 'pass as cursor for the next page; null on the last one' },
  },
  required: ['items', 'total', 'nextCursor'],
};
const RECORD_OUTPUT: JsonSchema = { type: 'object', description: 'the record, as --json prints it' };
const FIELDS_OUTPUT: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, type: { type: 'string' } } } } },
  required: ['items'],
};
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/** The paging parameters of a list tool: `limit` takes --page-size's declared bounds. */
function pagingSchema(pageSize: Param | undefined): Record<string, JsonSchema> {
  const declared = pageSize?.kind === 'option' ? pageSize.declared : undefined;
  const bounds = { minimum: declared?.minimum ?? 1, maximum: declared?.maximum ?? MAX_PAGE_SIZE };
  return {
    limit: { type: 'integer', ...bounds, default: DEFAULT_TOOL_PAGE, description: `records per call (default ${DEFAULT_TOOL_PAGE})` },
    cursor: { type: 'string', description: 'nextCursor of the previous call of this query' },
  };
}

function readTool(def: CommandDefinition<any, any>): Tool {
  const api = def.path.join(' ') === 'api';
  const pageSize = paramsOf(def, (name) => name === 'pageSize')[0];
  const list = !api && pageSize !== undefined;
  const kind: ToolKind = api ? 'api' : list ? 'list' : 'get';
  const params = paramsOf(def, (name) => (api ? API_PARAMS.has(name) : !(list && PAGING.has(name))));
  const name = toolName(def.path);
  const description = toolText(api ? `${def.summary} (GET only)` : def.summary)!;
  const listing: ToolListing = {
    name,
    description,
    inputSchema: inputSchema(params, list ? pagingSchema(pageSize) : {}),
    ...(kind === 'list' ? { outputSchema: LIST_OUTPUT } : kind === 'get' ? { outputSchema: RECORD_OUTPUT } : {}),
    annotations: READ_ONLY,
  };
  return { name, toolset: groupOf(def), kind, def, params, listing };
}

/** The field-discovery tool over the offered tools whose command prints a resource. */
function fieldsTool(tools: Tool[]): Tool | undefined {
  const withFields = tools.filter((t) => t.def.resource !== undefined);
  const first = withFields[0];
  if (!first) return undefined;
  const listing: ToolListing = {
    name: FIELDS_TOOL,
    description: 'List the fields (and their types) a tool can return, for its fields parameter',
    inputSchema: {
      type: 'object',
      properties: { tool: { type: 'string', enum: withFields.map((t) => t.name), description: 'the tool whose fields to list' } },
      required: ['tool'],
      additionalProperties: false,
    },
    outputSchema: FIELDS_OUTPUT,
    annotations: READ_ONLY,
  };
  return { ...first, name: FIELDS_TOOL, toolset: FIELDS_TOOL, kind: 'fields', params: [], listing };
}

/** A verb with a read tool (`bo api`'s is GET only, under /api/v1): marked so, and no change. */
function isRead(def: CommandDefinition<any, any>): boolean {
  return def.mcp === 'read' && def.mutation === undefined && def.fields === undefined;
}

/** A mutation with a plan or write tool: every one but those with a secret field (no tool in any mode). */
function isPlanned(def: CommandDefinition<any, any>): boolean {
  return def.mutation !== undefined && def.mutation.secrets.length === 0;
}

/** A tool's group, which --tools names: its verb's first word. */
function groupOf(def: CommandDefinition<any, any>): string {
  return def.path[0]!;
}

/**
 * The groups --tools can name, in help order: `read`, those with a read tool; `writes`,
 * those whose tools all change data (offered with --writes only).
 */
export function toolGroups(defs: readonly CommandDefinition<any, any>[]): { read: string[]; writes: string[] } {
  const read = [...new Set(defs.filter(isRead).map(groupOf))];
  const writes = [...new Set(defs.filter(isPlanned).map(groupOf))].filter((g) => !read.includes(g));
  return { read, writes };
}

/** `--tools a,b`: the toolsets asked for (all when not given); one not among `defs`' groups is exit 2. */
export function parseToolsets(text: string | undefined, defs: readonly CommandDefinition<any, any>[]): Set<string> {
  const { read, writes } = toolGroups(defs);
  const known = [...read, ...writes];
  if (text === undefined) return new Set(known);
  const names = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !known.includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--tools must be comma-separated toolsets from ${known.join(', ')}, not "${text}"`);
  }
  return new Set(names);
}

/**
 * The read tools of the command tree (`program` built from `defs`) in the toolsets
 * asked for, with the field-discovery tool when one of them prints a resource.
 */
export function readTools(defs: readonly CommandDefinition<any, any>[], toolsets: Set<string>): Tool[] {
  const tools = defs.filter((def) => isRead(def) && toolsets.has(groupOf(def))).map(readTool);
  const fields = fieldsTool(tools);
  return fields ? [...tools, fields] : tools;
}

/** A mutation's flags a plan tool never takes: the plan is its dry run, a person's approval its --yes. */
const NOT_PLANNED = new Set(['dryRun', 'yes', 'concurrency', 'failFast', 'inputFormat', 'outcomes', 'only', 'diff']);
const PLAN_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    planId: { type: 'string', description: 'the plan, for a person to review and apply outside the agent' },
    plan: { type: 'object', description: 'what would be sent: method, url (its path alone on the embedded sandbox), body' },
    target: { type: 'string', description: 'what the change acts on, as a confirmation names it (absent when unknown)' },
    profile: { type: 'string' },
    expires: { type: 'string', description: 'the plan cannot be applied after this time' },
  },
  required: ['planId', 'plan', 'profile', 'expires'],
};

/**
 * `--writes plan`: one tool per mutation verb (`--writes direct`: the same tools send), its schema from the verb's declaration,
 * except verbs with a secret field (they have no tool in any mode). Calling it sends
 * nothing: it returns the dry run and a plan id.
 */
export function planTools(defs: readonly CommandDefinition<any, any>[], toolsets: Set<string>, kind: 'plan' | 'write' = 'plan'): Tool[] {
  return defs
    .filter((def) => isPlanned(def) && toolsets.has(groupOf(def)))
    .map((def) => {
      const params = paramsOf(def, (name) => !NOT_PLANNED.has(name));
      const name = toolName(def.path);
      const listing: ToolListing =
        kind === 'plan'
          ? {
              name,
              description: `Plan: ${toolText(def.summary)}. Sends nothing; returns the plan`,
              inputSchema: inputSchema(params),
              outputSchema: PLAN_OUTPUT,
              annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
            }
          : {
              name,
              description: toolText(def.summary)!,
              inputSchema: inputSchema(params),
              // Safe to send again exactly when `bo batch resume` sends it again unasked (the verb's `resend`).
              annotations: { readOnlyHint: false, destructiveHint: def.mutation!.destructive, idempotentHint: def.mutation!.resend === 'safe', openWorldHint: false },
            };
      return { name, toolset: groupOf(def), kind, def, params, listing };
    });
}

/** The names a write tool would have: every verb that changes data (its definition declares a mutation). */
export function writeToolNames(defs: CommandDefinition<any, any>[]): Set<string> {
  return new Set(defs.filter((def) => def.mutation !== undefined || def.fields !== undefined).map((def) => toolName(def.path)));
}
