// `bo mcp` as an MCP server on the built binary, where the protocol itself is at stake:
// what the agent is told under each --writes and the hints on its tools; keys that
// neutralising would make equal, which stay distinct and are named; lines that are not
// a JSON-RPC message, each answered with the error JSON-RPC names while the server goes
// on; arguments named as Object.prototype's members; and a client that never reads its
// answers, which bo stops reading instead of holding them in memory.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { toolName } from '../../src/mcp/tools.js';
import { INITIALIZE, INITIALIZED, endRawMcps, ping, rawMcp, startMcp, type CallResult } from '../helpers/mcp-client.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { testEnv } from '../helpers/test-env.js';
import { tempConfig } from '../helpers/config-dir.js';


let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  endRawMcps();
  await sb?.close();
});


describe('what the agent is told (built binary)', () => {
  it('the instructions say what the session allows: read-only, plans a person applies, or changes sent at once', async () => {
    const env = testEnv(sb);
    const told = async (argv: string[]) => {
      const run = await startMcp(argv, env);
      const text = run.client.getInstructions() ?? '';
      expect(await run.close()).toEqual({ code: 0, signal: null });
      return text;
    };
    const none = await told(['mcp']);
    expect(none).toMatch(/^Read-only access .*no tool of this session can change anything/);
    const plan = await told(['mcp', '--writes', 'plan']);
    expect(plan).not.toMatch(/^Read-only/);
    expect(plan).toMatch(/^Read access .* and plans of changes: no tool of this session can change anything/);
    expect(plan).toContain('a person reviews the plan and applies it outside this session (bo plan apply)');
    const direct = await told(['mcp', '--writes', 'direct', '--tools', 'lists,drips']);
    expect(direct).not.toMatch(/^Read-only/);
    expect(direct).toMatch(/^Read and write access .*the change tools of drips, lists .* send their change when called, at once/);
    expect(direct).toContain('idempotentHint');
    for (const text of [none, plan, direct]) expect(text).toContain('keysChanged');
  });

  it('a tool that sends carries idempotentHint from its verb (true where a resend is safe); a plan tool stays read-only', async () => {
    const defs = await loadCommands();
    const resend = new Map(defs.filter((d) => d.mutation).map((d) => [toolName(d.path), d.mutation!.resend]));
    const env = testEnv(sb);
    const direct = await startMcp(['mcp', '--writes', 'direct', '--tools', 'lists,drips,addons'], env);
    const sends = (await direct.client.listTools()).tools.filter((t) => resend.has(t.name));
    await direct.close();
    expect(sends.map((t) => t.name)).toEqual(expect.arrayContaining(['lists_create', 'lists_subscribe', 'drips_delete', 'drips_add_message', 'addons_expire']));
    for (const tool of sends) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: false, idempotentHint: resend.get(tool.name) === 'safe' });
    }
    const hint = (name: string) => sends.find((t) => t.name === name)!.annotations!.idempotentHint;
    // subscribing twice keeps one subscription; a second create makes a second list; a second message is sent again
    expect([hint('lists_subscribe'), hint('drips_delete'), hint('lists_create'), hint('drips_add_message')]).toEqual([true, true, false, false]);

    const plan = await startMcp(['mcp', '--writes', 'plan', '--tools', 'lists,drips,addons'], env);
    const plans = (await plan.client.listTools()).tools.filter((t) => resend.has(t.name));
    await plan.close();
    expect(plans.length).toBe(sends.length);
    for (const tool of plans) expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});

describe('keys that neutralising would make equal (built binary, hostile server)', () => {
  const server = useFaultServer();

  it('six keys that would become three reach the agent as six, each with its own value, the changed ones named in keysChanged', async () => {
    // Pairs that text output shows alike: tab and space, an escape sequence and nothing, U+202E and the six characters \u202e.
    const keys = ['Tier\t1', 'Tier 1', 'Tier\u001b[31m2', 'Tier2', 'Tier\u202e3', 'Tier\\u202e3'];
    const SchemaLessData = Object.fromEntries(keys.map((k, i) => [k, `value ${i}`]));
    server().script(reply.json(200, { items: [{ Uid: 'list_keys', Name: 'Keys', SchemaLessData }], metadata: { limit: 25, offset: 0, total: 1 } }));
    const run = await startMcp(['mcp'], testEnv(server().url));
    const r = (await run.client.callTool({ name: 'lists_list', arguments: {} })) as CallResult;
    expect(await run.close()).toEqual({ code: 0, signal: null });
    expect(r.isError).toBeFalsy();
    const shown = (r.structuredContent!.items as Array<{ SchemaLessData: Record<string, string> }>)[0]!.SchemaLessData;
    expect(Object.keys(shown)).toHaveLength(6);
    // Unchanged keys as the server sent them; changed ones written with JSON escapes, which decode to the server's key.
    expect(shown).toEqual({
      'Tier\\t1': 'value 0',
      'Tier 1': 'value 1',
      'Tier\\u001b[31m2': 'value 2',
      Tier2: 'value 3',
      'Tier\\u202e3': 'value 4',
      'Tier\\\\u202e3': 'value 5',
    });
    const keysChanged = ['Tier\\t1', 'Tier\\u001b[31m2', 'Tier\\u202e3', 'Tier\\\\u202e3'];
    expect(JSON.parse(r.content[1]!.text)).toEqual({ keysChanged });
    expect(r._meta?.['bo/keysChanged']).toEqual(keysChanged);
    for (const key of keysChanged) expect(SchemaLessData[JSON.parse(`"${key}"`)]).toBe(shown[key]);
    // The text block is the data, nothing raw in it.
    expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent);
    expect(r.content[0]!.text).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('a result whose keys are all harmless has no keysChanged', async () => {
    server().script(reply.json(200, { items: [{ Uid: 'list_plain', Name: 'Plain', SchemaLessData: { Tier: 'gold', 'Tier\\x': 'backslash' } }], metadata: { limit: 25, offset: 0, total: 1 } }));
    const run = await startMcp(['mcp'], testEnv(server().url));
    const r = (await run.client.callTool({ name: 'lists_list', arguments: {} })) as CallResult;
    await run.close();
    expect(r.content).toHaveLength(1);
    expect(r._meta?.['bo/keysChanged']).toBeUndefined();
    expect((r.structuredContent!.items as Array<{ SchemaLessData: unknown }>)[0]!.SchemaLessData).toEqual({ Tier: 'gold', 'Tier\\x': 'backslash' });
  });
});

describe('framing: every line gets an answer (built binary)', () => {
  it('a line that is not JSON is a parse error with id null, a batch or a malformed message an invalid request; the server goes on', async () => {
    const run = rawMcp(['--sandbox', 'mcp'], tempConfig().env);
    run.send(INITIALIZE, INITIALIZED);
    expect(await run.next()).toMatchObject({ id: 0, result: { serverInfo: { name: 'bo' } } });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['not json', { jsonrpc: '2.0', id: null, error: { code: -32700 } }],
      ['{"jsonrpc":"2.0","id":1,"method":"ping"', { jsonrpc: '2.0', id: null, error: { code: -32700 } }],
      [`[${ping(2)},${ping(3)}]`, { jsonrpc: '2.0', id: null, error: { code: -32600 } }],
      ['[]', { jsonrpc: '2.0', id: null, error: { code: -32600 } }],
      ['42', { jsonrpc: '2.0', id: null, error: { code: -32600 } }],
      ['{"foo":1}', { jsonrpc: '2.0', id: null, error: { code: -32600 } }],
      ['{"jsonrpc":"2.0","id":"m","method":5}', { jsonrpc: '2.0', id: 'm', error: { code: -32600 } }],
      ['{"jsonrpc":"1.0","id":9,"method":"ping"}', { jsonrpc: '2.0', id: 9, error: { code: -32600 } }],
    ];
    for (const [line, answer] of cases) {
      run.send(line);
      expect(await run.next(), line).toMatchObject(answer);
      run.send(ping(100));
      expect(await run.next(), `after ${line}`).toEqual({ jsonrpc: '2.0', id: 100, result: {} });
    }
    // A line over 10 MiB is skipped to its end and answered once.
    run.send('x'.repeat(11 * 1024 * 1024));
    expect(await run.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('10 MiB') } });
    run.send(ping(101));
    expect(await run.next()).toEqual({ jsonrpc: '2.0', id: 101, result: {} });
    expect(await run.close()).toBe(0);
    expect(run.stderr()).toContain('a line that is not JSON: answered with error -32700');
    expect(run.stderr()).not.toMatch(/ZodError|invalid_union|\n\s+at /);
  });

  it('arguments named constructor, toString or __proto__ are refused as unknown, as any other', async () => {
    const run = rawMcp(['--sandbox', 'mcp'], tempConfig().env);
    run.send(INITIALIZE, INITIALIZED);
    await run.next();
    for (const [id, name] of ['constructor', 'toString', '__proto__', 'hasOwnProperty'].entries()) {
      // Written by hand: an object literal's __proto__ would be its prototype, not a key.
      run.send(`{"jsonrpc":"2.0","id":${id + 1},"method":"tools/call","params":{"name":"lists_list","arguments":{"${name}":{"x":1}}}}`);
      const answer = await run.next();
      expect(answer.id).toBe(id + 1);
      expect(answer.result.isError, name).toBe(true);
      expect(JSON.parse(answer.result.content[0].text).error).toEqual({ code: 'usage', message: `argument ${name} is not one this tool takes (fields, filter, orderBy, limit, cursor)` });
    }
    // A required argument is not found on the prototype either.
    run.send('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"accounts_get","arguments":{}}}');
    expect(JSON.parse((await run.next()).result.content[0].text).error).toEqual({ code: 'usage', message: 'argument accountUid is required' });
    expect(await run.close()).toBe(0);
  });
});

describe('a client that does not read its answers (built binary)', () => {
  // tools/list answers ~8 KB: 30,000 of them held in memory would be ~240 MB.
  const N = 30_000;

  it('bo stops reading requests while its answers are unread: peak memory stays under 150 MiB, and every answer comes once read', async () => {
    // Only each answer's id is kept (the test process would otherwise hold what bo must not).
    const run = rawMcp(['--sandbox', 'mcp'], tempConfig().env, (line) => ({ id: Number(/"id":(\d+)\}$/.exec(line)?.[1]) }));
    run.child.stdout.pause();
    const peakMiB = () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'))![1]) / 1024;
    const lines = [INITIALIZE, INITIALIZED];
    for (let id = 1; id <= N; id++) lines.push(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const chunks: string[] = [];
    for (let i = 0; i < lines.length; i += 100) chunks.push(lines.slice(i, i + 100).join('\n') + '\n');
    // Written as fast as the pipe takes them, until bo stops taking them (no drain for 3 s), or all are taken.
    const drained = () =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          run.child.stdin.off('drain', onDrain);
          resolve(false);
        }, 3000);
        const onDrain = () => {
          clearTimeout(timer);
          resolve(true);
        };
        run.child.stdin.once('drain', onDrain);
      });
    let sent = 0;
    while (sent < chunks.length) {
      if (!run.child.stdin.write(chunks[sent++]!) && !(await drained())) break;
    }
    const unread = peakMiB();
    expect(sent, 'bo took every request though none of its answers was read').toBeLessThan(chunks.length);
    expect(unread).toBeLessThan(150);

    // Read now: the rest of the requests go in, and every one is answered.
    run.child.stdout.resume();
    while (sent < chunks.length) if (!run.child.stdin.write(chunks[sent++]!)) await new Promise((r) => run.child.stdin.once('drain', r));
    const ids = new Set<number>();
    for (let i = 0; i <= N; i++) ids.add((await run.next()).id as number);
    expect(ids.size).toBe(N + 1);
    expect(Math.max(...ids)).toBe(N);
    expect(await run.close()).toBe(0);
  }, 240_000);
});
