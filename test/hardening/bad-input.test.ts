// Bad input, generated: random argv for every command (random flags and values,
// Unicode, huge numbers, empty strings, dates out of range, repeated and conflicting
// flags, `-` with an empty stdin). Every run must end with a documented exit code, one
// `error:` line and no stack trace; and a usage error (exit 2) must have sent nothing:
// the base URL is pinned to a recording server that counts TCP connections (the
// sandbox's activity log cannot prove it: --no-log hides requests from it).
//
// Seeded and bounded in `npm test`; BO_FUZZ_RUNS raises the number of cases.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { argvArb, brokenExampleArb, commandShapes, exampleArgvs, type Case } from './argv-model.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { STACK_OR_JS_MESSAGE, report } from './fuzz-settings.js';

const DOCUMENTED = new Set([0, 1, 2, 3, 4, 5]);

let server: FaultServer;
let root: string;
beforeAll(async () => {
  server = await startFaultServer();
  // Whatever a valid command asks, the answer is a plain API error: the run ends quickly.
  server.fallback(reply.json(404, { error: 'not_found', error_description: 'No such record' }));
  root = mkdtempSync(join(tmpdir(), 'bo-fuzz-argv-'));
});

const tally = { cases: 0, usage: 0, sent: 0, connections: 0, byCode: {} as Record<number, number> };
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  report('bad input, generated', `${tally.cases} argv cases over every command; ${tally.usage} usage errors, 0 of them sent a request; ` +
    `${tally.sent} valid runs reached the server; exit codes ${JSON.stringify(tally.byCode)}`);
});

let n = 0;
/** A private config and data folder per case, the base URL pinned, an API key in the environment. */
function caseEnv(withKey: boolean): Record<string, string> {
  const dir = join(root, String(n++));
  return {
    BO_CONFIG_DIR: join(dir, 'config'),
    BO_DATA_DIR: join(dir, 'data'),
    BO_BASE_URL: server.url,
    BO_KEYCHAIN_TIMEOUT: '2',
    ...(withKey ? { BO_API_KEY: 'fuzz-key', BO_API_SECRET: 'fuzz-secret' } : {}),
  };
}

describe('bad input, generated, over every command', () => {
  const { shapes, globals } = commandShapes();

  it('the model covers every command but sandbox serve', () => {
    const names = shapes.map((s) => s.path.join(' '));
    expect(names).toContain('accounts extend-trial');
    expect(names).toContain('lists subscribe');
    expect(names).toContain('api');
    expect(names).toContain('login');
    expect(names).not.toContain('sandbox serve');
    expect(globals.map((g) => g.names.at(-1))).not.toContain('--sandbox');
  });

  async function check({ argv }: Case, withKey: boolean) {
    const before = server.connections;
    const r = await runBo(argv, { env: caseEnv(withKey) });
    const connections = server.connections - before;
    tally.cases++;
    tally.byCode[r.code] = (tally.byCode[r.code] ?? 0) + 1;
    if (connections > 0) tally.sent++;

    const shown = `argv ${JSON.stringify(argv)}\nexit ${r.code}\nstderr ${JSON.stringify(r.stderr.slice(0, 600))}`;
    expect(DOCUMENTED.has(r.code), shown).toBe(true);
    expect(r.stderr, shown).not.toMatch(STACK_OR_JS_MESSAGE);
    expect(r.stdout, shown).not.toMatch(STACK_OR_JS_MESSAGE);
    if (r.code !== 0) {
      const errorLines = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
      // A group named without a verb prints its help on stderr instead (exit 2).
      const groupHelp = r.code === 2 && r.stderr.startsWith('Usage: bo ');
      if (!groupHelp) {
        expect(errorLines, shown).toHaveLength(1);
        expect(errorLines[0]!.length, shown).toBeGreaterThan('error: '.length);
      }
    }
    if (r.code === 2) {
      tally.usage++;
      expect(connections, `${shown}\na usage error sent ${connections} connection(s)`).toBe(0);
    }
  }

  it('random argv: a documented exit code, one error line, no stack trace; exit 2 sends nothing', async () => {
    await fc.assert(fc.asyncProperty(argvArb(shapes, globals, server.url), fc.boolean(), check), {
      seed: 1313,
      numRuns: fuzzRuns(400),
      endOnFailure: true,
    });
  }, 600_000);

  it('each help example with one word broken: the same, and exit 2 sends nothing', async () => {
    const examples = exampleArgvs(server.url);
    expect(examples.length).toBeGreaterThan(60);
    await fc.assert(fc.asyncProperty(brokenExampleArb(examples), fc.boolean(), check), {
      seed: 1314,
      numRuns: fuzzRuns(400),
      endOnFailure: true,
    });
  }, 600_000);
});
