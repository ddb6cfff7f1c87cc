// The sandbox's state, its clock and its persistence. A memory store lives and dies
// with the process; a file store keeps the state file (state-file.ts) and re-reads it
// only when another process changed it, so a 100,000-account state is parsed once.
// Every change goes through `transact`: all of a request's writes or none.

import { Db } from './db.js';
import { appendActivity, readActivity, writeActivity } from './activity-file.js';
import { readState, readVersion, removeStaleTemps, withLock, writeStateAtomically } from './state-file.js';
import type { SeedParams, State } from './state.js';
import { Tx } from './tx.js';

export type Seeder = (params: SeedParams, now: Date) => State;

export interface StoreOptions {
  /** Absent: memory only. */
  file?: string;
  params: SeedParams;
  seeder: Seeder;
  /** When the file holds other seed params, start over (serve --seed/--accounts). */
  reseedOnMismatch?: boolean;
  /** Real time; the sandbox clock adds its offset. Tests may pin it. */
  realNow?: () => Date;
}

export class Store {
  private db?: Db;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly realNow: () => Date;

  private constructor(private readonly options: StoreOptions) {
    this.realNow = options.realNow ?? (() => new Date());
  }

  static memory(params: SeedParams, seeder: Seeder, realNow?: () => Date): Store {
    const store = new Store({ params, seeder, realNow });
    store.db = store.makeDb(seeder(params, store.realNow()));
    return store;
  }

  /** Opens (and seeds on first use) a state file. */
  static async file(options: StoreOptions & { file: string }): Promise<Store> {
    const store = new Store(options);
    removeStaleTemps(options.file);
    // A state on disk is read without the lock (every write is an atomic rename); only
    // a missing one, or one that may be reseeded, is made under it.
    if (options.reseedOnMismatch || readVersion(options.file) === undefined) await store.transact(() => undefined);
    else await store.read(() => undefined);
    return store;
  }

  get path(): string | undefined {
    return this.options.file;
  }

  /** The sandbox clock: real time plus the offset POST /__sandbox/clock added. */
  now(): Date {
    return new Date(this.realNow().getTime() + (this.db?.state.clockOffsetMs ?? 0));
  }

  /** A consistent read of the current state (file: re-read if another process wrote). */
  async read<T>(fn: (db: Db, now: Date) => T): Promise<T> {
    return this.serial(async () => {
      if (this.options.file) this.refresh();
      return fn(this.current(), this.now());
    });
  }

  /**
   * Runs `fn` against a transaction and commits it. `fn` is synchronous, so nothing
   * else runs in between; in file mode the whole read-modify-write holds the lock.
   * If `fn` throws, nothing is written.
   */
  async transact<T>(fn: (tx: Tx) => T): Promise<T> {
    return this.serial(async () => {
      const file = this.options.file;
      if (!file) return this.apply(fn);
      return withLock(file, () => {
        this.refresh();
        return this.apply(fn, file);
      });
    });
  }

  private apply<T>(fn: (tx: Tx) => T, file?: string): T {
    const db = this.current();
    const tx = new Tx(db, () => this.now());
    const result = fn(tx);
    if (!tx.dirty && !this.pendingWrite) return result;
    if (file && tx.onlyActivity && !this.pendingWrite) {
      appendActivity(file, tx.activityEntries);
      return result;
    }
    const next = tx.commit(!file);
    if (next !== db.state) this.db = this.makeDb(next);
    if (file) {
      try {
        writeStateAtomically(file, next);
        // A reset or a fresh seed starts the log over.
        if (tx.replaced || this.pendingWrite) writeActivity(file, []);
        appendActivity(file, tx.activityEntries);
        this.pendingWrite = false;
      } catch (err) {
        // Memory now differs from the file: forget it, re-read next time.
        this.db = undefined;
        throw err;
      }
    }
    return result;
  }

  /** Set when the file was missing or reseeded: the next commit must write it. */
  private pendingWrite = false;

  private refresh(): void {
    const file = this.options.file!;
    const onDisk = readVersion(file);
    if (this.db && !this.pendingWrite && onDisk === this.db.state.version) return;
    let state = onDisk === undefined ? undefined : readState(file);
    const p = this.options.params;
    if (state && this.options.reseedOnMismatch && (state.params.seed !== p.seed || state.params.accounts !== p.accounts)) {
      state = undefined;
      this.options.reseedOnMismatch = false;
    }
    if (!state) {
      state = this.options.seeder(p, this.realNow());
      this.pendingWrite = true;
    }
    this.db = this.makeDb(state);
  }

  /** A file store's activity log is its own file (state-file.ts), read when asked for. */
  private makeDb(state: State): Db {
    const file = this.options.file;
    return new Db(state, file ? () => readActivity(file) : undefined);
  }

  private current(): Db {
    if (!this.db) throw new Error('sandbox store is not loaded');
    return this.db;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A fresh seeded state with this store's seed params (POST /__sandbox/reset). */
  seeded(): State {
    const params = this.current().state.params;
    return this.options.seeder(params, this.realNow());
  }
}
