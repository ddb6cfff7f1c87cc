// The Uids a walk has handed on (walk-ledger.ts), as an exact set whose memory stays
// outside V8's heap: each Uid once, after its length, in one buffer, and a table of
// where each starts (open addressing, linear probing). A Set of 300,000 strings made an
// export's peak 45-75 MiB higher (the heap grows with what it holds, and with it the
// garbage a collection leaves for later). Exact: two Uids are the same only when their
// code units are (a hash alone could take a new record for a repeat and drop it). A Uid
// whose code units are all below 256 is kept a byte each (latin1), any other as UTF-16:
// never UTF-8, which makes strings with different lone surrogates the same bytes.

import { giveBack } from './give-back.js';

/** The length word's top bit: the entry is UTF-16 (else latin1). */
const WIDE = 0x80000000;
/** Slots are made ahead of an announced total for at most this many Uids (16 MB of slots). */
const MOST_AHEAD = 1 << 21;

/** FNV-1a over bytes[start, end). */
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

export class UidSet {
  /** Each entry: its length word (4 bytes, little-endian: byte count | WIDE), then its bytes. */
  private arena = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Where each entry starts in the arena, + 1; 0 is an empty slot. */
  private slots = new Int32Array(4096);
  size = 0;

  /** Adds `uid`; false when it was there already. */
  add(uid: string): boolean {
    // Written at the arena's end first: kept there when new, else left to be overwritten.
    this.reserve(4 + 2 * uid.length);
    const start = this.used + 4;
    // latin1 writes each code unit's low byte: exact only when none is 256 or above.
    const wide = /[^\x00-\xff]/.test(uid);
    const length = this.arena.write(uid, start, wide ? 'utf16le' : 'latin1');
    const word = (length | (wide ? WIDE : 0)) >>> 0;
    const mask = this.slots.length - 1;
    for (let i = hash(this.arena, start, start + length) & mask; ; i = (i + 1) & mask) {
      const at = this.slots[i]! - 1;
      if (at < 0) {
        this.arena.writeUInt32LE(word, this.used);
        this.slots[i] = this.used + 1;
        this.used = start + length;
        if (++this.size * 2 > this.slots.length) this.resize(this.slots.length * 2);
        return true;
      }
      if (this.arena.readUInt32LE(at) === word && this.arena.compare(this.arena, start, start + length, at + 4, at + 4 + length) === 0) return false;
    }
  }

  /** Slots made at once for `count` Uids in all (a total the server announced); at most for MOST_AHEAD. */
  expect(count: number): void {
    let slots = this.slots.length;
    while (slots < 2 * Math.min(count, MOST_AHEAD)) slots *= 2;
    if (slots > this.slots.length) this.resize(slots);
  }

  /** Room for `bytes` more at the arena's end. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.arena.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + bytes));
    this.arena.copy(bigger, 0, 0, this.used);
    giveBack(this.arena);
    this.arena = bigger;
  }

  /** `count` slots, every entry placed again. */
  private resize(count: number): void {
    const slots = new Int32Array(count);
    const mask = count - 1;
    for (let at = 0; at < this.used; ) {
      const length = (this.arena.readUInt32LE(at) & ~WIDE) >>> 0;
      let i = hash(this.arena, at + 4, at + 4 + length) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = at + 1;
      at += 4 + length;
    }
    giveBack(this.slots);
    this.slots = slots;
  }
}
