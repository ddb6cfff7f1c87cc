// A list that can also be read a page at a time, and whether it is long work (every
// record) whose progress is worth showing. The API walk (paginate.ts) makes them;
// printList writes each page in one synchronous loop. Read record by record, an
// export of 100,000 accounts went through several async generators, a promise and an
// abort listener for every record: measured on Node 20, that per-record machinery
// and the garbage it left were a third of the CPU time of `--all --jsonl`.

export const PAGES = Symbol('pages');

/** A page's records: an array, or records parsed as they are read (page-records.ts). */
export type Records<T> = Iterable<T> & { readonly length: number };

/** The records of a list, one by one, or (PAGES) a page at a time. */
export interface Paged<T> extends AsyncIterable<T> {
  [PAGES](): AsyncIterable<Records<T>>;
}

/** A list from its pages: read whole, or record by record as any async iterable. */
export function paged<T>(pages: () => AsyncIterable<Records<T>>): Paged<T> {
  return {
    [PAGES]: pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page;
    },
  };
}

/** Records in groups of this many when a plain iterable has no pages of its own. */
const GROUP = 100;

/**
 * `source` a page at a time: its own pages when it has them; a synchronous list in
 * groups of 100; any other async list one record at a time (each as a page of one).
 */
export function pagesOf<T>(source: AsyncIterable<T> | Iterable<T>): AsyncIterable<Records<T>> | Iterable<Records<T>> {
  const own = (source as Partial<Paged<T>>)[PAGES];
  if (typeof own === 'function') return own.call(source);
  if (Symbol.iterator in source) return groups(source as Iterable<T>);
  return (async function* () {
    for await (const record of source as AsyncIterable<T>) yield [record];
  })();
}

function* groups<T>(source: Iterable<T>): Generator<T[]> {
  let group: T[] = [];
  for (const record of source) {
    group.push(record);
    if (group.length === GROUP) {
      yield group;
      group = [];
    }
  }
  if (group.length > 0) yield group;
}

/**
 * Marks a list as long work (every record: --all, --paginate), so printList shows its
 * progress. `total` reads the count once a page has said it.
 */
export const LONG_WORK = Symbol('long work');

export interface LongWork<T> extends AsyncIterable<T> {
  [LONG_WORK]: () => number | undefined;
}

export function longWork<T>(records: Paged<T>, total: () => number | undefined): LongWork<T> & Paged<T> {
  return { [Symbol.asyncIterator]: () => records[Symbol.asyncIterator](), [PAGES]: () => records[PAGES](), [LONG_WORK]: total };
}

/** The total reader of a list marked as long work; undefined for any other list. */
export function longWorkTotal(records: unknown): (() => number | undefined) | undefined {
  return typeof records === 'object' && records !== null && LONG_WORK in records ? (records as LongWork<unknown>)[LONG_WORK] : undefined;
}

/**
 * Marks a list whose command explains an empty answer itself (an empty --page: "page 9
 * is empty: there are 60 records…"), so printList does not say "No records." too.
 */
export const EXPLAINS_EMPTY = Symbol('explains empty');

export function explainsEmpty(records: unknown): boolean {
  return typeof records === 'object' && records !== null && EXPLAINS_EMPTY in records;
}
