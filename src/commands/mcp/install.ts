// `bo mcp install --client <name>`: bo's server entry written into an MCP client's own
// configuration file (mcp/install.ts), from the one table of client forms (mcp/clients.ts).

import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { option } from '../../input/declare.js';
import { CLIENTS, serverCommand, shellWord, type ClientId } from '../../mcp/clients.js';
import { addWithClaude, changeFor, claudeCommand, clientForm, configFile, diffText, entryArgs, thisBo, writeChange } from '../../mcp/install.js';
import { say } from '../../output/print.js';

const CLIENT_IDS = CLIENTS.map((c) => c.id) as unknown as readonly [ClientId, ...ClientId[]];

export default defineCommand({
  path: ['mcp', 'install'],
  summary: "Write bo's server entry into an MCP client's configuration (Claude Code, VS Code, Cursor, Claude Desktop)",
  description:
    "Write bo's server entry into the client's own configuration file, in the client's form (docs/agents.md shows each): " +
    'the absolute path of this bo (or of node and bin/bo.js for an npm install), the profile in effect, read-only unless --writes plan. ' +
    "Only bo's entry changes: every other byte of the file stays as it was, comments included; a file bo cannot read is left alone (exit 2). " +
    'The file is written atomically and keeps its mode; a copy of it before bo first changed it is kept as <file>.bak. ' +
    "A link out of the client's folder is not followed. No credential is written: the entry is a command line. " +
    'Claude Code: through claude mcp add --scope user when claude is on PATH, else into ~/.claude.json. VS Code: the user mcp.json. ' +
    'Cursor: ~/.cursor/mcp.json. Claude Desktop: claude_desktop_config.json, on macOS and Windows (it has no Linux build). ' +
    '--writes direct is refused on a protected profile, and needs --tools.',
  examples: [
    ['bo mcp install --client cursor --dry-run', 'show the change to ~/.cursor/mcp.json; write nothing'],
    { example: ['bo -p staging mcp install --client vscode --writes plan', 'the agent may make plans for bo plan apply'], needs: 'VS Code' },
  ],
  options: [
    option.choice('--client <name>', 'the MCP client to configure', CLIENT_IDS, { required: true }),
    option.choice('--writes <mode>', 'plan: the agent may make plans a person applies; direct: the agent sends changes (needs --tools; never on a protected profile)', ['plan', 'direct']),
    option.text('--tools <toolsets>', 'comma-separated tool groups the server offers (bo mcp --help lists them; default: all)'),
    option.text('--name <name>', 'the name of the entry (default: bo)'),
    option.switch('--dry-run', 'show the change to the file; write nothing'),
  ] as const,
  run: async (ctx, _operands, opts) => {
    const client = clientForm(opts.client);
    const name = opts.name ?? 'bo';
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new UsageError(`--name must be letters, digits, ".", "_" or "-", not ${JSON.stringify(name)}`);
    if (opts.writes === 'direct' && opts.tools === undefined) throw new UsageError('--writes direct needs --tools naming the tool groups the agent may change');
    const { name: profile, settings } = await ctx.profile();
    if (opts.writes === 'direct' && settings.protected === true) {
      throw new UsageError(`--writes direct is refused on profile "${profile}": it is protected (use --writes plan)`);
    }
    const server = serverCommand(thisBo(), entryArgs(profile, ctx.globals.sandbox === true, opts.writes, opts.tools));
    const claude = client.id === 'claude-code' ? claudeCommand(ctx.io.env) : undefined;
    if (claude) {
      const line = [claude, 'mcp', 'add', '--scope', 'user', name, '--', server.command, ...server.args].map(shellWord).join(' ');
      if (opts.dryRun) {
        ctx.io.stdout.write(`${line}\n`);
        return;
      }
      addWithClaude(claude, name, server, ctx.io.env);
      say(ctx, `Added bo's entry "${name}" to Claude Code (${line}).`);
      return;
    }
    const file = configFile(client, process.platform, ctx.io.env);
    const change = changeFor(client, file, name, server);
    if (change.after === change.before) {
      say(ctx, `${client.name}'s configuration (${file}) already holds this entry "${name}": nothing changed.`);
      return;
    }
    if (opts.dryRun) {
      ctx.io.stdout.write(`${diffText(change)}\n`);
      say(ctx, 'Dry run: nothing was written.');
      return;
    }
    const { backup } = writeChange(change);
    say(ctx, `Wrote bo's entry "${name}" to ${client.name}'s configuration (${file})${backup ? `; the file as it was is ${backup}` : ''}.`);
  },
});
