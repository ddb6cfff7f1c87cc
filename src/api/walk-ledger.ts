// What a walk (paginate.ts) has handed on, so that it ends honestly: a list
// that looks complete is complete. It keeps the largest total the server announced, the
// Uids already printed (an exact set, uid-set.ts), and a digest of each page whose items
// have no Uid. It decides which records of a page go on (none twice in a command's
// walk), refuses a page that only repeats, or an item that is not a record where a
// table needs one, and judges the walk at its end against the total.

import { BoError, IncompleteError } from '../errors.js';
import { groupDigits } from './digits.js';
import type { RecordPage } from './record-source.js';
import { UidSet } from './uid-set.js';

type Items<T> = RecordPage<T>;

export interface LedgerOptions {
  /** Leave out a record whose Uid was already handed on (a command's walk); `bo api --paginate` keeps it. */
  dropRepeats: boolean;
  /** Every item must be a JSON object: what a table, TSV or CSV reads columns from. */
  recordsOnly: boolean;
  /** The most records the walk hands on (`--limit`): its Uid table is made for no more than the total or this. */
  most?: number;
}


/**
 * A digest of the items at `indices`, as the server sent them (or as JSON once parsed).
 * node:crypto is loaded only here, for a page with items without a Uid: a list of
 * records never loads it (`bo --sandbox` reads without it, test/sandbox/in-process.e2e.test.ts).
 */
function digest<T>(items: Items<T>, indices: readonly number[]): string {
  const { createHash } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  const hash = createHash('sha256');
  for (const i of indices) {
    hash.update(items.text(i));
    hash.update('\n');
  }
  return hash.digest('base64');
}

export class WalkLedger {
  private readonly uids = new UidSet();
  private readonly digests = new Set<string>();
  private first: number | undefined;
  private changedTo: number | undefined;
  /** A total fell below one announced before it. */
  private shrank = false;
  /** The walk ended with every record announced. */
  private whole = false;
  /** The largest metadata.total a page announced. */
  announced: number | undefined;
  /** Items handed on that were not repeats: a new Uid, or none. */
  distinct = 0;
  /** Repeats left out. */
  dropped = 0;
  /** A page came back with fewer records than its size while the total said more. */
  short = false;

  constructor(private readonly options: LedgerOptions) {}

  /** A page's metadata.total. */
  total(total: number | undefined): void {
    if (total === undefined) return;
    if (this.first === undefined) this.first = total;
    else if (total !== this.first) this.changedTo = total;
    if (total < (this.announced ?? 0)) this.shrank = true;
    this.announced = Math.max(this.announced ?? 0, total);
    this.uids.expect(Math.min(this.announced, this.options.most ?? Infinity));
  }

  /**
   * The items of page `page` (its offset, zero-based as --page) from `from` on that go on,
   * at most `room` of them. Throws for an item that is not a record (recordsOnly), and
   * for a page whose items all repeat what was handed on (by Uid; by the page's bytes
   * where an item has none): a server that does not page would otherwise be walked
   * forever, and the same accounts cancelled again and again downstream.
   */
  admit<T>(items: Items<T>, from: number, page: number, room: number): Items<T> {
    const kept: number[] = [];
    let fresh = 0;
    let withoutUid = false;
    let dropped = 0;
    for (let i = from; i < items.length && kept.length < room; i++) {
      if (this.options.recordsOnly && !items.isObject(i)) {
        throw new BoError(`unexpected answer from the server: item ${groupDigits(i + 1)} of page ${groupDigits(page)} is not a record`, { code: 'unexpected' });
      }
      const uid = items.uid(i);
      if (uid === undefined) withoutUid = true;
      else if (!this.uids.add(uid)) {
        if (this.options.dropRepeats) dropped++;
        else kept.push(i);
        continue;
      }
      fresh++;
      kept.push(i);
    }
    const taken = kept.length + dropped;
    let repeats = taken > 0 && fresh === 0;
    if (!repeats && withoutUid) {
      const sum = digest(items, kept);
      repeats = this.digests.has(sum);
      this.digests.add(sum);
    }
    if (repeats) {
      throw new BoError(`unexpected answer from the server: page ${groupDigits(page)} repeats records already printed; the server does not seem to page`, {
        code: 'unexpected',
      });
    }
    this.distinct += fresh;
    this.dropped += dropped;
    if (kept.length === items.length) return items;
    return items.pick(kept);
  }

  /** At the end of a walk that stopped by itself: exit 1 (`incomplete`) when fewer records came than announced (or than `max`). */
  finish(max: number): void {
    if (this.announced === undefined) return;
    const target = Math.min(max, this.announced);
    this.whole = this.distinct >= target;
    if (this.whole) return;
    const n = groupDigits;
    const what = target < this.announced ? `the ${n(target)} records asked for (the server announced ${n(this.announced)})` : `the ${n(target)} records the server announced`;
    throw new IncompleteError(`only ${n(this.distinct)} of ${what} came back: the list is incomplete`);
  }

  /**
   * What stderr says after the walk, each a warning line of its own. A total that grew
   * (records added at the end) is not worth a word when every record came once; any
   * other change is.
   */
  notes(): string[] {
    const n = groupDigits;
    const notes: string[] = [];
    if (this.changedTo !== undefined && (this.shrank || !this.whole || this.dropped > 0)) {
      notes.push(`the server's total changed during the walk, from ${n(this.first!)} to ${n(this.changedTo)}: records may have been skipped or repeated; run the command again`);
    }
    if (this.dropped > 0) {
      notes.push(`${n(this.dropped)} record${this.dropped === 1 ? '' : 's'} the server sent more than once ${this.dropped === 1 ? 'was' : 'were'} left out`);
    }
    return notes;
  }
}
