// Honest page walks: whatever a server does with its pages, a walk either prints every
// record of the largest total it announced exactly once and exits 0, or exits non-zero
// with one error line; it prints no record twice and asks for no more pages than that
// total needs, plus one. The property runs `bo` in process against a generated fault
// server (bounded runs); the cases after it run the built binary.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagingStep, startFaultServer, type FaultServer, type Paging, type Step } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server?.close());

const SIZE = 10;
const STACK = /\n\s+at |TypeError|ReferenceError|cannot read properties/i;

/** The server's list endpoint as `paging` says, noting every metadata.total it sends. */
function serve(paging: Paging, on: FaultServer = server): number[] {
  const totals: number[] = [];
  const inner = pagingStep(paging);
  const step: Step = (req, res, body) => {
    const end = res.end.bind(res) as (chunk: unknown) => void;
    (res as unknown as { end: (chunk: unknown) => void }).end = (chunk) => {
      const total = (JSON.parse(String(chunk)) as { metadata?: { total?: unknown } }).metadata?.total;
      if (typeof total === 'number') totals.push(total);
      end(chunk);
    };
    inner(req, res, body);
  };
  on.requests.length = 0;
  on.fallback(step);
  return totals;
}

type Output = 'tsv' | 'csv' | 'json' | 'jsonl';
const outputFlags: Record<Output, string[]> = { tsv: [], csv: ['--csv'], json: ['--json'], jsonl: ['--jsonl'] };

/** The Uids a run printed, in order (an open --json array read item by item). */
function printedUids(output: Output, stdout: string): string[] {
  if (stdout === '') return [];
  if (output === 'tsv' || output === 'csv') {
    const rows = stdout.split('\n').filter((l) => l !== '');
    return (output === 'csv' ? rows.slice(1) : rows).map((l) => l.split(output === 'csv' ? ',' : '\t')[0]!);
  }
  if (output === 'jsonl') return stdout.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { Uid: string }).Uid);
  const text = stdout.trimEnd();
  const items = JSON.parse(text.endsWith(']') ? text : `${text.replace(/,$/, '')}]`) as Array<{ Uid: string }>;
  return items.map((i) => i.Uid);
}

const pagingArb: fc.Arbitrary<Paging> = fc
  .record(
    {
      records: fc.integer({ min: 0, max: 60 }),
      total: fc.oneof(fc.constant<'held'>('held'), fc.constant<'none'>('none'), fc.integer({ min: 0, max: 70 })),
      later: fc.integer({ min: 0, max: 70 }),
      inserted: fc.integer({ min: 1, max: 3 }),
      ignoreOffset: fc.constantFrom<'echo' | 'zero'>('echo', 'zero'),
      repeatFrom: fc.integer({ min: 1, max: 6 }),
      short: fc.dictionary(fc.integer({ min: 0, max: 6 }).map(String), fc.integer({ min: 0, max: SIZE - 1 }), { maxKeys: 3 }),
    },
    { requiredKeys: ['records'] },
  )
  .map((p) => ({ ...p, prefix: 'acc_', short: p.short && Object.fromEntries(Object.entries(p.short).map(([k, v]) => [Number(k), v])) }));

/** No fault at all: a D13 server with a total, or without one. */
const honest = (p: Paging) =>
  (p.total === undefined || p.total === 'held' || p.total === 'none') &&
  p.later === undefined && p.inserted === undefined && p.ignoreOffset === undefined && p.repeatFrom === undefined && Object.keys(p.short ?? {}).length === 0;

describe('a walk against generated paging behaviours (in process)', () => {
  it('prints every record of the largest total once with exit 0, or exits 1 with one error line', async () => {
    await fc.assert(
      fc.asyncProperty(pagingArb, fc.integer({ min: 1, max: 4 }), fc.constantFrom<Output>('tsv', 'csv', 'json', 'jsonl'), async (paging, concurrency, output) => {
        // A server of its own: a page still on its way when a run ended lands in no other run's count.
        const server = await startFaultServer();
        const totals = serve(paging, server);
        const r = await runBo(['accounts', 'list', '--all', '--page-size', String(SIZE), '--concurrency', String(concurrency), ...outputFlags[output]], { env: testEnv(server) })
          .finally(() => server.close());
        const shown = `${JSON.stringify(paging)} --concurrency ${concurrency} ${output}\nexit ${r.code}\nstderr ${r.stderr}\nrequests ${server.requests.map((q) => q.url).join(' ')}`;
        const lines = r.stderr.split('\n').filter((l) => l !== '');
        const errors = lines.filter((l) => l.startsWith('error: '));
        expect(r.stderr, shown).not.toMatch(STACK);
        expect(lines.every((l) => /^(warning|error): /.test(l) || (output.startsWith('json') && l.startsWith('{"error"'))), shown).toBe(true);
        const uids = printedUids(output, r.stdout);
        expect(new Set(uids).size, `${shown}\nprinted twice`).toBe(uids.length);
        const announced = totals.length > 0 ? Math.max(...totals) : undefined;
        if (r.code === 0) {
          expect(errors, shown).toEqual([]);
          if (announced !== undefined) expect(uids.length, shown).toBeGreaterThanOrEqual(announced);
        } else {
          expect(r.code, shown).toBe(1);
          expect(errors, shown).toHaveLength(1);
        }
        if (honest(paging)) {
          expect(r.code, shown).toBe(0);
          expect(uids, shown).toEqual(Array.from({ length: paging.records }, (_, i) => `acc_${i}`));
        }
        const held = Math.max(paging.records, paging.later ?? 0) + (paging.inserted ?? 0);
        const bound = announced !== undefined ? Math.ceil(announced / SIZE) + 1 : Math.ceil(held / SIZE) + 2;
        expect(server.requests.length, `${shown}\nrequests past the total`).toBeLessThanOrEqual(Math.max(1, bound));
      }),
      { seed: 3005, numRuns: fuzzRuns(120), endOnFailure: true },
    );
  }, 300_000);
});

describe('honest walks on the built binary', () => {
  const bin = (...argv: string[]) => runBin(argv, { env: testEnv(server), timeoutMs: 60_000 });
  /** A run of the built binary against a server that pages as `paging` says. */
  const walk = async (paging: Paging, ...argv: string[]) => {
    serve(paging);
    return bin(...argv).finally(() => server.fallback(undefined));
  };
  const incomplete = (text: string) => `error: only ${text} came back: the list is incomplete\n`;
  const changed = (from: number, to: number) =>
    `warning: the server's total changed during the walk, from ${from} to ${to}: records may have been skipped or repeated; run the command again\n`;

  it('a server that answers every offset with the same page, without a total: two requests, 100 records, exit 1 (it used to run until killed)', async () => {
    const r = await walk({ records: 250, total: 'none', ignoreOffset: 'echo' }, 'accounts', 'list', '--all', '--jsonl');
    const message = 'unexpected answer from the server: page 1 repeats records already printed; the server does not seem to page';
    expect(r.stderr).toBe(`error: ${message}\n${JSON.stringify({ error: { status: null, code: 'unexpected', message } })}\n`);
    expect(r.code).toBe(1);
    expect(printedUids('jsonl', r.stdout)).toEqual(Array.from({ length: 100 }, (_, i) => `acc_${i}`));
    expect(server.requests).toHaveLength(2);
  });

  it('--limit past a short page: the walk goes on, and the note says a page came back short', async () => {
    const r = await walk({ records: 250, short: { 0: 99 } }, 'accounts', 'list', '--limit', '150');
    expect(r.stderr).toBe('showing 150 of 250 (a page came back short); pass --all for every record\n');
    expect(r.code).toBe(0);
    expect(printedUids('tsv', r.stdout)).toEqual([...Array.from({ length: 99 }, (_, i) => `acc_${i}`), ...Array.from({ length: 51 }, (_, i) => `acc_${100 + i}`)]);
  });

  it('--limit that the pages cannot fill ends incomplete, naming what was asked and the total', async () => {
    const r = await walk({ records: 250, short: { 0: 40 }, later: 40 }, 'accounts', 'list', '--limit', '150');
    expect(r.stderr).toBe(changed(250, 40) + incomplete('40 of the 150 records asked for (the server announced 250)'));
    expect(r.code).toBe(1);
    expect(printedUids('tsv', r.stdout)).toHaveLength(40);
  });

  it('--page: an item that is not a record is refused in a table, passed through with --json', async () => {
    const tsv = await walk({ records: 250, items: { 1: { 0: null } } }, 'accounts', 'list', '--page', '1');
    expect(tsv.stderr).toBe('error: unexpected answer from the server: item 1 of page 1 is not a record\n');
    expect(tsv.code).toBe(1);
    const json = await walk({ records: 250, items: { 1: { 0: null } } }, 'accounts', 'list', '--page', '1', '--json');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as unknown[])[0]).toBeNull();
  });

  it('bo api --paginate --silent still ends a walk of repeats, and says a total changed', async () => {
    const r = await walk({ records: 250, ignoreOffset: 'echo' }, 'api', '/crm/accounts', '--paginate', '--silent');
    expect(r.stderr).toBe('error: unexpected answer from the server: page 1 repeats records already printed; the server does not seem to page\n');
    expect(r.code).toBe(1);
    const shrunk = await walk({ records: 250, later: 120 }, 'api', '/crm/accounts', '--paginate', '--silent');
    expect(shrunk.stderr).toBe(changed(250, 120) + incomplete('120 of the 250 records the server announced'));
    expect(shrunk.code).toBe(1);
    expect(shrunk.stdout).toBe('');
  });
});
