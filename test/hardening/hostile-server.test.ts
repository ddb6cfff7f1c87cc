// Hostile server: every fault of the fault server against a read (GET), an update
// (PUT) and a create (POST, not idempotent), with the exit code and message a user
// sees and the number of requests the server received: a GET is retried where D30
// allows, a write only when the server refused before acting (429), never after it may
// have acted. Then batches (`-`) under random faults per record (seeded): every record
// reported exactly once, each sent exactly as often as the retry rules allow. Keys written
// with escapes (escaped-keys.ts) come out as the server's in every output mode and bo mcp,
// on the Node running the suite and on a pinned release whose JSON.parse misreads them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { gzipBomb, pagingModes, pagingStep, reply, startFaultServer, type FaultServer, type Paging, type Step } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';
import { realClock } from '../../src/main.js';
import type { Clock } from '../../src/context.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { STACK_OR_JS_MESSAGE, report } from './fuzz-settings.js';
import { escapedPage, type EscapedPage } from './escaped-keys.js';
import { nodesToRun } from '../helpers/affected-node.js';
import { startMcp } from '../helpers/mcp-client.js';
import { readJson } from '../../src/api/json-reader.js';

let server: FaultServer;
let elsewhere: FaultServer;
let bomb: Buffer;
beforeAll(async () => {
  server = await startFaultServer();
  elsewhere = await startFaultServer();
  bomb = await gzipBomb(64 * 1024 * 1024);
});
const tally = { runs: 0, faults: 0, requests: 0 };
afterAll(async () => {
  await server?.close();
  await elsewhere?.close();
  report('hostile server', `${tally.runs} runs, ${tally.faults} faults injected, ${tally.requests} requests received; ` +
    'no POST re-sent after it may have reached the server, every batch record reported exactly once');
});

const RETRIES = 2;
const flags = ['--max-retries', String(RETRIES), '--timeout', '1'];
// Where the fault is not a slow answer: a second's timeout would race reading 32 MB on a
// loaded machine, and the test would see a timeout instead of the fault it is about.
const patientFlags = ['--max-retries', String(RETRIES), '--timeout', '60'];

/** The real clock, with every wait bo makes (retry back-offs, Retry-After) recorded. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: realClock.now, sleep: (ms, signal) => (waits.push(ms), realClock.sleep(ms, signal)) };
}

const kinds = {
  GET: { argv: ['accounts', 'list', '--limit', '5'], ok: () => reply.json(200, { metadata: { limit: 5, offset: 0, total: 1 }, items: [{ Uid: 'acc_1', Name: 'One' }] }) },
  PUT: { argv: ['accounts', 'extend-trial', 'acc_1', '--to', '2027-01-31'], ok: () => reply.json(200, 'Trial extended') },
  POST: { argv: ['lists', 'create', '--name', 'News'], ok: () => reply.json(200, { Uid: 'list_1', Name: 'News' }) },
} as const;
type Kind = keyof typeof kinds;

interface Fault {
  name: string;
  /** The answers, in order; `persistent` repeats the first for every request. */
  steps: () => Step[];
  persistent?: boolean;
  /** A fault of size, not of time: run with patientFlags, so reading 32 MB on a loaded machine never races --timeout 1. */
  patient?: boolean;
  /** Per method: exit code, the error line, requests received. */
  expect: (kind: Kind) => { code: number; error: RegExp | null; requests: number } | null;
}

const all = RETRIES + 1;
const ORIGIN = String.raw`http://127\.0\.0\.1:\d+`;
const faults: Fault[] = [
  {
    name: 'connection reset after the request',
    steps: () => [reply.reset()],
    persistent: true,
    expect: (k) => ({ code: 1, error: new RegExp(`^error: ${k} ${ORIGIN}/api/v1/\\S+ failed: the connection was reset$`), requests: k === 'GET' ? all : 1 }),
  },
  {
    name: 'connection closed without an answer',
    steps: () => [reply.hangUp()],
    persistent: true,
    expect: (k) => ({ code: 1, error: /failed: the server closed the connection$/, requests: k === 'GET' ? all : 1 }),
  },
  {
    name: 'no answer past the timeout',
    steps: () => [reply.hang()],
    persistent: true,
    expect: () => ({ code: 1, error: /timed out/, requests: 1 }),
  },
  {
    name: 'a body cut short',
    steps: () => [reply.truncated()],
    persistent: true,
    expect: (k) => ({ code: 1, error: /^error: .+/, requests: k === 'GET' ? all : 1 }),
  },
  {
    name: 'an endless body',
    steps: () => [reply.endless()],
    patient: true,
    expect: () => ({ code: 1, error: /the answer is larger than 32 MB, more than bo accepts for one response$/, requests: 1 }),
  },
  {
    name: 'a gzip bomb',
    steps: () => [reply.gzipBomb(bomb)],
    patient: true,
    expect: () => ({ code: 1, error: /the answer is larger than 32 MB, more than bo accepts for one response$/, requests: 1 }),
  },
  {
    name: 'an HTML page with status 200',
    steps: () => [reply.html(200, 'Welcome to nginx')],
    expect: () => ({ code: 1, error: /^error: unexpected answer from the server/, requests: 1 }),
  },
  {
    // Writes are left out: a 2xx text answer to a write is taken as success today
    // (reported, not fixed here: the HTTP core is another change's file).
    name: 'a text/plain answer where a JSON list belongs',
    steps: () => [reply.text(200, 'OK')],
    expect: (k) => (k === 'GET' ? { code: 1, error: /^error: unexpected answer from the server \(200\): not a list/, requests: 1 } : null),
  },
  {
    name: 'binary bytes as application/octet-stream where a JSON list belongs',
    steps: () => [reply.text(200, '\u0089PNG\r\n\u001a\n\u0000\u001b]0;pwned\u0007', { 'content-type': 'application/octet-stream' })],
    expect: (k) => (k === 'GET' ? { code: 1, error: /^error: unexpected answer from the server \(200\): not a list/, requests: 1 } : null),
  },
  {
    name: 'invalid JSON',
    steps: () => [reply.malformed(200)],
    expect: () => ({ code: 1, error: /^error: unexpected answer from the server \(200 OK\)/, requests: 1 }),
  },
  {
    name: 'an HTML 500 page',
    steps: () => [reply.html(500, 'Internal Server Error')],
    expect: () => ({ code: 1, error: /^error: 500 Internal Server Error/, requests: 1 }),
  },
  {
    name: 'an HTML 502 page from a gateway',
    steps: () => [reply.html(502, '502 Bad Gateway')],
    persistent: true,
    expect: (k) => ({ code: 1, error: /^error: 502 Bad Gateway/, requests: k === 'GET' ? all : 1 }),
  },
  {
    name: 'a burst of 503 that ends',
    steps: () => [reply.json(503, { error: 'unavailable', error_description: 'Try later' }), reply.empty(503)],
    expect: (k) => (k === 'GET' ? { code: 0, error: null, requests: 3 } : { code: 1, error: /^error: 503 Service Unavailable/, requests: 1 }),
  },
  {
    name: 'a 429 storm without Retry-After',
    steps: () => [reply.json(429, { error: 'rate_limited', error_description: 'Too many requests' })],
    persistent: true,
    expect: () => ({ code: 5, error: /^error: 429 Too Many Requests/, requests: all }),
  },
  {
    name: 'a 429 storm with Retry-After: 1',
    steps: () => [reply.rateLimited('1')],
    persistent: true,
    expect: () => ({ code: 5, error: /^error: 429 Too Many Requests/, requests: all }),
  },
  {
    name: 'a 429 with a Retry-After of a day',
    steps: () => [reply.rateLimited('86400')],
    persistent: true,
    expect: () => ({ code: 5, error: /1 d/, requests: 1 }),
  },
  {
    name: 'a redirect to another origin',
    steps: () => [reply.redirect(302, `${elsewhere.url}/api/v1/crm/accounts`)],
    expect: () => ({ code: 1, error: /redirects to .*bo does not follow redirects/, requests: 1 }),
  },
  {
    name: 'a redirect to another host by name',
    steps: () => [reply.redirect(307, 'http://evil.example/api/v1/steal')],
    expect: () => ({ code: 1, error: /bo does not follow redirects/, requests: 1 }),
  },
];

describe('hostile server: each fault against a read, an update and a create', () => {
  for (const fault of faults) {
    const applies = (Object.keys(kinds) as Kind[]).filter((k) => fault.expect(k) !== null);
    it.each(applies)(`${fault.name}: %s`, async (kind) => {
      server.requests.length = 0;
      const seenElsewhere = elsewhere.requests.length;
      const steps = fault.steps();
      server.script(...steps);
      server.fallback(fault.persistent ? steps[0] : kinds[kind].ok());
      const clock = recordingClock();
      // --json: scripts also get one error object with a stable code, never null.
      const r = await runBo(['--json', ...(fault.patient ? patientFlags : flags), ...kinds[kind].argv], { env: testEnv(server, { BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile' }), clock });
      server.fallback(undefined);
      tally.runs++;
      tally.faults += Math.min(server.requests.length, fault.persistent ? all : steps.length);
      tally.requests += server.requests.length;

      const want = fault.expect(kind)!;
      const shown = `${fault.name} / ${kind}\nexit ${r.code}\nstderr ${r.stderr.slice(0, 500)}`;
      expect(r.code, shown).toBe(want.code);
      expect(r.stderr, shown).not.toMatch(STACK_OR_JS_MESSAGE);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
      if (want.error) {
        expect(errors, shown).toHaveLength(1);
        expect(errors[0], shown).toMatch(want.error);
        expect(r.stdout, shown).toBe('');
        const objects = r.stderr.split('\n').filter((l) => l.startsWith('{'));
        expect(objects, shown).toHaveLength(1);
        const { error } = JSON.parse(objects[0]!) as { error: { status: number | null; code: unknown; message: string } };
        expect(typeof error.code === 'string' && error.code.length > 0, shown).toBe(true);
        expect(error.message, shown).toBe(errors[0]!.slice('error: '.length));
      } else expect(errors, shown).toEqual([]);
      expect(server.requests.length, `${shown}\nrequests received`).toBe(want.requests);
      for (const req of server.requests) expect(req.method).toBe(kind);
      // No redirect is followed, whatever its target.
      expect(elsewhere.requests.length).toBe(seenElsewhere);
      // A Retry-After of a day is reported at once, not waited out: bo's waits add up to seconds.
      expect(clock.waits.reduce((a, b) => a + b, 0), `${shown}\nwaits ${clock.waits.join(', ')} ms`).toBeLessThan(15_000);
    });
  }
});

// Batches: each record gets its own sequence of answers (seeded), looked up by the
// record's key whichever order the pool sends them in.
const batchFaults = {
  ok: () => null,
  reset: () => reply.reset(),
  hangUp: () => reply.hangUp(),
  truncated: () => reply.truncated(),
  html500: () => reply.html(500, 'Internal Server Error'),
  e503: () => reply.json(503, { error: 'unavailable', error_description: 'Try later' }),
  r429: () => reply.json(429, { error: 'rate_limited', error_description: 'Too many requests' }),
  r429wait: () => reply.rateLimited('0'),
  malformed: () => reply.malformed(200),
  e400: () => reply.json(400, { error: 'validation_failed', error_description: 'ToDate must be later' }),
  // Past --timeout 1: never repeated, a write may have reached the server.
  hang: () => reply.hang(),
} as const;
type BatchFault = keyof typeof batchFaults;
const refusedBeforeActing = (f: BatchFault) => f === 'r429' || f === 'r429wait';

/** What the retry rules say for a write: how many requests arrive, and whether the last one succeeded. */
function expectedFor(sequence: BatchFault[]): { requests: number; ok: boolean } {
  for (let attempt = 0; ; attempt++) {
    const answer = sequence[attempt] ?? 'ok';
    if (refusedBeforeActing(answer) && attempt < RETRIES) continue;
    // A malformed 200 is "unexpected answer": the record is not counted as done.
    return { requests: attempt + 1, ok: answer === 'ok' };
  }
}

const batchKinds = {
  'PUT accounts extend-trial -': {
    argv: ['accounts', 'extend-trial', '-', '--to', '2027-01-31'],
    key: (i: number) => `acc_b${i}`,
    keyOf: (url: string, _body: string) => decodeURIComponent(/\/crm\/accounts\/([^/]+)\/extend-trial/.exec(url)?.[1] ?? ''),
    ok: reply.json(200, 'Trial extended'),
  },
  'POST lists subscribe --email -': {
    argv: ['lists', 'subscribe', 'list_1', '--email', '-'],
    key: (i: number) => `b${i}@example.com`,
    keyOf: (_url: string, body: string) => (JSON.parse(body) as { Person?: { Email?: string } }).Person?.Email ?? '',
    ok: reply.json(200, { Uid: 'sub_1' }),
  },
};

describe('batches under faults: every record reported once, each sent as often as the rules allow', () => {
  const RECORDS = 12;
  for (const [name, kind] of Object.entries(batchKinds)) {
    it(name, async () => {
      const sequences = fc.array(fc.constantFrom(...(Object.keys(batchFaults) as BatchFault[])), { maxLength: 3 });
      await fc.assert(
        fc.asyncProperty(fc.array(sequences, { minLength: RECORDS, maxLength: RECORDS }), fc.integer({ min: 1, max: 6 }), async (plan, concurrency) => {
          server.requests.length = 0;
          const attempts = new Map<string, number>();
          const bySeq = new Map(plan.map((seq, i) => [kind.key(i), seq]));
          server.fallback((req, res, body) => {
            const key = kind.keyOf(req.url ?? '', body);
            const n = attempts.get(key) ?? 0;
            attempts.set(key, n + 1);
            const fault = bySeq.get(key)?.[n];
            const step = fault ? batchFaults[fault]() : null;
            (step ?? kind.ok)(req, res, body);
          });
          const stdin = plan.map((_, i) => kind.key(i)).join('\n') + '\n';
          const r = await runBo([...flags, ...kind.argv, '--concurrency', String(concurrency)], { env: testEnv(server, { BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile' }), stdin });
          server.fallback(undefined);
          tally.runs++;
          tally.requests += server.requests.length;
          tally.faults += plan.flat().length;

          const shown = `plan ${JSON.stringify(plan)}\nexit ${r.code}\nstdout ${r.stdout}\nstderr ${r.stderr.slice(0, 800)}`;
          expect(r.stderr, shown).not.toMatch(STACK_OR_JS_MESSAGE);
          const lines = r.stdout.trimEnd().split('\n');
          expect(lines, shown).toHaveLength(RECORDS);
          const outcomes = new Map(lines.map((l) => [l.split('\t')[0]!, l.split('\t')[1]!]));
          let allOk = true;
          plan.forEach((seq, i) => {
            const key = kind.key(i);
            const want = expectedFor(seq);
            allOk &&= want.ok;
            expect(outcomes.get(key) === 'ok', `${shown}\n${key} ${JSON.stringify(seq)}`).toBe(want.ok);
            expect(attempts.get(key) ?? 0, `${shown}\n${key} ${JSON.stringify(seq)}: requests received`).toBe(want.requests);
          });
          expect(outcomes.size, shown).toBe(RECORDS);
          expect(r.code, shown).toBe(allOk ? 0 : 1);
        }),
        { seed: 1315, numRuns: Math.max(4, Math.ceil(fuzzRuns(200) / 50)), endOnFailure: true },
      );
    }, 600_000);
  }
});

// Paging faults: each mode of the fault server's list endpoint against a command's whole
// walk in three output modes and `bo api --paginate`, on the built binary. A walk that
// looks complete is complete: else exit 1 with one error line, what was printed stays
// printed (a --json array left open, so that a parser fails), and no record is printed
// twice by a command. A mode added to pagingModes fails here until its outcome is
// written down.
type PagingKind = 'tsv' | 'json' | 'csv' | 'api';
const pagingKinds: Record<PagingKind, string[]> = {
  tsv: ['accounts', 'list', '--all'],
  json: ['accounts', 'list', '--all', '--json'],
  csv: ['accounts', 'list', '--all', '--csv'],
  api: ['api', '/crm/accounts', '--paginate'],
};
const accs = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `acc_${from + i}`);
const incomplete = (n: number, of: number) => `only ${n} of the ${of} records the server announced came back: the list is incomplete`;
const changed = (from: number, to: number) => `the server's total changed during the walk, from ${from} to ${to}: records may have been skipped or repeated; run the command again`;
const repeats = 'unexpected answer from the server: page 1 repeats records already printed; the server does not seem to page';
interface PagingOutcome {
  code: number;
  error?: string;
  errorCode?: string;
  warnings?: string[];
  /** The Uids on stdout, in order; null items printed as they came (JSON only) are left out. */
  uids: string[];
  /** The JSON items that are not records, as printed. */
  others?: unknown[];
}
const pagingOutcomes: Record<keyof typeof pagingModes, (kind: PagingKind) => PagingOutcome> = {
  'a repeated page without a total (offset echoed)': () => ({ code: 1, error: repeats, errorCode: 'unexpected', uids: accs(0, 100) }),
  'a repeated page with a total of 250 (offset echoed)': () => ({ code: 1, error: repeats, errorCode: 'unexpected', uids: accs(0, 100) }),
  'an ignored offset (always page 0, offset 0)': () => ({ code: 1, error: incomplete(100, 250), errorCode: 'incomplete', uids: accs(0, 100) }),
  'a short first page (99 of 100)': () => ({ code: 1, error: incomplete(249, 250), errorCode: 'incomplete', uids: [...accs(0, 99), ...accs(100, 250)] }),
  'a total that shrinks from 250 to 120 mid-walk': () => ({ code: 1, error: incomplete(120, 250), errorCode: 'incomplete', warnings: [changed(250, 120)], uids: accs(0, 120) }),
  'a total that says 250 with pages for 200': () => ({ code: 1, error: incomplete(200, 250), errorCode: 'incomplete', uids: accs(0, 200) }),
  'items that are not records (null, 5, "x" on page 2)': (kind) =>
    kind === 'tsv' || kind === 'csv'
      ? { code: 1, error: 'unexpected answer from the server: item 3 of page 2 is not a record', errorCode: 'unexpected', uids: accs(0, 200) }
      : { code: 0, uids: [...accs(0, 202), ...accs(205, 250)], others: [null, 5, 'x'] },
  'a record inserted at the front mid-walk (pages shift: one repeats, one is never seen)': (kind) => ({
    code: 1,
    error: incomplete(250, 251),
    errorCode: 'incomplete',
    // bo api prints the server's items as they come; a command prints none twice.
    warnings: kind === 'api' ? [changed(250, 251)] : [changed(250, 251), '1 record the server sent more than once was left out'],
    uids: kind === 'api' ? [...accs(0, 100), ...accs(99, 250)] : accs(0, 250),
  }),
  // Records added at the end shift no page: every record once, exit 0, nothing to say.
  'a total that grows from 250 to 300 mid-walk (records added at the end)': () => ({ code: 0, uids: accs(0, 300) }),
};

/** What a run printed: the Uids in order (first cell of a row; a JSON item's Uid), and the JSON items that are not records. */
function printedItems(kind: PagingKind, stdout: string): { uids: string[]; others: unknown[] } {
  if (kind === 'tsv' || kind === 'csv') {
    const rows = stdout.split('\n').filter((l) => l !== '');
    return { uids: (kind === 'csv' ? rows.slice(1) : rows).map((l) => l.split(kind === 'csv' ? ',' : '\t')[0]!), others: [] };
  }
  // An array left open still shows its items: read them one by one.
  const items = JSON.parse(stdout.trimEnd().endsWith(']') ? stdout : `${stdout.trimEnd().replace(/,$/, '')}]`) as unknown[];
  const uids = items.flatMap((i) => (i !== null && typeof i === 'object' && 'Uid' in i ? [String((i as { Uid: unknown }).Uid)] : []));
  return { uids, others: items.filter((i) => i === null || typeof i !== 'object') };
}

describe('hostile server: paging faults against a whole walk (the built binary)', () => {
  it('every paging mode has its outcome written down', () => {
    expect(Object.keys(pagingOutcomes).sort()).toEqual(Object.keys(pagingModes).sort());
  });

  for (const [mode, paging] of Object.entries(pagingModes) as Array<[keyof typeof pagingModes, Paging]>) {
    it.each(Object.keys(pagingKinds) as PagingKind[])(`${mode}: %s`, async (kind) => {
      server.requests.length = 0;
      server.fallback(pagingStep(paging));
      const r = await runBin([...patientFlags, ...pagingKinds[kind]], { env: testEnv(server, { BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile' }), timeoutMs: 60_000 });
      server.fallback(undefined);
      tally.runs++;
      tally.faults++;
      tally.requests += server.requests.length;
      const want = pagingOutcomes[mode](kind);
      const shown = `${mode} / ${kind}\nexit ${r.code}\nstderr ${r.stderr.slice(0, 800)}\nrequests ${server.requests.map((q) => q.url).join(' ')}`;
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(r.stderr, shown).not.toMatch(STACK_OR_JS_MESSAGE);
      expect(lines.filter((l) => l.startsWith('warning: ')), shown).toEqual((want.warnings ?? []).map((w) => `warning: ${w}`));
      expect(lines.filter((l) => l.startsWith('error: ')), shown).toEqual(want.error ? [`error: ${want.error}`] : []);
      expect(r.code, shown).toBe(want.code);
      if (kind === 'json' && want.error) {
        // The array stays open: a parser fails rather than take a part for the whole.
        expect(() => JSON.parse(r.stdout), shown).toThrow();
        const objects = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { error: { code: string; message: string } });
        expect(objects.map((o) => o.error), shown).toEqual([{ status: null, code: want.errorCode, message: want.error }]);
      }
      const printed = printedItems(kind, r.stdout);
      expect(printed.uids, shown).toEqual(want.uids);
      expect(printed.others, shown).toEqual(want.others ?? []);
      // Never more pages than the largest total needs, plus one to see the end.
      expect(server.requests.length, shown).toBeLessThanOrEqual(Math.ceil(Math.max(250, paging.later ?? 0, paging.records + (paging.inserted ?? 0)) / 100) + 1);
    }, 60_000);
  }
});

describe('hostile server: escaped keys in every output mode (the built binary, bo mcp, a pinned affected Node)', () => {
  // A key bo mcp passes as it is (one with a control or hidden character is made
  // harmless its own way, and only its count is checked here).
  const PLAIN = /^[A-Za-z0-9\\"/é😀]*$/u;
  const page = escapedPage(() => 'Region');
  const env = () => testEnv(server, { BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile' });
  const fields = ['--fields', 'Uid,SchemaLessData'];
  const serve = (p: EscapedPage) =>
    server.fallback((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(p.body);
    });

  for (const { name, node } of nodesToRun) {
    it.skipIf(!node)(`on ${name}: tab-separated rows, CSV, --jsonl, the record view and bo mcp give the server's keys`, async () => {
      await fc.assert(
        fc.asyncProperty(page, async (p) => {
          serve(p);
          const run = async (argv: string[]) => {
            const r = await runBin(argv, { env: env(), node });
            expect(r.code, `${argv.join(' ')}\n${r.stderr}`).toBe(0);
            return r.stdout;
          };
          const shown = `keys ${JSON.stringify(p.keys)}\nbody ${p.body.slice(0, 600)}`;
          const data = p.records.map((r) => r.SchemaLessData);
          const tsv = await run(['accounts', 'list', ...fields]);
          expect(tsv.trimEnd().split('\n').map((l) => readJson(l.split('\t')[1]!)), shown).toEqual(data);
          const csv = await run(['--csv', 'accounts', 'list', ...fields]);
          const cells = csv.split('\r\n').slice(1, -1).map((row) => row.slice(row.indexOf(',') + 1)).map((c) => (c.startsWith('"') ? c.slice(1, -1).replaceAll('""', '"') : c));
          expect(cells.map((c) => readJson(c)), shown).toEqual(data);
          const jsonl = await run(['--jsonl', 'accounts', 'list']);
          expect(jsonl.trimEnd().split('\n').map((l) => readJson(l)), shown).toEqual(p.records);
          const last = p.records.at(-1)!;
          const view = await run(['accounts', 'get', last.Uid, ...fields]);
          expect(readJson(view.split('\n')[1]!.split('\t')[1]!), shown).toEqual(last.SchemaLessData);
          const mcp = await startMcp(['mcp'], env(), node);
          try {
            for (const [tool, args] of [['accounts_list', {}], ['accounts_get', { accountUid: last.Uid }]] as const) {
              const r = (await mcp.client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
              expect(r.isError ?? false, shown).toBe(false);
              const got = readJson(r.content[0]!.text) as { items?: Array<{ SchemaLessData: object }>; SchemaLessData?: object };
              const items = got.items ?? [got as { SchemaLessData: object }];
              const want = got.items ? p.records : [last];
              expect(items.length, shown).toBe(want.length);
              items.forEach((item, i) => {
                const keys = Object.keys(item.SchemaLessData);
                const key = p.keys[Number(want[i]!.Uid.slice(4))]!;
                expect(keys, shown).toHaveLength(2);
                if (PLAIN.test(key)) expect(keys, shown).toEqual(['Region', key]);
              });
            }
          } finally {
            await mcp.close();
          }
        }),
        { seed: 1340, numRuns: fuzzRuns(4), endOnFailure: true },
      );
      server.fallback(undefined);
    }, 300_000);
  }
});

describe('hostile server: peak memory of the built binary', () => {
  // Killed at 90 s, inside the tests' 120 s: a bo that never ends fails on what it printed, not on a bare timeout.
  const measure = (argv: string[], stdin = '') => runBin([...patientFlags, ...argv], { env: testEnv(server, { BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile' }), timeoutMs: 90_000, stdin, measure: true });

  it.each([
    ['an endless body to a create (POST)', ['lists', 'create', '--name', 'News'], () => reply.endless()],
    ['a gzip bomb to an update (PUT)', ['accounts', 'extend-trial', 'acc_1', '--to', '2027-01-31'], () => reply.gzipBomb(bomb)],
  ])('%s: under 150 MB', async (_name, argv, step) => {
    server.requests.length = 0;
    server.script(step());
    const r = await measure(argv);
    tally.runs++;
    tally.faults++;
    expect(r.stderr).toMatch(/^error: .*the answer is larger than 32 MB, more than bo accepts for one response$/m);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(r.peakMb).toBeLessThan(150);
  }, 120_000);

  it.each([4, 16])('a batch of 16 whose every answer is endless or a gzip bomb, %i in flight', async (concurrency) => {
    server.requests.length = 0;
    let n = 0;
    server.fallback((req, res, body) => (n++ % 2 === 0 ? reply.endless() : reply.gzipBomb(bomb))(req, res, body));
    const uids = Array.from({ length: 16 }, (_, i) => `acc_m${i}`);
    const r = await measure(['accounts', 'extend-trial', '-', '--to', '2027-01-31', '--concurrency', String(concurrency)], uids.join('\n') + '\n');
    server.fallback(undefined);
    tally.runs++;
    tally.faults += 16;
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(uids));
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(16);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(16);
    // The answers read at once never hold more than one cap (32 MB; 16 caps, 330 MB,
    // before they shared it). What a dropped answer held goes when V8 next collects:
    // Node 20 stays under 150 MB here; Node 24 starts ~15 MB larger and peaks at 172-188 MB.
    expect(r.peakMb).toBeLessThan(Number(process.versions.node.split('.')[0]) <= 20 ? 170 : 220);
  }, 120_000);
});

describe('hostile server: an https base URL redirected to plain http (the built binary, trusting a test CA)', () => {
  it.each([
    ['301 to plain http (same host, another port)', 301],
    ['308 to plain http (same host, another port)', 308],
  ])('%s: exit 1, not followed, the credential never sent in clear', async (_name, status) => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const https = await import('node:https');
    const { TEST_CERT, TEST_KEY } = await import('../api/tls-fixture.js');
    const seen: string[] = [];
    const tls = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(status, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as import('node:net').AddressInfo).port}`;
    const cfg = tempConfig();
    const ca = join(cfg.root, 'ca.pem');
    writeFileSync(ca, TEST_CERT.slice(0, TEST_CERT.indexOf('-----END CERTIFICATE-----') + 26));
    const before = elsewhere.requests.length;
    try {
      for (const kind of Object.keys(kinds) as Kind[]) {
        const r = await runBin([...patientFlags, ...kinds[kind].argv], {
          env: { ...cfg.env, BO_BASE_URL: url, BO_API_KEY: 'key-hostile', BO_API_SECRET: 'secret-hostile', NODE_EXTRA_CA_CERTS: ca },
        });
        tally.runs++;
        tally.faults++;
        const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
        expect(errors, `${kind}\n${r.stderr}`).toHaveLength(1);
        expect(errors[0], kind).toMatch(new RegExp(`^error: ${status} .*redirects to http://127\\.0\\.0\\.1:\\d+/\\S*; bo does not follow redirects$`));
        expect(r.stderr).not.toContain('secret-hostile');
        expect(r.code, kind).toBe(1);
      }
      expect(seen).toHaveLength(3);
      expect(elsewhere.requests.length).toBe(before);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
