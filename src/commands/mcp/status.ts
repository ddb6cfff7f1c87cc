// `bo mcp status`: which MCP clients' configurations start bo (mcp/install.ts), bo's
// entries only, each flagged when the path it starts no longer exists.

import { listOf } from '../../api/record-source.js';
import { defineCommand } from '../../command.js';
import { shellWord } from '../../mcp/clients.js';
import { findEntries, type FoundEntry } from '../../mcp/install.js';
import { printList, warn, type Column } from '../../output/print.js';

const columns: Column<FoundEntry>[] = [
  { header: 'Client', get: (e) => e.client },
  { header: 'Name', get: (e) => e.name },
  { header: 'Status', get: (e) => (e.missing.length === 0 ? 'ok' : `missing ${e.missing.join(', ')}`) },
  { header: 'Command', get: (e) => [e.command, ...e.args].map(shellWord).join(' ') },
  { header: 'File', get: (e) => e.file },
];

export default defineCommand({
  printsRecords: true,
  path: ['mcp', 'status'],
  summary: "List the MCP clients whose configuration starts bo, flagging an entry whose path is gone",
  description:
    "List bo's server entries in the configuration files bo mcp install writes (Claude Code's ~/.claude.json, VS Code's user mcp.json, " +
    "Cursor's ~/.cursor/mcp.json, Claude Desktop's on macOS and Windows): only bo's entries, each with its command and a status, " +
    '"missing <path>" when the program or script it starts no longer exists (bo moved or was removed: run bo mcp install again).',
  examples: ['bo mcp status', 'bo mcp status --json'],
  run: async (ctx) => {
    const entries = findEntries(process.platform, ctx.io.env, (text) => warn(ctx, text));
    await printList(ctx, listOf(entries), columns);
  },
});
