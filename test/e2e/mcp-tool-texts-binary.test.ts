// The tool and argument descriptions `bo mcp` lists (built binary) are in a tool's words:
// an agent calls tools with named arguments, never reads stdin, and gets error codes. No
// description names a flag (`--to`), an exit code, stdin, or starts with `-`, whichever
// tools are offered: read-only, `--writes plan`, `--writes direct` with every group.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/mcp-client.js';
import { tempConfig } from '../helpers/config-dir.js';
import { loadCommands } from '../../src/commands/index.js';
import { toolGroups } from '../../src/mcp/tools.js';

const groups = toolGroups(await loadCommands());

const data = mkdtempSync(join(tmpdir(), 'bo-tool-texts-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));
const env = { ...tempConfig().env, BO_DATA_DIR: data };

/** Every tool's description and every argument's, as `tools/list` gives them. */
async function descriptions(argv: string[]): Promise<Array<[string, string]>> {
  const run = await startMcp(['--sandbox', 'mcp', ...argv], env);
  const { tools } = await run.client.listTools();
  expect(await run.close()).toEqual({ code: 0, signal: null });
  expect(tools.length).toBeGreaterThan(0);
  return tools.flatMap((tool) => [
    [tool.name, tool.description ?? ''] as [string, string],
    ...Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>).map(([name, p]) => [`${tool.name}.${name}`, p.description ?? ''] as [string, string]),
  ]);
}

describe('MCP tool and argument descriptions (built binary)', () => {
  it.each([
    ['read-only', []],
    ['--writes plan', ['--writes', 'plan']],
    ['--writes direct', ['--writes', 'direct', '--tools', [...groups.read, ...groups.writes].join(',')]],
  ])('%s: none names a flag, an exit code or stdin, or starts with -', async (_, argv) => {
    const all = await descriptions(argv as string[]);
    const bad = all.filter(([, text]) => /--|exit |stdin/.test(text) || /^\s*-/.test(text));
    expect(bad).toEqual([]);
    // The words an agent reads instead: tool calls, argument names, error codes.
    const text = new Map(all);
    expect(text.get('accounts_get')).toBe('Show one account by Uid (a not_found error when absent)');
    if (argv.length) {
      expect(text.get('deals_update.dealUid')).toContain('accounts_get(accountUid, fields: Deals.Uid,Deals.Name)');
      expect(text.get('accounts_extend_trial.accountUid')).toBe('the account Uid');
      expect([...text.keys()]).not.toContain('lists_create.-');
    }
  });
});
