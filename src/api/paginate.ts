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

import { ApiError } from '../errors.js';
import type { ApiResponse, HttpClient, QueryValue } from './http-types.js';
import { EXPLAINS_EMPTY, longWork, paged, type Paged, type Records } from './pages.js';
import { PageRecords, scanPage } from './page-records.js';
import { MAX_JSON_DEPTH } from './response-errors.js';

export interface PageMeta {
  /** The page size the server applied. */
  limit: number;
  /** The zero-based page index. */
  offset: number;
  /** The number of records in the whole list, when the server said. */
  total: number | undefined;
}

export interface Page<T> {
  items: readonly T[] | PageRecords<T>;
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
 * The request of a page; with `lazy` (every page of a walk), its answer keeps its bytes
 * (ApiResponse.read, .bytes) and pageOf() reads them a record at a time
 * (page-records.ts): a page fetched ahead of its turn holds a buffer outside V8's heap,
 * and one being written holds the record at hand, not a hundred parsed records that
 * young-generation collections copy.
 */
function requestPage(
  client: HttpClient,
  options: { path: string; query?: ListQuery; limit: number; offset: number; signal?: AbortSignal; headers?: Record<string, string> },
  lazy = false,
): Promise<ApiResponse<unknown>> {
  const { limit: _l, offset: _o, ...rest } = options.query ?? {};
  return client.request<unknown>({
    method: 'GET',
    path: options.path,
    query: { ...rest, limit: options.limit, offset: options.offset },
    headers: options.headers,
    signal: options.signal,
    lazy,
  });
}

/**
 * The page an answer holds: the D13 envelope, checked. `asked`: the size and index
 * requested. A lazy answer's records are parsed as they are read; one that does not
 * parse fails the walk there with what parsing the whole answer says of it.
 */
function pageOf<T>(response: ApiResponse<unknown>, asked: { limit: number; offset: number }): Page<T> {
  const { read, bytes } = response;
  const scanned = read && bytes ? scanPage(bytes, MAX_JSON_DEPTH) : undefined;
  if (scanned) {
    // A record that does not parse: what the whole answer's parse throws for it.
    const failed = (): never => {
      read!();
      throw new ApiError(`unexpected answer from the server (${response.status}): malformed JSON`, { status: response.status, code: 'unexpected' });
    };
    return { items: new PageRecords<T>(bytes!, scanned.spans, failed), meta: metaOf(scanned.rest.metadata, asked) };
  }
  const body = (read ? read() : response.body) as { items?: unknown; metadata?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.items)) {
    throw new ApiError(`unexpected answer from the server (${response.status}): not a list (no "items" array)`, {
      status: response.status,
      code: 'unexpected',
      body,
      headers: response.headers,
    });
  }
  return { items: body.items as T[], meta: metaOf(body.metadata, asked) };
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
 * The records of a walk, one by one or (PAGES, pages.ts) a page at a time: each page
 * read is handed on whole, less any record before `position` or past `max`.
 */
export function paginate<T>(client: HttpClient, options: PaginateOptions): Paged<T> {
  return paged(() => walkPages<T>(client, options));
}

async function* walkPages<T>(client: HttpClient, options: PaginateOptions): AsyncGenerator<Records<T>, void, undefined> {
  const max = options.max ?? Infinity;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let limit = options.pageSize ?? DEFAULT_PAGE_SIZE;
  let position = 0;
  let yielded = 0;
  // The records of `page` from `position` on, and whether the walk goes on after it.
  function take(page: Page<T>): { records: Records<T>; more: boolean } {
    options.onPage?.(page.meta);
    const start = page.meta.offset * page.meta.limit;
    const before = position;
    const from = Math.max(0, position - start);
    const count = Math.min(page.items.length - from, max - yielded);
    const records = from === 0 && count === page.items.length ? page.items : page.items.slice(from, from + Math.max(0, count));
    yielded += records.length;
    if (records.length > 0) position = start + from + records.length;
    const { total } = page.meta;
    let more = true;
    if (yielded >= max) more = false;
    else if (page.items.length === 0 || (total !== undefined && position >= total)) more = false;
    // A short page is the last one, whether or not the server sent a total.
    else if (page.items.length < page.meta.limit) more = false;
    // No progress with the size the server itself applied: it is not paging; stop
    // rather than ask for the same page forever.
    else if (position === before && page.meta.limit === limit) more = false;
    return { records, more };
  }

  while (yielded < max) {
    const offset = Math.floor(position / limit);
    const page = pageOf<T>(await requestPage(client, { ...options, limit, offset }, true), { limit, offset });
    const first = take(page);
    if (first.records.length > 0) yield first.records;
    release(page);
    if (!first.more) return;
    const applied = page.meta.limit;
    const { total } = page.meta;
    limit = applied;
    if (concurrency === 1 || total === undefined || position % applied !== 0) continue;
    // The total is known and the walk sits on a page boundary: the pages up to the last
    // one needed are fetched `concurrency` at a time and yielded in order, so at most
    // that many pages are in memory. A page that does not fit the plan (another size,
    // another index) ends this phase; the walk above resumes from `position`.
    const needed = Math.min(total, position + (max - yielded));
    const last = Math.ceil(needed / applied) - 1;
    let next = position / applied;
    const inFlight: Array<Promise<ApiResponse<unknown>>> = [];
    const launch = () => {
      const request = requestPage(client, { ...options, limit: applied, offset: next++ }, true);
      request.catch(() => undefined); // awaited in order below; an abandoned one must not go unhandled
      inFlight.push(request);
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
    if (!more) return;
  }
}

/** A page's bytes given back once its records were written (page-records.ts). */
function release(page: Page<unknown>): void {
  if (page.items instanceof PageRecords) page.items.release();
}

/**
 * Every record of a list (--all, --paginate), marked as long work so that printList
 * shows its progress, with the total once a page has said it.
 */
export function walkAll<T>(client: HttpClient, options: PaginateOptions): AsyncIterable<T> {
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
): AsyncIterable<T> {
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
  const one = paged(async function* () {
    const one = await fetchPage<T>(client, { ...request, query, limit: selection.pageSize, offset: page });
    onPage?.(one.meta);
    yield one.items;
  });
  // An empty page is explained by the command's note (list-options.ts emptyPageNote).
  return Object.assign(one, { [EXPLAINS_EMPTY]: true });
}

/** The stderr note when --limit cut a list short (COMMANDS.md "List options"). */
export function moreRecordsNote(shown: number, total: number | undefined): string | undefined {
  if (total === undefined || shown >= total) return undefined;
  return `showing ${groupDigits(shown)} of ${groupDigits(total)}; pass --all for every record`;
}

/**
 * A count with comma thousands separators, as toLocaleString('en-US') writes it, but
 * without it: its first call loads the ICU locale data, ~10 ms of every list command's
 * start-up (measured on Node 20, test/bench/run.mjs).
 */
export function groupDigits(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
