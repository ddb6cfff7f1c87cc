// The records of a sandbox state, by kind. A state read from its file (state-file.ts)
// starts with each kind's JSON text, one line of the file a kind, and parses a kind
// on its first kind() call: `bo --sandbox accounts list` parsed 415 KB of records to
// use the 55 KB of accounts (measured on Node 20). A kind never read is written back
// as the very text it was read as.
//
// The layout is one private map, kind → its records, or the JSON text they were read
// as while never asked for. Nothing is an own property, so a spread or a
// structuredClone copies nothing and parses nothing, and the copy has no kind() to call.

import { parseJson } from '../api/json-parse.js';
import type { Kind, Rec } from './schema.js';

export type Table = Record<string, Rec>;

export class Records {
  readonly #kinds = new Map<Kind, Table | string>();

  /** Records built in memory (a seed). */
  static of(tables: Partial<Record<Kind, Table>>): Records {
    const records = new Records();
    for (const [kind, table] of Object.entries(tables) as Array<[Kind, Table]>) records.#kinds.set(kind, table);
    return records;
  }

  /** Records as JSON text by kind (a state file's lines), each parsed when first asked for. */
  static fromTexts(texts: Iterable<[Kind, string]>): Records {
    const records = new Records();
    for (const [kind, text] of texts) records.#kinds.set(kind, text);
    return records;
  }

  /** The records of `kind`, parsed on the first call; undefined when the state has none. */
  kind(kind: Kind): Table | undefined {
    const value = this.#kinds.get(kind);
    if (typeof value !== 'string') return value;
    const table = parseJson(value) as Table;
    this.#kinds.set(kind, table);
    return table;
  }

  /** The records of `kind` to change, an empty table when it has none yet. */
  table(kind: Kind): Table {
    let table = this.kind(kind);
    if (!table) this.#kinds.set(kind, (table = {}));
    return table;
  }

  /** The kinds present, in the order they were read or made. */
  kinds(): Kind[] {
    return [...this.#kinds.keys()];
  }

  /** The JSON text of `kind`: as it was read when never parsed, else of its current records. */
  text(kind: Kind): string {
    const value = this.#kinds.get(kind);
    return typeof value === 'string' ? value : JSON.stringify(value ?? {});
  }

  /** Every kind, parsed: what JSON.stringify writes for a whole state. */
  toJSON(): Partial<Record<Kind, Table>> {
    return Object.fromEntries(this.kinds().map((kind) => [kind, this.kind(kind)]));
  }
}
