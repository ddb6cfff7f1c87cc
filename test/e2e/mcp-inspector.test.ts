// The MCP Inspector's command-line mode, the protocol's own reference client, lists the
// tools of `bo --sandbox mcp` (the built binary). It needs Node 22.19 or newer: CI's Node 24
// run has it; on an older Node the test is skipped, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath } from '../helpers/run-bin.js';
import { runCommand } from '../readme/tour.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const recentEnough = major > 22 || (major === 22 && minor >= 19);

describe('the MCP Inspector against bo mcp', () => {
  it.skipIf(!recentEnough)(`${INSPECTOR} --cli --method tools/list lists the read tools (skipped on Node < 22.19, which the Inspector needs)`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'bo-inspector-'));
    try {
      // npx reaches the registry as this machine does: its CA bundle and proxy settings go through.
      const network = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => /^(NODE_EXTRA_CA_CERTS|(https?|no)_proxy|npm_config_(registry|cafile|proxy|https_proxy|strict_ssl))$/i.test(name)),
      ) as Record<string, string>;
      const env = { ...network, PATH: process.env.PATH!, HOME: root, BO_CONFIG_DIR: join(root, 'config'), BO_DATA_DIR: join(root, 'data'), npm_config_cache: process.env.npm_config_cache ?? join(root, 'npm') };
      const args = ['npx', '-y', '-p', INSPECTOR, '--', 'mcp-inspector', '--cli', process.execPath, binPath, '--sandbox', 'mcp', '--method', 'tools/list'];
      const r = await runCommand(args.map((a) => `'${a}'`).join(' '), { cwd: root, env, timeoutMs: 280_000 });
      expect(r.code, r.stderr).toBe(0);
      const names = (JSON.parse(r.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['accounts_list', 'accounts_get', 'coupons_list', 'lists_list', 'broadcasts_get', 'api_get']));
      expect(names.filter((n) => /cancel|expire|delete|update|create|subscribe/.test(n))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);
});
