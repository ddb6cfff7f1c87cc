// The MCP server under hostile input, generated, on the built binary. Framing: lines no
// well-behaved client writes (not JSON, cut short, invalid UTF-8, batches, scalars,
// objects that are no JSON-RPC message, requests for methods that do not exist, stray
// responses and notifications, blank lines, arguments named as Object.prototype's
// members), written to one `bo --sandbox mcp` in pieces split anywhere: every line that
// calls for an answer gets exactly the one JSON-RPC names, nothing else is answered, no
// stack trace is logged, and the server goes on. Keys: records from a hostile server
// whose keys collide once neutralised (escape sequences, controls, bidirectional and
// invisible characters, the six characters `\u202e`, the run's secret): as many keys
// reach the agent as the server sent, each with its own value, none raw, each changed
// one named in keysChanged and decoding to the server's key (or to it with the secret
// replaced).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, INITIALIZED, endRawMcps, ping, rawMcp, startMcp, type McpRun } from '../helpers/mcp-client.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { UNSAFE_IN_TEXT, allCases } from '../output/hostile-text.js';
import { fuzzRuns, fuzzSeed } from '../helpers/fuzz-runs.js';
import { STACK_OR_JS_MESSAGE, report } from './fuzz-settings.js';

const tally = { lines: 0, answered: 0, records: 0, keys: 0, changed: 0 };
afterAll(() => {
  endRawMcps();
  report('mcp protocol', `${tally.lines} generated lines (${tally.answered} answered with an error) and ${tally.records} records holding ${tally.keys} generated keys (${tally.changed} written escaped); every key distinct`);
});

/** What one line should get: an error with this id and code, a tool error (usage), a result (the probe), or nothing. */
type Expected = { error: number; id: string | number | null } | { usage: string; id: number } | { result: true; id: number } | null;
interface Line {
  bytes: Buffer;
  expected: Expected;
}

let nextId = 1;
const text = (line: string, expected: Expected): Line => ({ bytes: Buffer.from(line, 'utf8'), expected });
/** The id bo echoes in an invalid request's error: the message's own when it is a string or a number, else null. */
const echoed = (line: string): string | number | null => {
  const { id } = JSON.parse(line) as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};
const isJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};
const noNewline = (s: string) => !s.includes('\n');
const message = fc.constantFrom(ping(7), INITIALIZED, '{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"lists_list","arguments":{}}}');

const lineArb: fc.Arbitrary<() => Line> = fc.oneof(
  // Not JSON: text, bytes that are not UTF-8, a message cut short.
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((s) => Buffer.from(s, 'utf8').toString('utf8')).filter((s) => noNewline(s) && s.trim() !== '' && !isJson(s)).map((s) => () => text(s, { error: -32700, id: null })),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).filter((b) => !b.includes(0x0a) && !isJson(Buffer.from(b).toString('utf8')) && Buffer.from(b).toString('utf8').trim() !== '').map((b) => () => ({ bytes: Buffer.from(b), expected: { error: -32700, id: null } })),
  fc.tuple(message, fc.nat()).map(([m, at]) => () => text(m.slice(0, 1 + (at % (m.length - 1))), { error: -32700, id: null })),
  // JSON that is no message: a batch (of messages or anything), a scalar, an object of the wrong shape.
  fc.array(fc.oneof(message.map((m) => JSON.parse(m) as unknown), fc.jsonValue()), { maxLength: 3 }).map((items) => () => text(JSON.stringify(items), { error: -32600, id: null })),
  fc.oneof(fc.integer(), fc.string().filter(noNewline), fc.constant(null), fc.boolean()).map((v) => () => text(JSON.stringify(v), { error: -32600, id: null })),
  fc
    .record({ jsonrpc: fc.constantFrom('1.0', 2, undefined, '2.0'), id: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.double()), method: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })) })
    .map((r) => () => {
      const line = JSON.stringify(r);
      return text(line, { error: -32600, id: echoed(line) });
    }),
  // Well formed: a method that does not exist (-32601), a notification and a stray response (no answer).
  fc.string({ minLength: 1, maxLength: 12 }).map((m) => () => {
    const id = nextId++;
    return text(JSON.stringify({ jsonrpc: '2.0', id, method: `x/${m}` }), { error: -32601, id });
  }),
  fc.string({ maxLength: 12 }).map((m) => () => text(JSON.stringify({ jsonrpc: '2.0', method: `notifications/x${m}` }), null)),
  fc.string({ maxLength: 12 }).map((m) => () => text(JSON.stringify({ jsonrpc: '2.0', id: `r${m}`, result: {} }), null)),
  fc.constantFrom('', ' ', '\r', '\t ').map((s) => () => text(s, null)),
  // An argument named as a member of every object's prototype: refused by name.
  fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf').map((name) => () => {
    const id = nextId++;
    return text(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"lists_list","arguments":{"${name}":1}}}`, { usage: name, id });
  }),
);

function matches(answer: Record<string, any>, expected: NonNullable<Expected>): boolean {
  if (answer.jsonrpc !== '2.0' || answer.id !== expected.id) return false;
  if ('usage' in expected) return answer.result?.isError === true && JSON.parse(answer.result.content[0].text).error.message.startsWith(`argument ${expected.usage} is not one`);
  if ('result' in expected) return answer.result !== undefined && answer.error === undefined;
  return answer.error?.code === expected.error;
}

describe('bo mcp framing, generated (built binary)', () => {
  it('every line that calls for an answer gets the one JSON-RPC names, whatever the pieces it came in; nothing else is answered; the server goes on', async () => {
    const run = rawMcp(['--sandbox', 'mcp'], tempConfig().env);
    run.child.stdin.write(`${INITIALIZE}\n${INITIALIZED}\n`);
    expect((await run.next()).id).toBe(0);
    let probe = 1_000_000;
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }), async (makers, cuts) => {
        const lines = makers.map((make) => make());
        const id = probe++;
        const bytes = Buffer.concat([...lines.flatMap((l) => [l.bytes, Buffer.from('\n')]), Buffer.from(`${ping(id)}\n`)]);
        // Written in pieces split anywhere, a multi-byte character or a line's end included.
        const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        for (const [i, from] of [0, ...at].entries()) run.child.stdin.write(bytes.subarray(from, at[i] ?? bytes.length));
        const expected = [...lines.map((l) => l.expected).filter((e): e is NonNullable<Expected> => e !== null), { result: true, id } as const];
        const shown = `lines ${JSON.stringify(lines.map((l) => l.bytes.toString('utf8')))}`;
        tally.lines += lines.length;
        tally.answered += expected.length - 1;
        while (expected.length > 0) {
          const answer = await run.next();
          const at = expected.findIndex((e) => matches(answer, e));
          expect(at, `${shown}\nunexpected answer ${JSON.stringify(answer).slice(0, 300)}\nstill expected ${JSON.stringify(expected)}`).toBeGreaterThanOrEqual(0);
          expected.splice(at, 1);
        }
      }),
      { ...fuzzSeed(4242), numRuns: fuzzRuns(150), endOnFailure: true },
    );
    // Nothing more was answered than was asked for.
    run.child.stdin.write(`${ping('last')}\n`);
    expect(await run.next()).toEqual({ jsonrpc: '2.0', id: 'last', result: {} });
    expect(run.unread()).toBe(0);
    expect(await run.close()).toBe(0);
    expect(run.stderr()).not.toMatch(STACK_OR_JS_MESSAGE);
    expect(run.stderr()).not.toMatch(/invalid_union|ZodError/);
  }, 300_000);
});

describe('colliding keys through bo mcp, generated (built binary, hostile server)', () => {
  const SECRET = 'sk_mcp_keys_5d1e9b3a';
  let server: FaultServer;
  let run: McpRun;
  beforeAll(async () => {
    server = await startFaultServer();
    run = await startMcp(['mcp'], testEnv(server.url, { BO_API_KEY: 'key_keys', BO_API_SECRET: SECRET }));
  });
  afterAll(async () => {
    await run?.close();
    await server?.close();
  });

  // Pieces that neutralising removes or makes alike: every hostile class, tab and space, the escape's own text, a backslash, the secret.
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...allCases.map((c) => c.raw)) },
    { weight: 3, arbitrary: fc.constantFrom('\t', ' ', '\n', '\\u202e', '\\u001b', '\\', '\\\\', '"', 'a', 'Tier', '1') },
    { weight: 1, arbitrary: fc.constant(SECRET) },
  );
  // None ends in a backslash: this test's own JSON.parse (the SDK client's) would misread a
  // later key of the same start on Node 24.21 and 25 (V8's key cache, nodejs/node#63785).
  const key = fc
    .array(piece, { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(''))
    .filter((k) => !k.endsWith('\\'));

  it('as many keys reach the agent as the server sent, each with its own value; none raw; each changed one named and decoding to the server\'s key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(key, { minLength: 2, maxLength: 8 }), async (keys) => {
        const SchemaLessData = Object.fromEntries(keys.map((k, i) => [k, `v${i}`]));
        server.script(reply.json(200, { items: [{ Uid: 'list_keys', Name: 'Keys', SchemaLessData }], metadata: { limit: 25, offset: 0, total: 1 } }));
        const r = (await run.client.callTool({ name: 'lists_list', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: any; _meta?: Record<string, unknown> };
        const shownCase = `keys ${JSON.stringify(keys)}`;
        expect(r.isError, shownCase).toBeFalsy();
        const shown = r.structuredContent.items[0].SchemaLessData as Record<string, string>;
        const changed = (r._meta?.['bo/keysChanged'] as string[] | undefined) ?? [];
        tally.records++;
        tally.keys += keys.length;
        tally.changed += changed.length;
        expect(Object.keys(shown), shownCase).toHaveLength(keys.length);
        expect(r.content.length, shownCase).toBe(changed.length > 0 ? 2 : 1);
        if (changed.length > 0) expect(JSON.parse(r.content[1]!.text), shownCase).toEqual({ keysChanged: changed });
        const values = new Set<string>();
        for (const [name, value] of Object.entries(shown)) {
          values.add(value);
          const i = Number(value.slice(1));
          expect(name, shownCase).not.toMatch(UNSAFE_IN_TEXT);
          expect(name, shownCase).not.toMatch(/[\t\n]/);
          expect(name, shownCase).not.toContain(SECRET);
          if (!changed.includes(name)) {
            expect(name, shownCase).toBe(keys[i]);
            continue;
          }
          // Two keys alike but for the secret are numbered; otherwise the name decodes to the server's key.
          const decoded = JSON.parse(`"${name.replace(/ \(\d+\)$/, '')}"`) as string;
          if (keys[i]!.includes(SECRET)) expect(decoded, shownCase).toBe(keys[i]!.replaceAll(SECRET, '[redacted]'));
          else expect(decoded, shownCase).toBe(keys[i]);
        }
        expect(values.size, shownCase).toBe(keys.length);
        // Joiners stay, as in text output; nothing else hidden or raw.
        expect(r.content[0]!.text, shownCase).not.toMatch(UNSAFE_IN_TEXT);
      }),
      { ...fuzzSeed(4243), numRuns: fuzzRuns(150), endOnFailure: true },
    );
    expect(run.stdout()).not.toContain(SECRET);
    expect(run.stderr()).not.toContain(SECRET);
  }, 300_000);
});
