// A list that can also be read a page at a time, and whether it is long work (every
// record) whose progress is worth showing. The API walk (paginate.ts) makes them;
// printList writes each page in one synchronous loop. Read record by record, an
// export of 100,000 accounts went through several async generators, a promise and an
// abort listener for every record: measured on Node 20, that per-record machinery
// and the garbage it left were a third of the CPU time of `--all --jsonl`.

export const PAGES = Symbol('pages');

/** A page's records: an array, or records parsed as they are read (page-records.ts). */
export type Records<T> = Iterable<T> & { readonly length: number };

/** What the writer of a list needs of its pages. */
export interface PageWants {
  /** Every item a JSON object (a table, TSV and CSV read columns of it); else the server's items pass as they are. */
  recordsOnly?: boolean;
}

/** The stderr notes of a walk (walk-ledger.ts), once it is over: a changed total, repeats left out. */
export const NOTES = Symbol('notes');

/** The records of a list, one by one, or (PAGES) a page at a time. */
export interface Paged<T> extends AsyncIterable<T> {
  [PAGES](wants?: PageWants): AsyncIterable<Records<T>>;
  [NOTES]?: () => string[];
}

/** A list from its pages: read whole, or record by record as any async iterable. */
export function paged<T>(pages: (wants?: PageWants) => AsyncIterable<Records<T>>, notes?: () => string[]): Paged<T> {
  return {
    [PAGES]: pages,
    ...(notes ? { [NOTES]: notes } : {}),
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page;
    },
  };
}

/** The notes a list's walk left for stderr; none for any other list. */
export function walkNotes(records: unknown): string[] {
  const notes = typeof records === 'object' && records !== null ? (records as Partial<Paged<unknown>>)[NOTES] : undefined;
  return notes ? notes() : [];
}

/** Records in groups of this many when a plain iterable has no pages of its own. */
const GROUP = 100;

/**
 * `source` a page at a time: its own pages when it has them; a synchronous list in
 * groups of 100; any other async list one record at a time (each as a page of one).
 */
export function pagesOf<T>(source: AsyncIterable<T> | Iterable<T>, wants?: PageWants): AsyncIterable<Records<T>> | Iterable<Records<T>> {
  const own = (source as Partial<Paged<T>>)[PAGES];
  if (typeof own === 'function') return own.call(source, wants);
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
  return {
    [Symbol.asyncIterator]: () => records[Symbol.asyncIterator](),
    [PAGES]: (wants) => records[PAGES](wants),
    [NOTES]: () => walkNotes(records),
    [LONG_WORK]: total,
  };
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
