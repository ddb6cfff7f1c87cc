// Where `bo mcp install` writes each client's entry on each platform (the one table,
// src/mcp/clients.ts), and the JSONC edit it makes: bo's member alone changes, every
// other byte (comments, trailing commas, spacing) stays as it was.
import { describe, expect, it } from 'vitest';
import { CLIENTS, json } from '../../src/mcp/clients.js';
import { parseJsonc, setMember, JsoncError } from '../../src/mcp/jsonc.js';

const file = (id: string, platform: NodeJS.Platform, env: Record<string, string>) => CLIENTS.find((c) => c.id === id)!.file(platform, env);

describe('the configuration file of each client', () => {
  it('Claude Desktop: macOS and Windows only', () => {
    expect(file('claude-desktop', 'darwin', { HOME: '/u/ann' })).toBe('/u/ann/Library/Application Support/Claude/claude_desktop_config.json');
    expect(file('claude-desktop', 'win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' })).toBe('C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(file('claude-desktop', 'linux', { HOME: '/u/ann' })).toBeUndefined();
  });

  it('VS Code, Cursor and Claude Code: the user\'s own files', () => {
    expect(file('vscode', 'linux', { HOME: '/u/ann' })).toBe('/u/ann/.config/Code/User/mcp.json');
    expect(file('vscode', 'linux', { HOME: '/u/ann', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/Code/User/mcp.json');
    expect(file('vscode', 'darwin', { HOME: '/u/ann' })).toBe('/u/ann/Library/Application Support/Code/User/mcp.json');
    expect(file('cursor', 'linux', { HOME: '/u/ann' })).toBe('/u/ann/.cursor/mcp.json');
    expect(file('cursor', 'win32', { USERPROFILE: 'C:\\Users\\ann' })).toBe('C:\\Users\\ann\\.cursor\\mcp.json');
    expect(file('claude-code', 'linux', { HOME: '/u/ann' })).toBe('/u/ann/.claude.json');
  });
});

describe('setMember on JSONC', () => {
  const set = (text: string, path: string[], value: unknown) => setMember(text, parseJsonc(text), path, value, json);

  it('replaces an existing member where it is', () => {
    const text = '{\n  // keep\n  "servers": { "bo": { "command": "/old" }, /* b */ "x": 1 }\n}\n';
    expect(set(text, ['servers', 'bo'], { command: '/new' })).toBe('{\n  // keep\n  "servers": { "bo": {\n    "command": "/new"\n  }, /* b */ "x": 1 }\n}\n');
  });

  it('adds a member after the last, keeping a trailing comma and comments', () => {
    const text = '{\n  "servers": {\n    "a": {}, // a\n  },\n}';
    expect(set(text, ['servers', 'bo'], 1)).toBe('{\n  "servers": {\n    "a": {}, // a\n    "bo": 1\n  },\n}');
    expect(set('{\n  "a": 1 // one\n}', ['bo'], 2)).toBe('{\n  "a": 1, // one\n  "bo": 2\n}');
  });

  it('adds the servers object when there is none, and fills an empty one', () => {
    expect(set('{\n  "a": 1\n}', ['mcpServers', 'bo'], 2)).toBe('{\n  "a": 1,\n  "mcpServers": {\n    "bo": 2\n  }\n}');
    expect(set('{}', ['mcpServers', 'bo'], 2)).toBe('{\n  "mcpServers": {\n    "bo": 2\n  }\n}');
  });

  it('refuses what is not JSONC, saying where', () => {
    expect(() => parseJsonc('{ "a": 1 } x')).toThrow(JsoncError);
    expect(() => parseJsonc('{ "a": /* open')).toThrow('a comment that never ends');
    expect(() => parseJsonc('{ a: 1 }')).toThrow('an object member without a quoted key');
    expect(() => parseJsonc('{ "a": "\\q" }')).toThrow('a string with a bad escape');
  });
});
