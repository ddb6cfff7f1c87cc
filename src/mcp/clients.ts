// The MCP clients' forms of bo's server entry, the one table: docs/agents.md shows what
// it renders (test/mcp/clients.test.ts keeps the two equal), `bo mcp --help` its first
// form, and `bo mcp install` writes it. A client that is not started from a shell does
// not get its PATH (`spawn bo ENOENT`), so the command is an absolute path: of the single
// executable `bo`, or, for an npm install, of `node`, with bin/bo.js's path as its first
// argument (a client without the PATH would not find `node` either).

import { posix, win32 } from 'node:path';

/** How the client starts bo: the program and its arguments. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** Where bo is: the single executable, or an npm install run by node. */
export type Install = { kind: 'executable'; bo: string } | { kind: 'npm'; node: string; script: string };

/** The server entry's command for `install`, with bo's own arguments (`-p <profile> mcp`). */
export function serverCommand(install: Install, boArgs: readonly string[]): ServerCommand {
  return install.kind === 'executable' ? { command: install.bo, args: [...boArgs] } : { command: install.node, args: [install.script, ...boArgs] };
}

export type ClientId = 'claude-desktop' | 'claude-code' | 'vscode' | 'cursor';

export interface ClientForm {
  id: ClientId;
  /** The client's name as its makers write it. */
  name: string;
  /** Where the entry goes, as its documentation says. */
  where: string;
  /** The fence's language in docs/agents.md: a JSON file, or a command line. */
  language: 'json' | 'text';
  /** The entry named `name` in the client's form. */
  render(server: ServerCommand, name?: string): string;
  /** The member of the configuration file's object that holds the servers, by name. */
  key: 'mcpServers' | 'servers';
  /** One server's entry, as the file holds it. */
  entry(server: ServerCommand): Record<string, unknown>;
  /**
   * The user's configuration file `bo mcp install` writes and `bo mcp status` reads, on
   * `platform` with `env`'s HOME (APPDATA on Windows); undefined where the client has no
   * build (Claude Desktop on Linux) or the folder is not known.
   */
  file(platform: NodeJS.Platform, env: Record<string, string | undefined>): string | undefined;
}

/** A path under a folder in the platform's own form. */
const under = (platform: NodeJS.Platform, base: string | undefined, ...parts: string[]) =>
  base ? (platform === 'win32' ? win32 : posix).join(base, ...parts) : undefined;
/** The folder of the user's application settings: ~/Library/Application Support, %APPDATA%, $XDG_CONFIG_HOME or ~/.config. */
function appSettings(platform: NodeJS.Platform, env: Record<string, string | undefined>): string | undefined {
  if (platform === 'darwin') return under(platform, env.HOME, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA;
  return env.XDG_CONFIG_HOME || under(platform, env.HOME, '.config');
}
/** The user's home folder: USERPROFILE on Windows, else HOME. */
const home = (platform: NodeJS.Platform, env: Record<string, string | undefined>) => (platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME);
const stdioEntry = (server: ServerCommand) => ({ command: server.command, args: server.args });

/** JSON as a client's file holds it: indented, a list of strings on one line. */
export const json = (value: unknown) =>
  JSON.stringify(value, null, 2).replace(/\[\s+("(?:[^"\\]|\\.)*"(?:,\s+"(?:[^"\\]|\\.)*")*)\s+\]/g, (_, inner: string) => `[${inner.replace(/",\s+"/g, '", "')}]`);

/** A word as a POSIX shell reads it: as is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The forms, in the order docs/agents.md shows them. */
export const CLIENTS: readonly ClientForm[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
    language: 'json',
    render: (server, name = 'bo') => json({ mcpServers: { [name]: { command: server.command, args: server.args } } }),
    key: 'mcpServers',
    entry: stdioEntry,
    // No Linux build: macOS and Windows only.
    file: (platform, env) => (platform === 'darwin' || platform === 'win32' ? under(platform, appSettings(platform, env), 'Claude', 'claude_desktop_config.json') : undefined),
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    where: 'a command line (`--scope user`: in every project)',
    language: 'text',
    render: (server, name = 'bo') => ['claude', ...claudeAddArgs(server, name)].map(shellWord).join(' '),
    // What `claude mcp add --scope user` writes, when there is no `claude` to run.
    key: 'mcpServers',
    entry: (server) => ({ type: 'stdio', command: server.command, args: server.args, env: {} }),
    file: (platform, env) => under(platform, home(platform, env), '.claude.json'),
  },
  {
    id: 'vscode',
    name: 'VS Code',
    where: '.vscode/mcp.json in the workspace (or the user configuration: MCP: Open User Configuration)',
    language: 'json',
    render: (server, name = 'bo') => json({ servers: { [name]: { type: 'stdio', command: server.command, args: server.args } } }),
    // The user configuration (MCP: Open User Configuration).
    key: 'servers',
    entry: (server) => ({ type: 'stdio', command: server.command, args: server.args }),
    file: (platform, env) => under(platform, appSettings(platform, env), 'Code', 'User', 'mcp.json'),
  },
  {
    id: 'cursor',
    name: 'Cursor',
    where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
    language: 'json',
    render: (server, name = 'bo') => json({ mcpServers: { [name]: { command: server.command, args: server.args } } }),
    key: 'mcpServers',
    entry: stdioEntry,
    file: (platform, env) => under(platform, home(platform, env), '.cursor', 'mcp.json'),
  },
];

/** The paths docs/agents.md shows: what `command -v bo`, `command -v node` and `npm root -g` print on the reader's machine. */
export const DOC_INSTALLS: ReadonlyArray<{ title: string; install: Install }> = [
  { title: 'the single executable', install: { kind: 'executable', bo: '/home/you/.local/bin/bo' } },
  { title: 'an npm install', install: { kind: 'npm', node: '/usr/local/bin/node', script: '/usr/local/lib/node_modules/bo/bin/bo.js' } },
];

/** bo's arguments in the docs' forms. */
export const DOC_BO_ARGS = ['-p', '<profile>', 'mcp'] as const;

/** The arguments of `claude mcp add` for bo's entry: what the docs show and what `bo mcp install` runs. */
export function claudeAddArgs(server: ServerCommand, name = 'bo'): string[] {
  return ['mcp', 'add', '--scope', 'user', name, '--', server.command, ...server.args];
}

/** docs/agents.md's client forms section, rendered from the table. */
export function clientFormsMarkdown(): string {
  const out: string[] = [];
  for (const client of CLIENTS) {
    out.push(`**${client.name}**: ${client.where}.`, '');
    for (const { title, install } of DOC_INSTALLS) {
      out.push(`${title[0]!.toUpperCase()}${title.slice(1)}:`, '', `\`\`\`${client.language}`, client.render(serverCommand(install, DOC_BO_ARGS)), '```', '');
    }
  }
  return out.join('\n').trimEnd();
}
