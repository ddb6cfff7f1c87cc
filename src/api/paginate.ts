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

import type { BytesResponse, HttpClient } from './http-types.js';
import { explainingEmpty, longWork, paged, type RecordPage, type RecordSource } from './record-source.js';
import { fetchPage, pageOf, release, requestPage, type ListQuery, type Page, type PageMeta } from './page-read.js';
import { WalkLedger } from './walk-ledger.js';
import { groupDigits } from './digits.js';
import { DEFAULT_CONCURRENCY } from './concurrency.js';

export { groupDigits, fetchPage, type ListQuery, type Page, type PageMeta };

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

/** Where a walk stands, and what a page read moves on (WalkCursor.take). */
class WalkCursor<T> {
  /** The index of the next record the walk has not handed on. */
  position = 0;
  yielded = 0;
  /** Pages in a row that moved the walk on by nothing. */
  private idle = 0;

  constructor(
    /** The page size asked for next: the last one the server applied. */
    public limit: number,
    readonly max: number,
    private readonly ledger: WalkLedger,
    private readonly onPage: PaginateOptions['onPage'],
  ) {}

  /** The records of `page` from `position` on, and whether the walk goes on after it. */
  take(page: Page<T>): { records: RecordPage<T>; more: boolean } {
    const { ledger, max } = this;
    ledger.total(page.meta.total);
    const { announced } = ledger;
    const { items, meta } = page;
    const start = meta.offset * meta.limit;
    const before = this.position;
    const from = Math.max(0, this.position - start);
    const records = ledger.admit(items, from, meta.offset, max - this.yielded);
    this.yielded += records.length;
    if (items.length > from) this.position = start + items.length;
    const short = items.length < meta.limit;
    if (short && announced !== undefined && start + items.length < announced) ledger.short = true;
    this.onPage?.({ ...meta, total: announced, ...(ledger.short ? { short: true } : {}) });
    let more = true;
    if (this.yielded >= max || items.length === 0) more = false;
    else if (announced !== undefined && this.position >= announced) more = false;
    else if (short) {
      // Without a total, a short page is the last one. With a total that says more, it
      // does not end the walk: the next page follows it, and the records it lacked
      // leave the walk short of the total (incomplete) unless they come after all.
      if (announced === undefined) more = false;
      else this.position = Math.max(this.position, start + meta.limit);
    }
    // No progress with the size the server itself applied (or twice in a row with
    // another): it is not paging; stop rather than ask for the same page forever. Each
    // other page moves `position` on, up to the total: the walk asks for no more pages
    // than the largest total needs, plus one to see the end.
    if (this.position !== before) this.idle = 0;
    else if (more && (meta.limit === this.limit || ++this.idle > 1)) more = false;
    return { records, more };
  }
}

/** A page's request: its size and index; `bytes`, kept as bytes (requestPage). */
type PageRequest = (size: number, offset: number, bytes?: boolean) => Promise<BytesResponse>;

async function* walkPages<T>(client: HttpClient, options: PaginateOptions, ledger: WalkLedger): AsyncGenerator<RecordPage<T>, void, undefined> {
  const max = options.max ?? Infinity;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const cursor = new WalkCursor<T>(options.pageSize ?? DEFAULT_PAGE_SIZE, max, ledger, options.onPage);
  const request: PageRequest = (size, offset, bytes = true) => requestPage(client, { ...options, limit: size, offset }, bytes);

  while (cursor.yielded < max) {
    const { limit, position } = cursor;
    const offset = Math.floor(position / limit);
    // The first page, when it holds all the walk may yield, is parsed the plain way.
    const page = pageOf<T>(await request(limit, offset, !(position === 0 && max <= limit)), { limit, offset });
    const first = cursor.take(page);
    if (first.records.length > 0) yield first.records;
    release(page);
    if (!first.more) break;
    const applied = page.meta.limit;
    const total = ledger.announced;
    cursor.limit = applied;
    if (concurrency === 1 || total === undefined || cursor.position % applied !== 0) continue;
    if (!(yield* walkAhead(cursor, request, total, concurrency))) break;
  }
  ledger.finish(max);
}

/**
 * The total is known and the walk sits on a page boundary: the pages up to the last
 * one needed are fetched `concurrency` at a time and yielded in order, so at most that
 * many pages are in memory. A page that does not fit the plan (another size, another
 * index) ends this phase; the walk resumes from `position`. Returns whether it goes on.
 */
async function* walkAhead<T>(cursor: WalkCursor<T>, request: PageRequest, total: number, concurrency: number): AsyncGenerator<RecordPage<T>, boolean, undefined> {
  const applied = cursor.limit;
  const needed = Math.min(total, cursor.position + (cursor.max - cursor.yielded));
  const last = Math.ceil(needed / applied) - 1;
  let next = cursor.position / applied;
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
    const taken = cursor.take(current);
    more = taken.more;
    if (taken.records.length > 0) yield taken.records;
    release(current);
    if (!fits) {
      if (more) cursor.limit = current.meta.limit;
      break;
    }
  }
  return more;
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

/**
 * The list options checked (input/list-options.ts parseListOptions, whose ListOptions
 * this is): what listRecords reads and how.
 */
export interface ListSelection {
  /** fields, orderBy and the --filter properties, ready for the request. */
  query: ListQuery;
  /** Most records to print: --limit (default 100), Infinity with --all. */
  max: number;
  /** Records asked per request. */
  pageSize: number;
  /** With --page: fetch only this raw page (zero-based, the API's `offset`). */
  page?: number;
  /** Pages in flight once the total is known (--concurrency); listRecords defaults it. */
  concurrency?: number;
  /**
   * Told of each page's metadata as well as the command's own onPage: `bo mcp` answers
   * a list call with its total and next cursor (its value sink's `page`, output/value-sink.ts).
   */
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

