// One request's writes, applied all at once or not at all. Handlers read through the
// transaction (so they see their own writes) and never mutate a stored record in
// place: `put` takes a new object. A handler that throws leaves the state untouched.

import type { Db } from './db.js';
import { notFound } from './http-error.js';
import type { Kind, Rec } from './schema.js';
import { MAX_ACTIVITY, MAX_OUTBOX, type ActivityEntry, type Mail, type State } from './state.js';

export class Tx {
  private writes = new Map<Kind, Map<string, Rec | null>>();
  private mails: Mail[] = [];
  private activity: ActivityEntry[] = [];
  private authCopy: unknown;
  private authTouched = false;
  private clockDeltaMs = 0;
  private replacement?: State;

  constructor(
    readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  now(): Date {
    return new Date(this.clock().getTime() + this.clockDeltaMs);
  }

  get(kind: Kind, uid: string): Rec | undefined {
    const pending = this.writes.get(kind)?.get(uid);
    if (pending !== undefined) return pending ?? undefined;
    return this.db.get(kind, uid);
  }

  /** The record, or 404 naming what was looked for. */
  need(kind: Kind, uid: string, what: string = kind): Rec {
    const rec = this.get(kind, uid);
    if (!rec) throw notFound(what, uid);
    return rec;
  }

  /** Records of a kind, pending writes included (for small kinds: uniqueness checks). */
  all(kind: Kind): Rec[] {
    const pending = this.writes.get(kind);
    if (!pending) return this.db.all(kind);
    const out = this.db.all(kind).filter((r) => !pending.has(r.Uid));
    for (const r of pending.values()) if (r) out.push(r);
    return out;
  }

  put(kind: Kind, rec: Rec): Rec {
    this.bucket(kind).set(rec.Uid, rec);
    return rec;
  }

  remove(kind: Kind, uid: string): void {
    this.bucket(kind).set(uid, null);
  }

  sendEmail(mail: Omit<Mail, 'sentAt'>): void {
    this.mails.push({ ...mail, sentAt: this.now().toISOString() });
  }

  logActivity(entry: ActivityEntry): void {
    this.activity.push(entry);
  }

  /** The two-factor engine's state, copied on first use so a failed request changes nothing. */
  auth<T>(): T {
    if (!this.authTouched) {
      this.authCopy = structuredClone(this.db.state.auth);
      this.authTouched = true;
    }
    return this.authCopy as T;
  }

  advanceClock(ms: number): void {
    this.clockDeltaMs += ms;
  }

  /** Replaces the whole state (reset); later writes in this transaction are dropped. */
  replaceState(state: State): void {
    this.replacement = state;
  }

  /** Forgets the data writes and emails (a refused request), keeping the activity entry. */
  discard(): void {
    this.writes.clear();
    this.mails = [];
    this.authTouched = false;
    this.authCopy = undefined;
    this.clockDeltaMs = 0;
    this.replacement = undefined;
  }

  get mailsSent(): readonly Mail[] {
    return this.mails;
  }

  get activityEntries(): readonly ActivityEntry[] {
    return this.activity;
  }

  /** Nothing but activity entries: a file store appends them without rewriting the state. */
  get onlyActivity(): boolean {
    return this.writes.size === 0 && this.mails.length === 0 && !this.authTouched && this.clockDeltaMs === 0 && !this.replacement;
  }

  get replaced(): boolean {
    return this.replacement !== undefined;
  }

  get dirty(): boolean {
    return (
      this.writes.size > 0 || this.mails.length > 0 || this.activity.length > 0 ||
      this.authTouched || this.clockDeltaMs !== 0 || this.replacement !== undefined
    );
  }

  /**
   * Applies everything to `db.state` (or returns the replacement state). A file store
   * keeps the activity log in its own append-only file, so it passes `activityInState: false`.
   */
  commit(activityInState = true): State {
    const db = this.db;
    const state = this.replacement ?? db.state;
    if (!this.replacement) {
      for (const [kind, bucket] of this.writes) {
        const table = state.records.table(kind);
        for (const [uid, rec] of bucket) {
          if (rec) table[uid] = rec;
          else delete table[uid];
        }
        db.touch(kind);
      }
      if (this.authTouched) state.auth = this.authCopy;
      state.clockOffsetMs += this.clockDeltaMs;
      state.outbox.push(...this.mails);
      if (state.outbox.length > MAX_OUTBOX) state.outbox.splice(0, state.outbox.length - MAX_OUTBOX);
    }
    if (activityInState) {
      state.activity.push(...this.activity);
      if (state.activity.length > MAX_ACTIVITY) state.activity.splice(0, state.activity.length - MAX_ACTIVITY);
    }
    // Monotonic across a reset too: other processes compare it to notice a change.
    state.version = db.state.version + 1;
    return state;
  }

  private bucket(kind: Kind): Map<string, Rec | null> {
    let b = this.writes.get(kind);
    if (!b) this.writes.set(kind, (b = new Map()));
    return b;
  }
}
