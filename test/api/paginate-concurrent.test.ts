// Concurrent paging (--concurrency, default 4 for list commands): once metadata.total
// is known the next pages are fetched several at a time, yet printed in order, with
// nothing skipped or repeated, never more in flight than asked, and a server that
// changes the page size mid-walk still handled the D13 way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRecords, paginate } from '../../src/api/paginate.js';
import { listOptions, parseListOptions } from '../../src/input/list-options.js';
import { integerOf } from '../../src/invocation.js';
import type { HttpClient } from '../../src/api/http-types.js';
import { UsageError } from '../../src/errors.js';
import { reply, type Step } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runBo } from '../helpers/run-bo.js';
import { faultServerEach } from './client-fixture.js';

const faults = faultServerEach();
let client: HttpClient;
beforeEach(() => {
  client = faults.fixture().client;
});

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ Uid: `r${i}` }));
const uids = (rs: Array<{ Uid: string }>) => rs.map((r) => r.Uid);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A D13 server answering later pages sooner (so order must be restored), counting requests in flight. */
function slowD13(data: Array<{ Uid: string }>, seen: { now: number; most: number }, sizeFor = (_offset: number, asked: number) => asked): Step {
  return (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const offset = Number(q.get('offset') ?? 0);
    const limit = sizeFor(offset, Math.min(Number(q.get('limit') ?? 100), 100));
    seen.now++;
    seen.most = Math.max(seen.most, seen.now);
    setTimeout(() => {
      seen.now--;
      const items = data.slice(offset * limit, offset * limit + limit);
      reply.json(200, { metadata: { limit, offset, total: data.length }, items })(req, res, '');
    }, 40 - (offset % 4) * 10);
  };
}

const offsets = () => faults.server.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')));

describe('paginate with concurrency', () => {
  it('fetches each page once, at most 4 at a time, and yields every record in order', async () => {
    const data = records(1050);
    const seen = { now: 0, most: 0 };
    faults.server.fallback(slowD13(data, seen));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/x', max: Infinity, concurrency: 4 }));
    expect(uids(got)).toEqual(uids(data));
    expect(offsets()[0]).toBe(0);
    expect([...offsets()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(seen.most).toBe(4);
  });

  it('asks only for the pages --limit needs', async () => {
    const seen = { now: 0, most: 0 };
    faults.server.fallback(slowD13(records(5000), seen));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/x', max: 250, concurrency: 4 }));
    expect(uids(got)).toEqual(uids(records(250)));
    expect([...offsets()].sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it('skips nothing and repeats nothing when the server shrinks the page size mid-walk', async () => {
    const data = records(700);
    const seen = { now: 0, most: 0 };
    // From page 3 on the server applies 50 instead of 100.
    faults.server.fallback(slowD13(data, seen, (offset, asked) => (offset >= 3 ? 50 : asked)));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/x', max: Infinity, concurrency: 4 }));
    expect(uids(got)).toEqual(uids(data));
  });

  it('a failed page ends the walk with its error, after the records before it', async () => {
    const data = records(500);
    const seen = { now: 0, most: 0 };
    const ok = slowD13(data, seen);
    // Pages in flight past the failed one may or may not be asked for: the fallback answers them.
    faults.server.script(ok, ok, ok, reply.json(404, { error: 'not_found', error_description: 'gone' }));
    faults.server.fallback(ok);
    const got: string[] = [];
    const err = await (async () => {
      for await (const r of paginate<{ Uid: string }>(client, { path: '/x', max: Infinity, concurrency: 4 })) got.push(r.Uid);
    })().catch((e: unknown) => e);
    expect((err as Error).message).toContain('gone');
    // Pages 0 and 1 came before the failed request, whichever page it was for.
    expect(got.slice(0, 200)).toEqual(uids(data).slice(0, 200));
    expect(got.length % 100).toBe(0);
  });

  it('a page that arrived ahead of its turn as malformed JSON fails when its turn comes, as it would one after another', async () => {
    // Pages fetched ahead keep their bytes until their turn (paginate.ts requestPage):
    // the bad one is refused with the same message, after every record before it.
    const data = records(500);
    const seen = { now: 0, most: 0 };
    const ok = slowD13(data, seen);
    const bad = reply.text(200, '{"metadata":{"limit":100,"offset":3,"total":500},"items":[{"Uid":"r300"},', { 'content-type': 'application/json' });
    faults.server.script(ok, ok, ok, bad);
    faults.server.fallback(ok);
    const got: string[] = [];
    const err = await (async () => {
      for await (const r of paginate<{ Uid: string }>(client, { path: '/x', max: Infinity, concurrency: 4 })) got.push(r.Uid);
    })().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^unexpected answer from the server \(200 OK\): malformed JSON: \{"metadata"/);
    expect(got.slice(0, 200)).toEqual(uids(data).slice(0, 200));
    expect(got.length % 100).toBe(0);
    expect(got.length).toBeLessThan(500);
  });

  it('list commands default to 4 pages in flight; --concurrency 1 walks one page at a time', async () => {
    const data = records(600);
    const seen = { now: 0, most: 0 };
    faults.server.fallback(slowD13(data, seen));
    const all = parseListOptions({ all: true });
    expect(uids(await collect(listRecords<{ Uid: string }>(client, { path: '/x' }, all)))).toEqual(uids(data));
    expect(seen.most).toBe(4);
    seen.most = 0;
    const one = parseListOptions({ all: true, concurrency: 1 });
    expect(uids(await collect(listRecords<{ Uid: string }>(client, { path: '/x' }, one)))).toEqual(uids(data));
    expect(seen.most).toBe(1);
  });

  it('--concurrency must be an integer from 1 to 16', () => {
    // As every caller's invocation reads it (invocation.ts), from its declaration.
    const declared = listOptions().find((d) => d.flags.startsWith('--concurrency'))!;
    for (const bad of ['0', '17', 'x', '2.5', '-1']) {
      expect(() => integerOf(declared, bad)).toThrow(new UsageError(`--concurrency must be an integer from 1 to 16, not "${bad}"`));
    }
    expect(parseListOptions({ concurrency: integerOf(declared, '16') }).concurrency).toBe(16);
  });
});

describe('bo accounts list --all with concurrent pages (sandbox over HTTP)', () => {
  let sb: TestSandbox;
  beforeEach(async () => {
    sb = await startTestSandbox({ accounts: 1200 });
  });
  afterEach(async () => sb.close());

  it('prints every account once, in the order of the sequential walk', async () => {
    const env = { BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret };
    const [four, one] = await Promise.all([
      runBo(['accounts', 'list', '--all', '--jsonl', '--fields', 'Name'], { env }),
      runBo(['accounts', 'list', '--all', '--jsonl', '--fields', 'Name', '--concurrency', '1'], { env }),
    ]);
    expect(four.code, four.stderr).toBe(0);
    expect(one.code, one.stderr).toBe(0);
    const lines = four.stdout.trim().split('\n');
    const total = (await sb.api('GET', '/crm/accounts?limit=1')).body.metadata.total;
    expect(lines).toHaveLength(total);
    expect(new Set(lines.map((l) => JSON.parse(l).Uid)).size).toBe(total);
    expect(four.stdout).toBe(one.stdout);
  });

  it('a bad --concurrency is exit 2 naming the flag, and nothing is sent', async () => {
    const before = (await sb.activity()).length;
    const env = { BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret };
    const r = await runBo(['accounts', 'list', '--all', '--concurrency', '40'], { env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: --concurrency must be an integer from 1 to 16, not "40"\n' });
    expect((await sb.activity()).length).toBe(before);
  });
});
