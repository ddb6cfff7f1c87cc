// What `bo mcp` offers, as tools/list returns it, against snapshots kept in the
// repository: one JSON file per tool under __toolsnaps__/ (`<tool>.json`; a change's
// tool `<tool>.plan.json` under --writes plan, `<tool>.direct.json` under --writes
// direct), compared exactly, and toolsets.json: the tools of every --tools group, and
// of all, in each --writes mode. A schema, description
// or annotation that changes shows in the diff of its file. After a deliberate change:
//   UPDATE_TOOLSNAPS=1 npx vitest run test/mcp/toolsnaps.unit.test.ts
// The server runs in this process (`bo --sandbox mcp …`), handed the handshake and
// tools/list on its stdin.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { run } from '../../src/main.js';
import { toolGroups, toolName } from '../../src/mcp/tools.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBo } from '../helpers/run-bo.js';

const SNAPS = fileURLToPath(new URL('./__toolsnaps__/', import.meta.url));
const update = process.env.UPDATE_TOOLSNAPS === '1';

interface Listed {
  name: string;
  inputSchema: { properties?: Record<string, { enum?: string[] }> };
}

/** tools/list of `bo --sandbox mcp <argv>`, run in this process. */
async function toolsList(argv: string[]): Promise<Listed[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough().resume();
  let text = '';
  const answer = new Promise<Listed[]>((resolve) => {
    stdout.on('data', (chunk: Buffer) => {
      text += chunk;
      for (const line of text.split('\n').slice(0, -1)) {
        const message = JSON.parse(line) as { id?: number; result?: { tools: Listed[] } };
        if (message.id === 2) resolve(message.result!.tools);
      }
    });
  });
  const env = { HOME: process.env.HOME, PATH: process.env.PATH, ...tempConfig().env };
  const exited = run(['--sandbox', 'mcp', ...argv], { io: { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env } });
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'toolsnaps', version: '1' } } });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/list', params: {} });
  const tools = await answer;
  stdin.end();
  expect(await exited).toBe(0);
  return tools;
}

const defs = await loadCommands();
const { read, writes } = toolGroups(defs);
const groups = [...read, ...writes];
const MODES = ['none', 'plan', 'direct'] as const;
type Mode = (typeof MODES)[number];

/** The tools of each mode, for all groups (`all`; --writes direct names them all with --tools) and each group alone. */
const listed = new Map<string, Listed[]>();
for (const mode of MODES) {
  const writesArgs = mode === 'none' ? [] : ['--writes', mode];
  listed.set(`${mode} all`, await toolsList(mode === 'direct' ? ['--tools', groups.join(','), ...writesArgs] : writesArgs));
  for (const group of groups) listed.set(`${mode} ${group}`, await toolsList(['--tools', group, ...writesArgs]));
}

const changes = new Set(defs.filter((d) => d.mutation !== undefined).map((d) => toolName(d.path)));

/** A tool's snapshot file: a read tool's is the same in every mode; a change's tool has one per mode. */
function snapFile(tool: Listed, mode: Mode): string {
  return mode !== 'none' && changes.has(tool.name) ? `${tool.name}.${mode}.json` : `${tool.name}.json`;
}

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every tool of every selection, by its snapshot file; `fields` from all groups (alone, it names fewer tools). */
const snaps = new Map<string, Listed>();
for (const mode of MODES) for (const tool of listed.get(`${mode} all`)!) snaps.set(snapFile(tool, mode), tool);
const toolsets = Object.fromEntries(MODES.map((mode) => [mode, Object.fromEntries(['all', ...groups].map((g) => [g, listed.get(`${mode} ${g}`)!.map((t) => t.name)]))]));

if (update) {
  rmSync(SNAPS, { recursive: true, force: true });
  mkdirSync(SNAPS, { recursive: true });
  for (const [file, tool] of snaps) writeFileSync(join(SNAPS, file), text(tool));
  writeFileSync(join(SNAPS, 'toolsets.json'), text(toolsets));
}

const saved = (file: string) => (existsSync(join(SNAPS, file)) ? readFileSync(join(SNAPS, file), 'utf8') : `(no snapshot ${file}: UPDATE_TOOLSNAPS=1 writes it)`);

describe('bo mcp tools/list against its snapshots (UPDATE_TOOLSNAPS=1 rewrites them)', () => {
  it('offers in each --writes mode, for all groups and for each group alone, the tools toolsets.json lists', () => {
    expect(text(toolsets)).toBe(saved('toolsets.json'));
  });

  it.each([...snaps.keys()])('%s: the tool as tools/list returns it', (file) => {
    expect(text(snaps.get(file))).toBe(saved(file));
  });

  it('keeps no snapshot of a tool no longer offered', () => {
    expect(readdirSync(SNAPS).filter((file) => file !== 'toolsets.json' && !snaps.has(file))).toEqual([]);
  });

  it('lists each tool the same in every selection it is in: a group alone changes only which tools fields names', () => {
    for (const mode of MODES) {
      for (const group of groups) {
        const offered = listed.get(`${mode} ${group}`)!;
        for (const tool of offered) {
          const all = snaps.get(snapFile(tool, mode))!;
          if (tool.name !== 'fields') expect([mode, group, text(tool)]).toEqual([mode, group, text(all)]);
          else {
            const names = offered.map((t) => t.name);
            const named = all.inputSchema.properties!.tool!.enum!.filter((name) => names.includes(name));
            const alone = { ...all, inputSchema: { ...all.inputSchema, properties: { ...all.inputSchema.properties, tool: { ...all.inputSchema.properties!.tool, enum: named } } } };
            expect([mode, group, text(tool)]).toEqual([mode, group, text(alone)]);
          }
        }
      }
    }
  });

  it('offers a read tool for every verb marked so that changes nothing, and no other read tool', () => {
    // A change is never a read tool (it has a plan or write tool under --writes): marking one is a mistake.
    expect(defs.filter((d) => d.mcp === 'read' && (d.mutation !== undefined || d.fields !== undefined)).map((d) => d.path.join(' '))).toEqual([]);
    const marked = defs.filter((d) => d.mcp === 'read' && d.mutation === undefined).map((d) => toolName(d.path));
    expect(marked.length).toBeGreaterThan(0);
    const names = listed.get('none all')!.map((t) => t.name);
    expect(names).toEqual([...marked, 'fields']);
    // Each group alone offers its marked verbs' tools.
    for (const def of defs.filter((d) => d.mcp === 'read' && d.mutation === undefined)) {
      expect(listed.get(`none ${def.path[0]!}`)!.map((t) => t.name)).toContain(toolName(def.path));
    }
  });
});

describe('bo mcp --help', () => {
  it('names every tool group --tools takes, read groups first, then those offered with --writes only', async () => {
    const r = await runBo(['mcp', '--help'], { env: tempConfig().env });
    expect(r.code).toBe(0);
    // Commander wraps the description: read as one line.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`--tools <toolsets> comma-separated tool groups to offer: ${read.join(', ')}; with --writes also ${writes.join(', ')} (default: all)`);
    for (const group of ['accounts', 'subscriptions', 'addons', 'coupons', 'lists', 'broadcasts', 'api']) expect(read).toContain(group);
    const refused = await runBo(['mcp', '--tools', 'nonesuch'], { env: tempConfig().env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: --tools must be comma-separated toolsets from ${groups.join(', ')}, not "nonesuch"\n`);
  });
});
