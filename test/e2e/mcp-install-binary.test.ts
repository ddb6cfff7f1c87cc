// `bo mcp install --client <name>` and `bo mcp status` on the built binary, each client's
// file in a temporary HOME (never the real one). The written file is read in the
// client's format; every byte but bo's entry stays as it was, comments included; the
// server is started from the written `command` and `args` and answers tools/list.
// --dry-run writes nothing; --writes direct is refused on a protected profile; a file
// bo cannot read, or a link out of the client's folder, is left alone (exit 2); the file
// keeps its mode and a .bak of it before bo's first change. Claude Code's entry goes
// through `claude mcp add` when `claude` is on PATH (a stand-in records its arguments).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpServer } from '../helpers/mcp-client.js';
import { binPath, runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
const work = mkdtempSync(join(tmpdir(), 'bo-mcp-install-'));
let n = 0;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A fresh temporary HOME and the environment of a bo run in it (no `claude` on PATH). */
function freshHome(): { home: string; env: Record<string, string> } {
  const home = join(work, `home-${++n}`);
  mkdirSync(home, { recursive: true });
  return { home, env: testEnv(sb, { HOME: home, PATH: dirname(process.execPath) + ':/usr/bin:/bin' }) };
}

const bo = (env: Record<string, string>, ...args: string[]) => runBin(args, { env });

/** JSON with comments and trailing commas read as a JSONC reader does (the test's own: comments outside strings only). */
function readJsonc(text: string): any {
  const noComments = text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, str: string | undefined) => str ?? '');
  return JSON.parse(noComments.replace(/,(\s*[}\]])/g, '$1'));
}

/** `after` is `before` with one piece put in (or one piece replaced): that piece, and what it replaced. */
function changedPiece(before: string, after: string): { removed: string; added: string } {
  let head = 0;
  while (head < before.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { removed: before.slice(head, before.length - tail), added: after.slice(head, after.length - tail) };
}

const script = realpathSync(binPath);
const expectedArgs = (...more: string[]) => [script, '-p', 'default', 'mcp', ...more];

/** The server as the entry starts it, asked for its tools. */
async function toolsOf(entry: { command: string; args: string[] }, env: Record<string, string>): Promise<string[]> {
  const run = await startMcpServer(entry.command, entry.args, env);
  const names = (await run.client.listTools()).tools.map((t) => t.name);
  expect(await run.close()).toEqual({ code: 0, signal: null });
  return names;
}

describe('bo mcp install (built binary, a temporary HOME)', () => {
  it('Cursor: adds bo beside the other servers, every other byte kept; the written server answers tools/list', async () => {
    const { home, env } = freshHome();
    const before = await bo(env, '--json', 'mcp', 'status');
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual([]);

    const file = join(home, '.cursor', 'mcp.json');
    mkdirSync(dirname(file));
    const original = '{\n  "mcpServers": {\n    "other": { "command": "/usr/local/bin/other-server", "args": ["serve"] }\n  },\n  "theme": "dark"\n}\n';
    writeFileSync(file, original);
    chmodSync(file, 0o644);
    const r = await bo(env, 'mcp', 'install', '--client', 'cursor');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Wrote bo's entry "bo" to Cursor's configuration (${file}); the file as it was is ${file}.bak.\n`);
    const text = readFileSync(file, 'utf8');
    const config = JSON.parse(text);
    expect(config.mcpServers.bo).toEqual({ command: process.execPath, args: expectedArgs() });
    expect(config.mcpServers.other).toEqual({ command: '/usr/local/bin/other-server', args: ['serve'] });
    expect(config.theme).toBe('dark');
    const { removed, added } = changedPiece(original, text);
    expect(removed).toBe('');
    expect(added).toMatch(/^,\n {4}"bo": \{/);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(original);
    expect(text).not.toContain(sb.fixtures.apiKey.secret);
    expect(text).not.toContain(sb.fixtures.apiKey.key);

    const tools = await toolsOf(config.mcpServers.bo, env);
    expect(tools).toContain('accounts_list');
    expect(tools).not.toContain('lists_create');

    // Again, with --writes plan: bo's entry is replaced where it is; the .bak stays the first one.
    const again = await bo(env, 'mcp', 'install', '--client', 'cursor', '--writes', 'plan');
    expect(again.code, again.stderr).toBe(0);
    const second = readFileSync(file, 'utf8');
    expect(JSON.parse(second).mcpServers.bo.args).toEqual(expectedArgs('--writes', 'plan'));
    expect(changedPiece(text, second)).toEqual({ removed: '', added: ', "--writes", "plan"' });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(original);
    expect(await toolsOf(JSON.parse(second).mcpServers.bo, env)).toEqual(expect.arrayContaining(['lists_create', 'plan_status']));

    const status = await bo(env, '--json', 'mcp', 'status');
    expect(JSON.parse(status.stdout)).toEqual([{ client: 'Cursor', file, name: 'bo', command: process.execPath, args: expectedArgs('--writes', 'plan'), missing: [] }]);
  });

  it('VS Code: a user mcp.json with comments and trailing commas keeps them byte for byte', async () => {
    const { home, env } = freshHome();
    const file = join(home, '.config', 'Code', 'User', 'mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    const original = [
      '// My MCP servers',
      '{',
      '  /* the servers */',
      '  "servers": {',
      '    "github": {',
      '      "type": "http", // remote',
      '      "url": "https://api.githubcopilot.com/mcp/",',
      '    },',
      '  },',
      '  "inputs": [],',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, original);
    const r = await bo(env, 'mcp', 'install', '--client', 'vscode');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const { removed, added } = changedPiece(original, text);
    expect(removed).toBe('');
    expect(added.trim()).toMatch(/^"bo": \{/);
    expect(text).toContain('      "url": "https://api.githubcopilot.com/mcp/",\n    },\n    "bo": {\n      "type": "stdio",');
    const config = readJsonc(text);
    expect(config.servers.bo).toEqual({ type: 'stdio', command: process.execPath, args: expectedArgs() });
    expect(config.servers.github).toEqual({ type: 'http', url: 'https://api.githubcopilot.com/mcp/' });
    expect(config.inputs).toEqual([]);
    expect(await toolsOf(config.servers.bo, env)).toContain('accounts_list');
  });

  it('Claude Code without claude on PATH: ~/.claude.json gains mcpServers.bo, its other keys kept', async () => {
    const { home, env } = freshHome();
    const file = join(home, '.claude.json');
    const original = JSON.stringify({ numStartups: 3, projects: { '/src': { allowedTools: [] } } }, null, 2);
    writeFileSync(file, original, { mode: 0o600 });
    const r = await bo(env, 'mcp', 'install', '--client', 'claude-code');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(changedPiece(original, text).removed).toBe('');
    const config = JSON.parse(text);
    expect(config.mcpServers.bo).toEqual({ type: 'stdio', command: process.execPath, args: expectedArgs(), env: {} });
    expect(config).toMatchObject({ numStartups: 3, projects: { '/src': { allowedTools: [] } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await toolsOf(config.mcpServers.bo, env)).toContain('accounts_list');

    const status = await bo(env, 'mcp', 'status');
    expect(status.stdout).toBe(`Claude Code\tbo\tok\t${[process.execPath, ...expectedArgs()].join(' ')}\t${file}\n`);
  });

  it('Claude Code with claude on PATH: through claude mcp add --scope user', async () => {
    const { home, env } = freshHome();
    const bin = join(home, 'bin');
    mkdirSync(bin);
    const log = join(home, 'claude.log');
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`, { mode: 0o755 });
    const dry = await bo({ ...env, PATH: `${bin}:${env.PATH}` }, 'mcp', 'install', '--client', 'claude-code', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(`${join(bin, 'claude')} mcp add --scope user bo -- ${process.execPath} ${expectedArgs().join(' ')}\n`);
    expect(existsSync(log)).toBe(false);
    const r = await bo({ ...env, PATH: `${bin}:${env.PATH}` }, 'mcp', 'install', '--client', 'claude-code');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe(`mcp remove --scope user bo\nmcp add --scope user bo -- ${process.execPath} ${expectedArgs().join(' ')}\n`);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('Claude Desktop has no Linux build: refused here (exit 2), nothing written', async () => {
    const { home, env } = freshHome();
    const r = await bo(env, 'mcp', 'install', '--client', 'claude-desktop');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: there is no Linux build of Claude Desktop: bo mcp install --client claude-desktop works on macOS and Windows\n');
    expect(existsSync(join(home, '.config'))).toBe(false);
  });

  it('--dry-run shows the change and writes nothing', async () => {
    const { home, env } = freshHome();
    const file = join(home, '.cursor', 'mcp.json');
    mkdirSync(dirname(file));
    const original = '{ "mcpServers": {} }\n';
    writeFileSync(file, original);
    const r = await bo(env, 'mcp', 'install', '--client', 'cursor', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`--- ${file}\n+++ ${file}\n`);
    expect(r.stdout).toContain('-{ "mcpServers": {} }\n');
    expect(r.stdout).toContain('+  "bo": {\n');
    expect(JSON.parse(r.stdout.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1)).join('\n')).mcpServers.bo.args).toEqual(expectedArgs());
    expect(r.stderr).toBe('Dry run: nothing was written.\n');
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(`${file}.bak`)).toBe(false);
    const none = await bo(freshHome().env, 'mcp', 'install', '--client', 'vscode', '--dry-run');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('(new file)');
  });

  it('--writes direct is refused on a protected profile, and needs --tools', async () => {
    const { home, env } = freshHome();
    expect((await bo(env, 'config', 'set', 'protected', 'true')).code).toBe(0);
    const r = await bo(env, 'mcp', 'install', '--client', 'cursor', '--writes', 'direct', '--tools', 'lists');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --writes direct is refused on profile "default": it is protected (use --writes plan)\n');
    const noTools = await bo(freshHome().env, 'mcp', 'install', '--client', 'cursor', '--writes', 'direct');
    expect(noTools.code).toBe(2);
    expect(noTools.stderr).toContain('--writes direct needs --tools');
    expect(existsSync(join(home, '.cursor'))).toBe(false);
  });

  it('a file it cannot read, or a link out of the client\'s folder, is left alone (exit 2)', async () => {
    const { home, env } = freshHome();
    const file = join(home, '.cursor', 'mcp.json');
    mkdirSync(dirname(file));
    writeFileSync(file, '{ "mcpServers": { "x": 1, } oops');
    const r = await bo(env, 'mcp', 'install', '--client', 'cursor');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*mcp\.json is not a configuration bo can read \(.* at line 1, column \d+\): it was left as it is\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "x": 1, } oops');
    expect(existsSync(`${file}.bak`)).toBe(false);

    writeFileSync(file, '{ "mcpServers": null }');
    const notObject = await bo(env, 'mcp', 'install', '--client', 'cursor');
    expect(notObject.code).toBe(2);
    expect(notObject.stderr).toBe(`error: ${file}: "mcpServers" is not an object (at line 1, column 17): it was left as it is\n`);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": null }');

    rmSync(file);
    const outside = join(home, 'elsewhere.json');
    writeFileSync(outside, '{}');
    symlinkSync(outside, file);
    const link = await bo(env, 'mcp', 'install', '--client', 'cursor');
    expect(link.code).toBe(2);
    expect(link.stderr).toContain('is a link out of its folder');
    expect(readFileSync(outside, 'utf8')).toBe('{}');
  });
});

describe('bo mcp status (built binary)', () => {
  it('lists only bo\'s entries, and flags one whose path no longer exists', async () => {
    const { home, env } = freshHome();
    const file = join(home, '.cursor', 'mcp.json');
    mkdirSync(dirname(file));
    writeFileSync(file, JSON.stringify({ mcpServers: { other: { command: '/usr/local/bin/other-server' }, 'bo-old': { command: '/usr/bin/node', args: ['/gone/bin/bo.js', 'mcp'] } } }));
    const r = await bo(env, '--json', 'mcp', 'status');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ client: 'Cursor', file, name: 'bo-old', command: '/usr/bin/node', args: ['/gone/bin/bo.js', 'mcp'], missing: ['/gone/bin/bo.js'] }]);
    const table = await bo(env, 'mcp', 'status');
    expect(table.stdout).toContain('\tmissing /gone/bin/bo.js\t');
  });
});
