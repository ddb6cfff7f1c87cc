// Read access to committed state, with the indexes that keep a request cheap on a
// 100,000-account world: per-kind arrays, back-reference maps and an email index are
// built on first use and dropped only when their kind is written.

import { relationsOf, type Kind, type Rec } from './schema.js';
import type { ActivityEntry, State } from './state.js';

export class Db {
  private lists = new Map<Kind, Rec[]>();
  private backRefs = new Map<string, Map<string, Rec[]>>();
  private emails?: Map<string, Rec>;
  private memos = new Map<string, unknown>();

  /** `activitySource`: where the log lives when not in the state (a file store's own file). */
  constructor(
    readonly state: State,
    private readonly activitySource?: () => ActivityEntry[],
  ) {}

  /** The activity log, oldest first. */
  activity(): ActivityEntry[] {
    return this.activitySource ? this.activitySource() : this.state.activity;
  }

  get(kind: Kind, uid: string): Rec | undefined {
    return this.state.records.kind(kind)?.[uid];
  }

  /** Every record of a kind, in insertion order. Do not mutate. */
  all(kind: Kind): Rec[] {
    let list = this.lists.get(kind);
    if (!list) {
      list = Object.values(this.state.records.kind(kind) ?? {});
      this.lists.set(kind, list);
    }
    return list;
  }

  /** Records of `kind` whose `via` reference points at `parentUid`. */
  children(kind: Kind, via: string, parentUid: string): Rec[] {
    const key = `${kind}.${via}`;
    let index = this.backRefs.get(key);
    if (!index) {
      index = new Map();
      for (const rec of this.all(kind)) {
        const uid = refUid(rec[via]);
        if (uid === undefined) continue;
        const bucket = index.get(uid);
        if (bucket) bucket.push(rec);
        else index.set(uid, [rec]);
      }
      this.backRefs.set(key, index);
    }
    return index.get(parentUid) ?? [];
  }

  /** People by email, case-insensitive (D19, D20). */
  personByEmail(email: string): Rec | undefined {
    if (!this.emails) {
      this.emails = new Map();
      for (const p of this.all('Person')) {
        if (typeof p.Email === 'string') this.emails.set(p.Email.toLowerCase(), p);
      }
    }
    return this.emails.get(email.toLowerCase());
  }

  /** A value derived from one kind's records (e.g. lower-cased names), kept until it is written. */
  memo<T>(kind: Kind, name: string, build: () => T): T {
    const key = `${kind}.${name}`;
    if (!this.memos.has(key)) this.memos.set(key, build());
    return this.memos.get(key) as T;
  }

  /** Drops the caches that depend on a kind after a write to it. */
  touch(kind: Kind): void {
    for (const key of [...this.memos.keys()]) if (key.startsWith(`${kind}.`)) this.memos.delete(key);
    this.lists.delete(kind);
    for (const key of [...this.backRefs.keys()]) if (key.startsWith(`${kind}.`)) this.backRefs.delete(key);
    if (kind === 'Person') this.emails = undefined;
  }

  /** Builds a kind's list and back-reference indexes now, so the first request is not the slow one. */
  warm(kind: Kind): void {
    this.all(kind);
    for (const rel of Object.values(relationsOf(kind))) if (rel.type === 'many') this.children(rel.kind, rel.via, '');
  }

  /** Follows a relation declared in the schema (used by rendering). */
  related(kind: Kind, rec: Rec, field: string): Rec | Rec[] | null | undefined {
    const rel = relationsOf(kind)[field];
    if (!rel) return undefined;
    if (rel.type === 'many') return this.children(rel.kind, rel.via, rec.Uid);
    if (rel.type === 'refs') {
      const list = Array.isArray(rec[field]) ? (rec[field] as unknown[]) : [];
      return list.map((r) => this.get(rel.kind, refUid(r) ?? '')).filter((r): r is Rec => r !== undefined);
    }
    const uid = refUid(rec[field]);
    return uid === undefined ? null : (this.get(rel.kind, uid) ?? null);
  }
}

/** The Uid of a stored or posted reference: `{Uid}` or a bare string (D29). */
export function refUid(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (value && typeof value === 'object' && typeof (value as { Uid?: unknown }).Uid === 'string') {
    const uid = (value as { Uid: string }).Uid;
    return uid === '' ? undefined : uid;
  }
  return undefined;
}

export function ref(uid: string): { Uid: string } {
  return { Uid: uid };
}
