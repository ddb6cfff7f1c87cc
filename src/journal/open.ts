// Whether and where a run journals its changes, and what happens when it cannot: a batch
// refuses before sending anything (exit 1 naming the folder); a single change warns once
// and goes on unjournaled. BO_JOURNAL=off or the profile's `journal off`
// setting turns it off; login, two-factor, `addons preview` and dry runs never open one.

import { join } from 'node:path';
import { BoError } from '../errors.js';
import type { Env } from '../env.js';
import { Journal, JOURNAL_FOLDER, type Change, type ChangeOutcome, type RunHeader } from './journal.js';
import { retainJournal } from './retention.js';
import { stateFolder } from '../files/state.js';
import type { RunLock } from './run-lock.js';

/** BO_JOURNAL=off (or 0, false) or the profile's setting `journal off`. */
export function journalOff(env: Env, setting: unknown): boolean {
  const v = env.BO_JOURNAL?.trim().toLowerCase();
  if (v === 'off' || v === '0' || v === 'false') return true;
  return v !== 'on' && setting === 'off';
}

export interface JournalRun {
  env: Env;
  /** The profile's `journal` setting. */
  setting: unknown;
  header: RunHeader;
  now: () => Date;
  /** Where warnings go (a single change that cannot be journaled). */
  warn: (line: string) => void;
  /** Aborted on Ctrl-C and the other signals: written entries are fsynced at once. */
  signal: AbortSignal;
  /** `bo batch resume`: the run whose file this run goes on with (its header stays), and its lock, already held. */
  resume?: { run: string; lock: RunLock };
}

/**
 * The run's journal, already holding its header; undefined when off, or (a single
 * change) when it cannot be written. A batch that cannot journal throws before sending.
 */
export function openJournal(run: JournalRun): RunJournal | undefined {
  if (journalOff(run.env, run.setting)) return undefined;
  const state = stateFolder(run.env);
  const turnOff = 'set BO_STATE_DIR to a writable folder, or BO_JOURNAL=off to run without a journal';
  if (state === undefined) {
    const why = 'no state folder for the journal (HOME is not set or does not exist)';
    if (run.header.batch) throw new BoError(`${why}: ${turnOff}; nothing was sent`, { code: 'journal' });
    run.warn(`warning: ${why}; this change is not journaled (${turnOff})`);
    return undefined;
  }
  const folder = join(state, JOURNAL_FOLDER);
  try {
    const journal = new Journal(folder, run.resume === undefined ? run.header : { resume: run.resume.run, lock: run.resume.lock }, run.now());
    // Retention as each run starts: cheap (the listing and stats), never stopping the run.
    retainJournal(folder, run.now(), journal.id, run.warn);
    return new RunJournal(journal, run);
  } catch (err) {
    const why = `cannot write the journal in ${folder}: ${reasonOf(err)}`;
    if (run.header.batch) throw new BoError(`${why}; nothing was sent (${turnOff})`, { code: 'journal' });
    run.warn(`warning: ${why}; this change is not journaled`);
    return undefined;
  }
}

/** Whether a change changed anything (D32), from its answer (`res`) or, when it failed, its status alone. */
export type ChangeJudge<R> = (res: R | undefined, status: number) => Pick<ChangeOutcome, 'changed' | 'reason'>;

/** `send` through the journal when there is one; `judge` tells the outcome entry whether it changed anything. */
export function journaled<R extends { status: number }>(journal: RunJournal | undefined, change: Change, send: () => Promise<R>, judge?: ChangeJudge<R>): Promise<R> {
  return journal ? journal.change(change, send, judge) : send();
}

/** A journal write that failed in the middle of a batch: sending stops. */
export class JournalWriteError extends BoError {
  constructor(folder: string, err: unknown) {
    super(`cannot write the journal in ${folder}: ${reasonOf(err)}`, { code: 'journal' });
  }
}

/** A run's journal with the run's policy: fsync on a signal; a failed write stops a batch, warns once otherwise. */
export class RunJournal {
  private failure: unknown;
  private notSent: { notAttempted: number; unread?: true; skipped?: number } | undefined;
  private readonly onSignal = () => this.journal.sync();

  constructor(readonly journal: Journal, private readonly run: JournalRun) {
    run.signal.addEventListener('abort', this.onSignal, { once: true });
  }

  get id(): string {
    return this.journal.id;
  }

  /**
   * Sends one change with its entries around it: `send` before (throws
   * JournalWriteError in a batch when it cannot be written; nothing is sent then), its
   * outcome after an answer. A request with no answer (no status) stays unknown.
   */
  async change<R extends { status: number }>(change: Change, send: () => Promise<R>, judge?: ChangeJudge<R>): Promise<R> {
    const n = this.entry(() => this.journal.before(change, this.run.now()), true);
    try {
      const res = await send();
      if (n !== undefined) this.entry(() => this.journal.after(n, { status: res.status, ok: true, ...judge?.(res, res.status) }, this.run.now()), false);
      return res;
    } catch (err) {
      const status = err instanceof BoError ? err.status : undefined;
      if (n !== undefined && status !== undefined) {
        const code = err instanceof BoError && err.code ? { code: err.code } : {};
        this.entry(() => this.journal.after(n, { status, ok: false, ...code, ...judge?.(undefined, status) }, this.run.now()), false);
      }
      throw err;
    }
  }

  /** What a batch did not send (its records not attempted; its input not read to the end; those --diff found in place, D32's already-holds), kept in the run's `end`. */
  left(notAttempted: number, unread: boolean, skipped = 0): void {
    this.notSent = { notAttempted, ...(unread ? { unread: true } : {}), ...(skipped > 0 ? { skipped } : {}) };
  }

  close(interrupted: boolean): void {
    this.run.signal.removeEventListener('abort', this.onSignal);
    this.journal.close(this.run.now(), interrupted, this.notSent);
  }

  /**
   * Writes one entry. After a failure nothing more is written: a single change warns
   * once; in a batch the next `send` entry throws, so no further change goes out
   * unjournaled (an outcome that failed only leaves its change unknown).
   */
  private entry<T>(write: () => T, before: boolean): T | undefined {
    if (this.failure === undefined) {
      try {
        return write();
      } catch (err) {
        // Only a write that failed (an errno) is the journal's to report; anything else
        // (a body nested too deep to digest) is not a disk's state and goes on as it is.
        if (typeof (err as NodeJS.ErrnoException | undefined)?.code !== 'string') throw err;
        this.failure = err;
        if (!this.run.header.batch) {
          this.run.warn(`warning: cannot write the journal in ${this.journal.folder}: ${reasonOf(err)}; this change is not journaled`);
        }
      }
    }
    if (before && this.run.header.batch) throw new JournalWriteError(this.journal.folder, this.failure);
    return undefined;
  }
}

/** An errno's words (`read-only file system`), never a stack. */
function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a part of the path is not a folder',
    EIO: 'input/output error',
  };
  return (e?.code && words[e.code]) || (e?.message ?? String(err));
}
