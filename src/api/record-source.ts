// The one seam between the API and the output: a list is a RecordSource, read a page
// at a time, and a page a RecordPage, read a record at a time. The walk (paginate.ts)
// makes sources whose pages are read from their bytes (page-records.ts) and whose
// honesty it keeps (walk-ledger.ts: every announced total, the distinct records handed
// on, items that are not records refused); a plain list of values is a source too
// (listOf). The output (output/print.ts) knows only these two interfaces. Read record by
// record, an export of 100,000 accounts went through several async generators, a
// promise and an abort listener for every record: a third of the CPU time of `--all
// --jsonl` on Node 20. So a page is written in one synchronous loop.

/** One page of a list's records. */
export interface RecordPage<T> extends Iterable<T> {
  readonly length: number;
  /** The `i`th record as a value. */
  at(i: number): T;
  /** Whether the `i`th item is a JSON object. */
  isObject(i: number): boolean;
  /** The `i`th record's top-level Uid when it is a string. */
  uid(i: number): string | undefined;
  /** The `i`th item as the server sent it (or as JSON once parsed): what a digest reads. */
  text(i: number): string | Uint8Array;
  /** The records at these indices (ascending), as a page of their own. */
  pick(indices: readonly number[]): RecordPage<T>;
  /**
   * Writes the `i`th record, with no parse when it can: to `asText` as its bytes when they
   * are exactly what JSON.stringify writes for its value and `asText` is given, else to
   * `asValue`. Returns what the writer returns (true: its buffer is full).
   */
  writeJson(i: number, asValue: (value: T) => boolean, asText?: (bytes: Buffer, start: number, end: number) => boolean): boolean;
  /** Lets the page's own memory go: it is not read after this. */
  release(): void;
}

/** What the writer of a list needs of its pages. */
export interface PageWants {
  /** Every item a JSON object (a table, TSV and CSV read columns of it); else the server's items pass as they are. */
  recordsOnly?: boolean;
}

/** A list: its pages, and what its writer says around them. */
export interface RecordSource<T> extends AsyncIterable<T> {
  pages(wants?: PageWants): AsyncIterable<RecordPage<T>> | Iterable<RecordPage<T>>;
  /** The stderr notes of a walk, once it is over: a changed total, repeats left out. */
  notes(): string[];
  /** Long work (every record: --all, --paginate), whose progress is shown: the total once a page has said it. */
  readonly longWork?: () => number | undefined;
  /** The command explains an empty list itself (an empty --page), so "No records." is not said. */
  readonly explainsEmpty?: boolean;
}

/** A page of values already parsed. */
export class ArrayPage<T> implements RecordPage<T> {
  constructor(private readonly items: readonly T[]) {}

  get length(): number {
    return this.items.length;
  }

  [Symbol.iterator](): Iterator<T> {
    return this.items[Symbol.iterator]();
  }

  at(i: number): T {
    return this.items[i]!;
  }

  isObject(i: number): boolean {
    const item = this.items[i];
    return typeof item === 'object' && item !== null && !Array.isArray(item);
  }

  uid(i: number): string | undefined {
    const uid = this.isObject(i) ? (this.items[i] as { Uid?: unknown }).Uid : undefined;
    return typeof uid === 'string' ? uid : undefined;
  }

  text(i: number): string {
    return JSON.stringify(this.items[i]) ?? 'undefined';
  }

  pick(indices: readonly number[]): ArrayPage<T> {
    return new ArrayPage(indices.map((i) => this.items[i]!));
  }

  writeJson(i: number, asValue: (value: T) => boolean): boolean {
    return asValue(this.items[i]!);
  }

  release(): void {}
}

/** A source from its pages, read whole or record by record as any async iterable. */
export function paged<T>(pages: (wants?: PageWants) => AsyncIterable<RecordPage<T>>, notes: () => string[] = () => []): RecordSource<T> {
  return {
    pages,
    notes,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page;
    },
  };
}

/** The same source, marked as long work whose progress is shown, with its total. */
export function longWork<T>(source: RecordSource<T>, total: () => number | undefined): RecordSource<T> {
  return { pages: (wants) => source.pages(wants), notes: () => source.notes(), longWork: total, [Symbol.asyncIterator]: () => source[Symbol.asyncIterator]() };
}

/** The same source, whose command explains an empty list itself. */
export function explainingEmpty<T>(source: RecordSource<T>): RecordSource<T> {
  return { pages: (wants) => source.pages(wants), notes: () => source.notes(), explainsEmpty: true, [Symbol.asyncIterator]: () => source[Symbol.asyncIterator]() };
}

/** Records in groups of this many when a plain list has no pages of its own. */
const GROUP = 100;

/** A list of values as a source: a synchronous list in pages of 100; an async one a record a page. */
export function listOf<T>(items: Iterable<T> | AsyncIterable<T>): RecordSource<T> {
  if (Symbol.iterator in items) {
    const list = [...(items as Iterable<T>)];
    return paged(async function* () {
      for (let i = 0; i < list.length; i += GROUP) yield new ArrayPage(list.slice(i, i + GROUP));
    });
  }
  return paged(async function* () {
    for await (const record of items as AsyncIterable<T>) yield new ArrayPage([record]);
  });
}
