// D13 paging as an async iterator that streams: one page in memory at a time (or
// `concurrency` pages once metadata.total is known), so `--all --jsonl` over 100,000
// accounts runs in constant memory.
//
// `offset` is a page index in units of the size the server applied (metadata.limit),
// which may be smaller than the one asked for (capped at 100, or 25 when `fields`
// expands children). So the walk tracks `position`, the index of the next record it
// has not yielded, asks for the page that contains it using the last applied size as
// `limit` (COMMANDS.md: "the next page uses the applied metadata.limit"), and skips
// any record before `position` should the server change sizes mid-walk. Nothing is
// skipped or repeated.
//
// A server that pages badly is not believed (walk-ledger.ts keeps the
// account): the walk is judged against the largest metadata.total announced during it
// and ends `incomplete` short of it; a page that came back short while the total says
// more does not end it; a page that only repeats what was printed ends it `unexpected`;
// and it never asks for more pages than that total needs, plus one.

import { ApiError } from '../errors.js';
import type { BytesResponse, HttpClient, QueryValue, RequestOptions } from './http-types.js';
import { ArrayPage, explainingEmpty, longWork, paged, type RecordPage, type RecordSource } from './record-source.js';
import { PageRecords, scanPage } from './page-records.js';
import { MAX_JSON_DEPTH } from './response-errors.js';
import { WalkLedger } from './walk-ledger.js';
import { groupDigits } from './digits.js';

export { groupDigits };

export interface PageMeta {
  /** The page size the server applied. */
  limit: number;
  /** The zero-based page index. */
  offset: number;
  /** The number of records in the whole list, when the server said; in a walk, the largest it said so far. */
  total: number | undefined;
  /** In a walk: a page came back with fewer records than its size while the total said more. */
  short?: boolean;
}

export interface Page<T> {
  items: RecordPage<T>;
  meta: PageMeta;
}

export type ListQuery = Record<string, QueryValue | QueryValue[]>;

export interface PaginateOptions {
  path: string;
  /** Filters, fields, orderBy… `limit` and `offset` here are ignored. */
  query?: ListQuery;
  /** Records asked per page; default 100 (the API's cap). */
  pageSize?: number;
  /** Most records to yield; Infinity for --all. Default: no limit. */
  max?: number;
  /** After each page is read, e.g. to say "showing 100 of 5,432; pass --all". */
  onPage?(meta: PageMeta): void;
  signal?: AbortSignal;
  /** Extra headers on every page's request (`bo api -H`). */
  headers?: Record<string, string>;
  /** Pages in flight once metadata.total is known; default 1 (one after another). */
  concurrency?: number;
  /**
   * Hand on a record whose Uid was already handed on (`bo api --paginate`, which prints
   * the server's items as they are); a command's walk leaves it out and says how many.
   */
  keepRepeats?: boolean;
}

export const DEFAULT_PAGE_SIZE = 100;
/** Pages in flight for a list command's walk (--concurrency). */
export const DEFAULT_CONCURRENCY = 4;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** One raw page (--page): the D13 envelope, checked. */
export async function fetchPage<T>(
  client: HttpClient,
  options: { path: string; query?: ListQuery; limit: number; offset: number; signal?: AbortSignal; headers?: Record<string, string> },
): Promise<Page<T>> {
  return pageOf<T>(await requestPage(client, options), options);
}

/**
 * The request of a page. A page of a walk that goes on (`bytes`) keeps its bytes
 * (HttpClient.requestBytes) and pageOf() reads them a record at a time
 * (page-records.ts): a page fetched ahead of its turn holds a buffer outside V8's heap,
 * and one being written holds the record at hand, not a hundred parsed records that
 * young-generation collections copy. A page that is all a command prints (--page, a
 * list within one page) is parsed the plain way, which is quicker for one page.
 */
async function requestPage(
  client: HttpClient,
  options: { path: string; query?: ListQuery; limit: number; offset: number; signal?: AbortSignal; headers?: Record<string, string> },
  bytes = false,
): Promise<BytesResponse> {
  const { limit: _l, offset: _o, ...rest } = options.query ?? {};
  const req: RequestOptions = {
    method: 'GET',
    path: options.path,
    query: { ...rest, limit: options.limit, offset: options.offset },
    headers: options.headers,
    signal: options.signal,
  };
  if (bytes) return client.requestBytes(req);
  const res = await client.request<unknown>(req);
  return { status: res.status, headers: res.headers, read: () => res.body };
}

/**
 * The page an answer holds: the D13 envelope, checked. `asked`: the size and index
 * requested. A lazy answer's records are parsed as they are read; one that does not
 * parse fails the walk there with what parsing the whole answer says of it.
 */
function pageOf<T>(response: BytesResponse, asked: { limit: number; offset: number }): Page<T> {
  const { read, bytes } = response;
  const scanned = bytes ? scanPage(bytes, MAX_JSON_DEPTH) : undefined;
  if (scanned) {
    // A record that does not parse: what the whole answer's parse throws for it.
    const failed = (): never => {
      read();
      throw new ApiError(`unexpected answer from the server (${response.status}): malformed JSON`, { status: response.status, code: 'unexpected' });
    };
    return { items: new PageRecords<T>(bytes!, scanned.spans, failed, scanned.uids), meta: metaOf(scanned.rest.metadata, asked) };
  }
  const body = read() as { items?: unknown; metadata?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.items)) {
    throw new ApiError(`unexpected answer from the server (${response.status}): not a list (no "items" array)`, {
      status: response.status,
      code: 'unexpected',
      body,
      headers: response.headers,
    });
  }
  return { items: new ArrayPage(body.items as T[]), meta: metaOf(body.metadata, asked) };
}

function metaOf(metadata: unknown, asked: { limit: number; offset: number }): PageMeta {
  const meta = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as Record<string, unknown>;
  const applied = count(meta.limit);
  return {
    limit: applied !== undefined && applied > 0 ? applied : asked.limit,
    offset: count(meta.offset) ?? asked.offset,
    total: count(meta.total),
  };
}

/**
 * The records of a walk, one by one or a page at a time (record-source.ts): each page
 * read is handed on less any record before `position` or past `max`, and less what
 * the ledger leaves out (walk-ledger.ts); its notes are the walk's.
 */
export function paginate<T>(client: HttpClient, options: PaginateOptions): RecordSource<T> {
  let ledger: WalkLedger | undefined;
  return paged(
    (wants) => {
      ledger = new WalkLedger({ dropRepeats: options.keepRepeats !== true, recordsOnly: wants?.recordsOnly === true, most: options.max });
      return walkPages<T>(client, options, ledger);
    },
    () => ledger?.notes() ?? [],
  );
}

async function* walkPages<T>(client: HttpClient, options: PaginateOptions, ledger: WalkLedger): AsyncGenerator<RecordPage<T>, void, undefined> {
  const max = options.max ?? Infinity;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let limit = options.pageSize ?? DEFAULT_PAGE_SIZE;
  let position = 0;
  let yielded = 0;
  let idle = 0; // pages in a row that moved the walk on by nothing
  // The records of `page` from `position` on, and whether the walk goes on after it.
  function take(page: Page<T>): { records: RecordPage<T>; more: boolean } {
    ledger.total(page.meta.total);
    const { announced } = ledger;
    const { items, meta } = page;
    const start = meta.offset * meta.limit;
    const before = position;
    const from = Math.max(0, position - start);
    const records = ledger.admit(items, from, meta.offset, max - yielded);
    yielded += records.length;
    if (items.length > from) position = start + items.length;
    const short = items.length < meta.limit;
    if (short && announced !== undefined && start + items.length < announced) ledger.short = true;
    options.onPage?.({ ...meta, total: announced, ...(ledger.short ? { short: true } : {}) });
    let more = true;
    if (yielded >= max || items.length === 0) more = false;
    else if (announced !== undefined && position >= announced) more = false;
    else if (short) {
      // Without a total, a short page is the last one. With a total that says more, it
      // does not end the walk: the next page follows it, and the records it lacked
      // leave the walk short of the total (incomplete) unless they come after all.
      if (announced === undefined) more = false;
      else position = Math.max(position, start + meta.limit);
    }
    // No progress with the size the server itself applied (or twice in a row with
    // another): it is not paging; stop rather than ask for the same page forever. Each
    // other page moves `position` on, up to the total: the walk asks for no more pages
    // than the largest total needs, plus one to see the end.
    if (position !== before) idle = 0;
    else if (more && (meta.limit === limit || ++idle > 1)) more = false;
    return { records, more };
  }
  const request = (size: number, offset: number, bytes = true) => requestPage(client, { ...options, limit: size, offset }, bytes);

  walk: while (yielded < max) {
    const offset = Math.floor(position / limit);
    // The first page, when it holds all the walk may yield, is parsed the plain way.
    const page = pageOf<T>(await request(limit, offset, !(position === 0 && max <= limit)), { limit, offset });
    const first = take(page);
    if (first.records.length > 0) yield first.records;
    release(page);
    if (!first.more) break;
    const applied = page.meta.limit;
    const total = ledger.announced;
    limit = applied;
    if (concurrency === 1 || total === undefined || position % applied !== 0) continue;
    // The total is known and the walk sits on a page boundary: the pages up to the last
    // one needed are fetched `concurrency` at a time and yielded in order, so at most
    // that many pages are in memory. A page that does not fit the plan (another size,
    // another index) ends this phase; the walk above resumes from `position`.
    const needed = Math.min(total, position + (max - yielded));
    const last = Math.ceil(needed / applied) - 1;
    let next = position / applied;
    const inFlight: Array<Promise<BytesResponse>> = [];
    const launch = () => {
      const pending = request(applied, next++);
      pending.catch(() => undefined); // awaited in order below; an abandoned one must not go unhandled
      inFlight.push(pending);
    };
    let more = true;
    while (more && (next <= last || inFlight.length > 0)) {
      while (inFlight.length < concurrency && next <= last) launch();
      const expected = next - inFlight.length;
      const current = pageOf<T>(await inFlight.shift()!, { limit: applied, offset: expected });
      const fits = current.meta.limit === applied && current.meta.offset === expected;
      const taken = take(current);
      more = taken.more;
      if (taken.records.length > 0) yield taken.records;
      release(current);
      if (!fits) {
        if (more) limit = current.meta.limit;
        break;
      }
    }
    if (!more) break walk;
  }
  ledger.finish(max);
}

/** A page's bytes given back once its records were written (page-records.ts). */
function release(page: Page<unknown>): void {
  page.items.release();
}

/**
 * Every record of a list (--all, --paginate), marked as long work so that printList
 * shows its progress, with the total once a page has said it.
 */
export function walkAll<T>(client: HttpClient, options: PaginateOptions): RecordSource<T> {
  let total: number | undefined;
  const onPage = (meta: PageMeta) => {
    total = meta.total;
    options.onPage?.(meta);
  };
  return longWork(paginate<T>(client, { ...options, max: Infinity, onPage }), () => total);
}

/** What parseListOptions (input/list-options.ts) yields; structural, to keep the two apart. */
export interface ListSelection {
  query: ListQuery;
  max: number;
  pageSize: number;
  page?: number;
  /** Pages in flight for a walk of several pages (--concurrency). */
  concurrency?: number;
  /** Told of each page's metadata as well as the command's own onPage (`bo mcp`'s totals). */
  observePage?: (meta: PageMeta) => void;
}

/**
 * The records a list command prints: one raw page with --page, else a walk up to --limit
 * (or every page with --all). `query` holds the command's own filters; the list
 * options' query (fields, orderBy, --filter) is merged over it.
 */
export function listRecords<T>(
  client: HttpClient,
  request: { path: string; query?: ListQuery; signal?: AbortSignal },
  selection: ListSelection,
  onPage?: (meta: PageMeta) => void,
): RecordSource<T> {
  const query = { ...request.query, ...selection.query };
  const { observePage } = selection;
  if (observePage) {
    const own = onPage;
    onPage = (meta) => {
      observePage(meta);
      own?.(meta);
    };
  }
  if (selection.page === undefined) {
    const walk = {
      ...request,
      query,
      pageSize: selection.pageSize,
      max: selection.max,
      onPage,
      concurrency: selection.concurrency ?? DEFAULT_CONCURRENCY,
    };
    return Number.isFinite(selection.max) ? paginate<T>(client, walk) : walkAll<T>(client, walk);
  }
  const page = selection.page;
  const one = paged(async function* (wants) {
    const one = await fetchPage<T>(client, { ...request, query, limit: selection.pageSize, offset: page });
    onPage?.(one.meta);
    // The raw page as the server sent it, but a table still needs records (walk-ledger.ts).
    yield new WalkLedger({ dropRepeats: false, recordsOnly: wants?.recordsOnly === true }).admit(one.items, 0, page, Infinity);
  });
  // An empty page is explained by the command's note (list-options.ts emptyPageNote).
  return explainingEmpty(one);
}

/**
 * The stderr note when --limit cut a list short (COMMANDS.md "List options"); `short`:
 * a page of the walk came back with fewer records than the total said (PageMeta.short).
 */
export function moreRecordsNote(shown: number, total: number | undefined, short = false): string | undefined {
  if (total === undefined || shown >= total) return undefined;
  return `showing ${groupDigits(shown)} of ${groupDigits(total)}${short ? ' (a page came back short)' : ''}; pass --all for every record`;
}

