// Every MCP tool's input schema against its command's declarations: each property is an
// argument or option the command's parser takes, of the type its declaration gives,
// required where the command requires it; the paging flags a cursor replaces are absent.
// Read from commander's own Command objects and the declarations, independently of mcp/schema.ts.
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';
import { planTools, readTools, parseToolsets, writeToolNames, type Tool } from '../../src/mcp/tools.js';
import { UID_PATTERN, checkUid } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';
import { toolText } from '../../src/mcp/tool-text.js';
import { commandAt, schemaAgainstCommand, type ToolSchema } from '../helpers/command-schema.js';

const defs = await loadCommands();
const program = buildProgram(defs, async () => {});
const tools = readTools(defs, parseToolsets(undefined, defs));
const tool = (name: string) => tools.find((t) => t.name === name)!;
const schemaOf = (t: Tool) => t.listing.inputSchema as unknown as ToolSchema;

describe('MCP tool schemas come from the commands', () => {
  it('every property of every command tool is an argument or option of its command, of the type its flags say', () => {
    for (const t of [...tools.filter((t) => t.kind !== 'fields'), ...planTools(defs, parseToolsets(undefined, defs))]) {
      const { actual, expected } = schemaAgainstCommand(t.name, schemaOf(t), t.def, commandAt(program, t.def.path), t.kind === 'list');
      expect(actual).toEqual(expected);
      expect(t.listing.description).toContain(toolText(t.def.summary));
    }
  });

  it('accounts_list: its own flags, the list options but paging, and limit with --page-size bounds and a cursor', () => {
    const schema = schemaOf(tool('accounts_list'));
    expect(Object.keys(schema.properties).sort()).toEqual(['cursor', 'fields', 'filter', 'limit', 'orderBy', 'q', 'search', 'segment']);
    expect(schema.properties.filter).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.properties.segment).toMatchObject({ type: 'string', pattern: UID_PATTERN });
    expect(schema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    const pageSize = program.commands.find((c) => c.name() === 'accounts')!.commands.find((c) => c.name() === 'list')!.options.find((o) => o.long === '--page-size')!;
    expect(pageSize.description).toContain('1-100');
    expect(tool('accounts_list').listing.description).toBe('List accounts (GET /crm/accounts)');
  });

  it('accounts_get and coupons_redemptions: the Uid argument is required, with the Uid pattern; switches are booleans', () => {
    expect(schemaOf(tool('accounts_get'))).toMatchObject({ required: ['accountUid'], properties: { accountUid: { type: 'string', pattern: UID_PATTERN }, fields: { type: 'string' } } });
    const redemptions = schemaOf(tool('coupons_redemptions'));
    expect(redemptions).toMatchObject({ required: ['couponUid'], properties: { couponUid: { pattern: UID_PATTERN }, active: { type: 'boolean' }, search: { type: 'string' } } });
  });

  it('the Uid pattern accepts what checkUid accepts and refuses what it refuses', () => {
    const pattern = new RegExp(UID_PATTERN);
    for (const uid of ['acc_lvsegbmzg', 'x', '...', 'a.b']) {
      expect([uid, pattern.test(uid)]).toEqual([uid, true]);
      expect(checkUid('<uid>', uid)).toBe(uid);
    }
    for (const uid of ['', '-', '.', '..', 'a b', 'a/b', 'a\u0007']) {
      expect([uid, pattern.test(uid)]).toEqual([uid, false]);
      expect(() => checkUid('<uid>', uid)).toThrow(UsageError);
    }
  });

  it('api_get takes only the path and text query fields: no method, file fields, headers or input', () => {
    expect(Object.keys(schemaOf(tool('api_get')).properties)).toEqual(['path', 'rawField']);
  });

  it('plan tools: one per mutation verb without a secret field, without --dry-run, --yes or batch flags', () => {
    const plans = planTools(defs, parseToolsets(undefined, defs));
    const mutations = defs.filter((d) => d.mutation !== undefined);
    expect(plans.map((t) => t.def.path.join(' '))).toEqual(mutations.filter((d) => d.mutation!.secrets.length === 0).map((d) => d.path.join(' ')));
    expect(plans.map((t) => t.name)).not.toContain('payment_info_update');
    for (const t of plans) for (const flag of ['dryRun', 'yes', 'concurrency', 'failFast']) expect(Object.keys(schemaOf(t).properties)).not.toContain(flag);
  });

  it('offers no tool for credentials, settings, the sandbox or a change; every mutation verb has a refused name', () => {
    const names = tools.map((t) => t.name);
    for (const word of ['auth', 'config', 'profiles', 'sandbox', 'login', 'logout', 'completion', 'mcp']) expect(names.filter((n) => n.startsWith(word))).toEqual([]);
    const writes = writeToolNames(defs);
    expect(writes).toContain('accounts_cancel');
    expect(writes).toContain('payment_info_update');
    expect(names.filter((n) => writes.has(n))).toEqual([]);
  });

  it('--tools names toolsets; an unknown one is a usage error naming --tools', () => {
    expect(readTools(defs, parseToolsets('lists', defs)).map((t) => t.name)).toEqual(['lists_list', 'fields']);
    expect(readTools(defs, parseToolsets('api', defs)).map((t) => t.name)).toEqual(['api_get']);
    expect(() => parseToolsets('accounts,config', defs)).toThrow(/--tools/);
    expect(() => parseToolsets('', defs)).toThrow(/--tools/);
  });
});
