// The record factory the seed builds with: Uids, base fields and dates relative to
// the moment of seeding (so trials end in the future whenever the world is made).

import type { Random } from './prng.js';
import type { Kind, Rec } from './schema.js';
import type { Table } from './records.js';

const DAY = 86_400_000;

export class World {
  readonly records: Partial<Record<Kind, Table>> = {};
  private seq = 0;

  constructor(
    readonly rnd: Random,
    readonly now: Date,
  ) {}

  /** Deterministic, unique, opaque: prefix, a counter and random letters. */
  uid(prefix: string): string {
    this.seq += 1;
    return `${prefix}_${this.seq.toString(36)}${this.rnd.id(8)}`;
  }

  add(kind: Kind, prefix: string, fields: Record<string, unknown>, createdDaysAgo = 30): Rec {
    const created = this.iso(-createdDaysAgo);
    const rec: Rec = {
      Uid: this.uid(prefix),
      _objectType: kind,
      Created: created,
      Updated: created,
      ActivityEventData: {},
      ...fields,
    };
    (this.records[kind] ??= {})[rec.Uid] = rec;
    return rec;
  }

  /** ISO time `days` from the seeding moment (negative: in the past). */
  iso(days: number): string {
    return new Date(this.now.getTime() + Math.round(days * DAY)).toISOString();
  }
}

export function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
}
