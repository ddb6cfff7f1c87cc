// The MCP clients' forms of bo's server entry (src/mcp/clients.ts, the one table):
// docs/agents.md shows exactly what the table renders, and each form, parsed as its
// client reads it (Claude Desktop's and Cursor's `mcpServers`, VS Code's `servers` with
// `type: "stdio"`, Claude Code's `claude mcp add` command line), starts a server that
// answers tools/list, from its `command` and `args` alone: no PATH, as a client started
// outside a shell runs it. The paths filled in are this machine's: the running node and
// the built bin/bo.js (an npm install), or an executable `bo` at an absolute path.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENTS, clientFormsMarkdown, serverCommand, type ClientForm, type Install, type ServerCommand } from '../../src/mcp/clients.js';
import { startMcpServer } from '../helpers/mcp-client.js';
import { binPath } from '../helpers/run-bin.js';
import { tempConfig } from '../helpers/config-dir.js';

const agents = fileURLToPath(new URL('../../docs/agents.md', import.meta.url));
const BEGIN = /<!-- client forms: [^\n]*-->\n/;
const END = '\n<!-- end of client forms -->';

const root = mkdtempSync(join(tmpdir(), 'bo-mcp-clients-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A command line's words as a POSIX shell splits them (plain words and single quotes, as shellWord writes them). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/(?:[^\s']+|'[^']*')+/g)].map((m) => m[0].replace(/'([^']*)'/g, '$1'));
}

/** The server entry `bo` of a rendered form, read as its client reads it. */
function parseForm(client: ClientForm, text: string): ServerCommand {
  switch (client.id) {
    case 'claude-desktop':
    case 'cursor': {
      const entry = (JSON.parse(text) as { mcpServers: Record<string, { command: unknown; args: unknown }> }).mcpServers.bo!;
      expect(Object.keys(entry).sort()).toEqual(['args', 'command']);
      return entry as ServerCommand;
    }
    case 'vscode': {
      const entry = (JSON.parse(text) as { servers: Record<string, { type: unknown; command: unknown; args: unknown }> }).servers.bo!;
      expect(entry.type).toBe('stdio');
      return { command: entry.command as string, args: entry.args as string[] };
    }
    case 'claude-code': {
      const words = shellWords(text);
      const dashes = words.indexOf('--');
      expect(words.slice(0, dashes)).toEqual(['claude', 'mcp', 'add', '--scope', 'user', 'bo']);
      return { command: words[dashes + 1]!, args: words.slice(dashes + 2) };
    }
  }
}

describe('MCP client forms', () => {
  it('docs/agents.md shows what the table renders', () => {
    const text = readFileSync(agents, 'utf8');
    const begin = BEGIN.exec(text);
    expect(begin, 'docs/agents.md has the client forms markers').not.toBeNull();
    const start = begin!.index + begin![0].length;
    const shown = text.slice(start, text.indexOf(END, start));
    if (process.env.BO_UPDATE_DOCS === '1' && shown !== clientFormsMarkdown()) {
      writeFileSync(agents, text.slice(0, start) + clientFormsMarkdown() + text.slice(start + shown.length));
    }
    expect(shown, 'run BO_UPDATE_DOCS=1 npx vitest run test/e2e/mcp-clients-binary.test.ts').toBe(clientFormsMarkdown());
    for (const client of CLIENTS) expect(shown).toContain(`**${client.name}**`);
  });

  // An executable `bo` at an absolute path, as the single executable is (it runs the built bo).
  const bo = join(root, 'bin', 'bo');
  const installs: Array<[string, Install]> = [
    ['an npm install', { kind: 'npm', node: process.execPath, script: binPath }],
    ['the single executable', { kind: 'executable', bo }],
  ];

  it.each(CLIENTS.flatMap((client) => installs.map(([what, install]) => [client.name, what, client, install] as const)))(
    '%s, %s: the form parsed starts a server that answers tools/list',
    async (_name, _what, client, install) => {
      rmSync(join(root, 'bin'), { recursive: true, force: true });
      mkdirSync(join(root, 'bin'), { recursive: true });
      writeFileSync(bo, `#!/bin/sh\nexec '${process.execPath}' '${binPath}' "$@"\n`);
      chmodSync(bo, 0o755);
      const server = parseForm(client, client.render(serverCommand(install, ['--sandbox', 'mcp'])));
      expect(server.command.startsWith('/')).toBe(true);
      const t = tempConfig();
      // No PATH: a client started outside a shell has none of the user's.
      const run = await startMcpServer(server.command, server.args, { ...t.env, PATH: '', BO_DATA_DIR: join(t.root, 'data') });
      const { tools } = await run.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('accounts_list');
      expect(await run.close()).toEqual({ code: 0, signal: null });
    },
  );
});
