// D13 paging against a server that applies its own cap, and against odd servers.
import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fetchPage, groupDigits, listRecords, moreRecordsNote, paginate, type PageMeta } from '../../src/api/paginate.js';
import { parseListOptions } from '../../src/input/list-options.js';
import type { HttpClient } from '../../src/api/http-types.js';
import { ApiError, IncompleteError } from '../../src/errors.js';
import { reply, type Step } from '../helpers/fault-server.js';
import { faultServerEach } from './client-fixture.js';

const faults = faultServerEach();
let client: HttpClient;
beforeEach(() => {
  client = faults.fixture().client;
});

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ Uid: `r${i}` }));

/** A D13 server: offset is a page index in units of the applied limit, capped at `cap`. */
function d13(data: Array<{ Uid: string }>, cap = 100, withTotal = true): Step {
  return (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const limit = Math.min(Number(q.get('limit') ?? 100), cap);
    const offset = Number(q.get('offset') ?? 0);
    const items = data.slice(offset * limit, offset * limit + limit);
    const metadata = withTotal ? { limit, offset, total: data.length } : { limit, offset };
    reply.json(200, { metadata, items })(req, res, '');
  };
}

function serve(step: Step): void {
  faults.server.fallback(step);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const sent = () => faults.server.requests.map((r) => new URL(r.url, 'http://x').search);

describe('paginate', () => {
  it('walks every page once (--all), stopping at total', async () => {
    serve(d13(records(250)));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/crm/accounts', max: Infinity }));
    expect(got.map((r) => r.Uid)).toEqual(records(250).map((r) => r.Uid));
    expect(sent()).toEqual(['?limit=100&offset=0', '?limit=100&offset=1', '?limit=100&offset=2']);
  });

  it('follows the applied metadata.limit when the server caps the size (25 with fields)', async () => {
    serve(d13(records(60), 25));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/x', query: { fields: 'Plan.*' } }));
    expect(got.map((r) => r.Uid)).toEqual(records(60).map((r) => r.Uid));
    expect(sent()).toEqual([
      '?fields=Plan.*&limit=100&offset=0',
      '?fields=Plan.*&limit=25&offset=1',
      '?fields=Plan.*&limit=25&offset=2',
    ]);
  });

  it('stops after max records, and reports each page to onPage', async () => {
    serve(d13(records(5432)));
    const pages: PageMeta[] = [];
    const got = await collect(paginate(client, { path: '/x', max: 130, onPage: (m) => pages.push(m) }));
    expect(got).toHaveLength(130);
    expect(pages).toEqual([
      { limit: 100, offset: 0, total: 5432 },
      { limit: 100, offset: 1, total: 5432 },
    ]);
    expect(faults.server.requests).toHaveLength(2);
  });

  it('asks for no more than one page of pageSize for a small max', async () => {
    serve(d13(records(50)));
    const got = await collect(paginate(client, { path: '/x', pageSize: 5, max: 5 }));
    expect(got).toHaveLength(5);
    expect(sent()).toEqual(['?limit=5&offset=0']);
  });

  it('stops at a short page when the server gives no total', async () => {
    serve(d13(records(7), 5, false));
    expect(await collect(paginate(client, { path: '/x', pageSize: 5 }))).toHaveLength(7);
    expect(sent()).toEqual(['?limit=5&offset=0', '?limit=5&offset=1']);
  });

  it('stops at an empty page, whatever the total says, and says the walk is incomplete', async () => {
    faults.server.script(reply.json(200, { metadata: { limit: 5, offset: 0, total: 99 }, items: [] }));
    const err = await collect(paginate(client, { path: '/x', pageSize: 5, max: Infinity })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IncompleteError);
    expect((err as IncompleteError).message).toBe('only 0 of the 99 records the server announced came back: the list is incomplete');
    expect((err as IncompleteError).code).toBe('incomplete');
    expect(faults.server.requests).toHaveLength(1);
  });

  it('skips nothing and repeats nothing when the server shrinks the size mid-walk', async () => {
    const data = records(20);
    const page = (limit: number, offset: number): Step =>
      reply.json(200, { metadata: { limit, offset, total: 20 }, items: data.slice(offset * limit, offset * limit + limit) });
    // 10 applied, then 4: the client asks offset floor(10/10)=1 with limit 10, gets 4-sized page 1 (r4..r7),
    // all already seen; then asks limit 4 offset floor(10/4)=2 → r8..r11, skipping r8 and r9.
    faults.server.script(page(10, 0), page(4, 1), page(4, 2), page(4, 3), page(4, 4));
    const got = await collect(paginate<{ Uid: string }>(client, { path: '/x', pageSize: 10 }));
    expect(got.map((r) => r.Uid)).toEqual(data.map((r) => r.Uid));
    expect(sent()).toEqual(['?limit=10&offset=0', '?limit=10&offset=1', '?limit=4&offset=2', '?limit=4&offset=3', '?limit=4&offset=4']);
  });

  it('streams: the next page is fetched only when the current one is used up', async () => {
    serve(d13(records(150)));
    const it = paginate(client, { path: '/x' })[Symbol.asyncIterator]();
    await it.next();
    expect(faults.server.requests).toHaveLength(1);
    for (let i = 1; i < 100; i++) await it.next();
    expect(faults.server.requests).toHaveLength(1);
    await it.next();
    expect(faults.server.requests).toHaveLength(2);
    await it.return?.();
  });

  it('keeps filters and ignores limit/offset from the query', async () => {
    serve(d13(records(3)));
    await collect(paginate(client, { path: '/x', query: { AccountStage: 2, orderBy: 'Name desc', limit: 7, offset: 9 } }));
    expect(sent()).toEqual(['?AccountStage=2&orderBy=Name+desc&limit=100&offset=0']);
  });

  it('refuses an answer that is not a D13 envelope', async () => {
    faults.server.script(reply.json(200, [{ Uid: 'a' }]));
    const err = await collect(paginate(client, { path: '/x' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('unexpected answer from the server (200): not a list (no "items" array)');
    expect((err as ApiError).exitCode).toBe(1);
  });

  it('reads pages fetched ahead a record at a time: a record that does not parse fails the walk there, as the whole answer would', async () => {
    // Pages 1 and 2 come while page 0 is read (concurrency 4); page 1's record r150 is broken.
    const good = d13(records(300));
    const broken: Step = (req, res, body) => {
      const offset = new URL(req.url!, 'http://x').searchParams.get('offset');
      if (offset !== '1') return good(req, res, body);
      const page = JSON.stringify({ metadata: { limit: 100, offset: 1, total: 300 }, items: records(300).slice(100, 200) });
      reply.malformed(200, page.replace('{"Uid":"r150"}', '{"Uid":"r150",}'))(req, res, body);
    };
    serve(broken);
    // Without a trace (--verbose reads every answer whole).
    const quiet = faults.fixture({ trace: undefined }).client;
    const seen: string[] = [];
    const err = await (async () => {
      for await (const r of paginate<{ Uid: string }>(quiet, { path: '/x', max: Infinity, concurrency: 4 })) seen.push(r.Uid);
    })()
      .catch((e: unknown) => e)
      .finally(() => quiet.close());
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/^unexpected answer from the server \(200 OK\): malformed JSON: \{"metadata"/);
    expect((err as ApiError).exitCode).toBe(1);
    expect(seen).toEqual(records(150).map((r) => r.Uid));
  });
});

describe('fetchPage (--page)', () => {
  it('fetches one raw page with its metadata', async () => {
    serve(d13(records(30)));
    const page = await fetchPage<{ Uid: string }>(client, { path: '/x', limit: 10, offset: 2 });
    expect([...page.items].map((r) => r.Uid)).toEqual(['r20', 'r21', 'r22', 'r23', 'r24', 'r25', 'r26', 'r27', 'r28', 'r29']);
    expect(page.meta).toEqual({ limit: 10, offset: 2, total: 30 });
  });

  it('falls back to what it asked when metadata is missing', async () => {
    faults.server.script(reply.json(200, { items: [{ Uid: 'a' }] }));
    const page = await fetchPage(client, { path: '/x', limit: 10, offset: 3 });
    expect(page.meta).toEqual({ limit: 10, offset: 3, total: undefined });
  });
});

describe('listRecords: what a list command prints', () => {
  it('walks up to --limit with the command filters and the list options merged', async () => {
    serve(d13(records(500)));
    const pages: PageMeta[] = [];
    const selection = parseListOptions({ limit: 150, filter: ['AccountStage=2'], orderBy: 'Name desc' });
    const got = await collect(listRecords(client, { path: '/crm/accounts', query: { q: 'acme' } }, selection, (m) => pages.push(m)));
    expect(got).toHaveLength(150);
    expect(sent()).toEqual([
      '?q=acme&AccountStage=2&orderBy=Name+desc&limit=100&offset=0',
      '?q=acme&AccountStage=2&orderBy=Name+desc&limit=100&offset=1',
    ]);
    expect(moreRecordsNote(got.length, pages.at(-1)?.total)).toBe('showing 150 of 500; pass --all for every record');
  });

  it('--page fetches exactly that page', async () => {
    serve(d13(records(500)));
    const got = await collect(listRecords<{ Uid: string }>(client, { path: '/x' }, parseListOptions({ page: 4, pageSize: 20 })));
    expect(got.map((r) => r.Uid)).toEqual(records(100).slice(80).map((r) => r.Uid));
    expect(sent()).toEqual(['?limit=20&offset=4']);
  });

  it('says nothing when the whole list was shown or the total is unknown', () => {
    expect(moreRecordsNote(100, 100)).toBeUndefined();
    expect(moreRecordsNote(100, undefined)).toBeUndefined();
    expect(moreRecordsNote(100, 5432)).toBe('showing 100 of 5,432; pass --all for every record');
    expect(moreRecordsNote(1000, 1234567)).toBe('showing 1,000 of 1,234,567; pass --all for every record');
  });

  it('groups digits in threes as en-US does, without loading the locale data', () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => groupDigits(n) === n.toLocaleString('en-US')));
    for (const n of [0, 7, 999, 1000, 99_999, 100_000, 1_000_000]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});
