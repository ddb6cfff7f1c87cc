// Where a verb's output goes when its caller wants values, not text: `bo mcp`'s tool
// calls and plans. A verb prints as it always does (print.ts, the mutation runner); the
// printing functions hand a context's sink what --json would have printed, as values,
// so no caller parses printed text back. The command line has no sink: it prints.

import type { PageMeta } from '../api/paginate.js';

export interface ValueSink {
  /** A list begins (it may have no record). */
  list(): void;
  /** One record of the list, as --json prints it. */
  item(value: unknown): void;
  /** The one value a verb prints: a record, an answer, a dry run's request, an outcome. */
  value(value: unknown): void;
  /** Each page's metadata as a list is walked (its total, the size the server applied). */
  page?(meta: PageMeta): void;
  /** What a change of one target acts on, as a confirmation names it, and its kind. */
  target?(name: string | undefined, noun: string): void;
}

declare module '../context.js' {
  interface Context {
    /** Set by invoke() for a caller that collects values (invocation.ts); unset on the command line. */
    sink?: ValueSink;
  }
}

/** A sink that keeps what it is given: the items of a list, or the one value. */
export function collectingSink(hooks: Pick<ValueSink, 'page' | 'target'> = {}): ValueSink & { result(): unknown } {
  const items: unknown[] = [];
  let value: { v: unknown } | undefined;
  let listed = false;
  return {
    ...hooks,
    list() {
      listed = true;
    },
    item(v) {
      items.push(v);
    },
    value(v) {
      value = { v };
    },
    /** The list's items when the verb listed, else its value, else null (it printed nothing). */
    result: () => (listed ? items : value === undefined ? null : value.v),
  };
}
