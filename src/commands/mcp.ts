import { defineCommand, type CommandDefinition } from '../command.js';
import { UsageError } from '../errors.js';
import { option } from '../input/declare.js';
import { CLIENTS, DOC_BO_ARGS, serverCommand } from '../mcp/clients.js';
import { serveMcp } from '../mcp/server.js';
import { parseToolsets, toolGroups } from '../mcp/tools.js';

/** How an MCP client starts bo: printed by `bo mcp --help` (docs/agents.md says more). */
const CLIENT_CONFIG = `
Client configuration (Claude Desktop's and Cursor's form; the command is bo's absolute
path, as command -v bo prints it: a client gets no PATH; docs/agents.md has the others):
  ${CLIENTS[0]!.render(serverCommand({ kind: 'executable', bo: '/path/to/bo' }, DOC_BO_ARGS)).replace(/\n\s*/g, ' ')}
bo mcp install --client <name> writes it into the client's configuration for you.
Without --writes no tool can change anything. Results are JSON data; text from
the server is neutralised and the run's secrets are scrubbed from every message.`;

/** The groups --tools names: those with read tools, then those offered with --writes only. */
function toolsHelp(defs: readonly CommandDefinition<any>[]): string {
  const { read, writes } = toolGroups(defs);
  return writes.length > 0 ? `${read.join(', ')}; with --writes also ${writes.join(', ')}` : read.join(', ');
}

/** `bo mcp`: the tools come from the command tree, which the context hands over. */
const mcpCommand =
  defineCommand({
    path: ['mcp'],
    summary: 'Serve bo to an AI agent over MCP on stdin and stdout (read-only unless --writes)',
    description:
      'Serve the Model Context Protocol over stdin and stdout for an AI agent, with the profile in effect and its stored credential. ' +
      'Its tools read: accounts list and get, an account\'s subscriptions and add-ons, coupons list and redemptions, lists list, broadcasts get, the fields of each, and GET requests under /api/v1. ' +
      'Without --writes no tool can change anything. List tools return 25 records a call by default (at most 100) and a cursor for the next page. ' +
      '--tools limits the tools to some groups. --writes plan adds a tool per change (but those that take a secret) that sends nothing: ' +
      'it returns the dry run and a plan id, which a person applies with bo plan apply. --writes direct lets the agent send changes: ' +
      'only with --tools, never on a protected profile. It ends when the client closes stdin.',
    examples: [
      { example: ['bo -p staging mcp', 'what an MCP client runs'], needs: 'an MCP client on stdin' },
      { example: ['bo --sandbox mcp --tools accounts,coupons', 'only the accounts and coupons tools'], needs: 'an MCP client on stdin' },
    ],
    // The groups --tools names come from the definitions (each verb's first word): every verb is loaded for this help.
    helpFromAll: true,
    options: (all) =>
      [
        option.text('--tools <toolsets>', `comma-separated tool groups to offer: ${toolsHelp(all)} (default: all)`),
        option.choice(
          '--writes <mode>',
          'plan: add a tool per change that returns its dry run as a plan, applied by a person with bo plan apply; direct: the agent sends changes (needs --tools; never on a protected profile)',
          ['plan', 'direct'],
        ),
      ] as const,
    helpAfter: CLIENT_CONFIG,
    run: async (ctx, _args, opts) => {
      if (opts.writes === 'direct' && opts.tools === undefined) throw new UsageError('--writes direct needs --tools naming the tool groups the agent may change');
      const defs = await ctx.definitions();
      await serveMcp(ctx, defs, parseToolsets(opts.tools, defs), opts.writes ?? 'none');
    },
  });
export default mcpCommand;
