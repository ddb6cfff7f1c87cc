// `bo mcp`'s figures for `npm run bench` (test/bench/run.mjs calls mcpRows): the size of
// the default tools/list result in compact JSON (its target: at most 32 KB, about 8,000
// tokens of an agent's context), and a tool call's round trip (`accounts_list`, 25
// records of the embedded sandbox) against a warm `bo --sandbox accounts list --json
// --limit 25` as a process of its own: a call to a running server should cost less
// than starting bo. Uses the MCP SDK's own client over stdio.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawnSync } from 'node:child_process';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Rows of the table: { figure, value, target, ok, detail }. */
export async function mcpRows({ runs, env, node, bo }) {
  const client = new Client({ name: 'bo-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: node, args: [bo, '--sandbox', 'mcp'], env, stderr: 'ignore' }));
  try {
    const listed = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(listed));
    const call = async () => {
      const start = process.hrtime.bigint();
      const r = await client.callTool({ name: 'accounts_list', arguments: { limit: 25 } });
      if (r.isError) throw new Error(`accounts_list failed: ${r.content[0]?.text}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const oneShot = () => {
      const start = process.hrtime.bigint();
      const r = spawnSync(node, [bo, '--sandbox', 'accounts', 'list', '--json', '--limit', '25'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      if (r.status !== 0) throw new Error(`bo --sandbox accounts list exited ${r.status}: ${r.stderr}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    await call();
    oneShot();
    const calls = [];
    const shots = [];
    for (let i = 0; i < runs; i++) {
      calls.push(await call());
      shots.push(oneShot());
    }
    const [c, s] = [median(calls), median(shots)];
    return [
      { figure: '`bo mcp`: tools/list, compact JSON', value: `${(bytes / 1024).toFixed(1)} KB`, target: '≤ 32 KB', ok: bytes <= 32 * 1024, detail: `${listed.tools.length} tools` },
      {
        figure: '`bo mcp`: an `accounts_list` call, round trip',
        value: `${(c / s).toFixed(2)} ×`,
        target: '≤ 1.0 × the command',
        ok: c <= s,
        detail: `${c.toFixed(1)} ms; \`bo --sandbox accounts list --json --limit 25\` ${s.toFixed(1)} ms`,
      },
    ];
  } finally {
    await client.close();
  }
}
