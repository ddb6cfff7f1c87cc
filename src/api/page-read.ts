// A page of a list as the API sends it (D13): the request of one page (kept as its
// bytes when a walk goes on, page-records.ts), and the envelope checked: its items and
// metadata (the size the server applied, the page index, the total). paginate.ts walks
// pages; fetchPage is --page's one raw page.

import { ApiError } from '../errors.js';
import type { BytesResponse, HttpClient, QueryValue, RequestOptions } from './http-types.js';
import { ArrayPage, type RecordPage } from './record-source.js';
import { PageRecords, scanPage } from './page-records.js';
import { MAX_JSON_DEPTH } from './response-errors.js';

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
export async function requestPage(
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
export function pageOf<T>(response: BytesResponse, asked: { limit: number; offset: number }): Page<T> {
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

/** A page's bytes given back once its records were written (page-records.ts). */
export function release(page: Page<unknown>): void {
  page.items.release();
}

