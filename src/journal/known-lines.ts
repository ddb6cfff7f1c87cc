// What a run's journal says of each input line it sent, kept compactly: a resume of a
// run of a million changes holds this for each, so it is typed arrays in pages of 4,096
// lines (made only for lines that were sent), not an object per line. For each line:
// the outcome of its last sending, that sending's number and the input's running digest
// there (32 bytes). A change's number leads back to its line for its outcome.

export type KnownOutcome = 'done' | 'failed' | 'unknown';

const PAGE = 4096;
const OUTCOMES: readonly (KnownOutcome | undefined)[] = [undefined, 'unknown', 'done', 'failed'];
const CODE: Record<KnownOutcome, number> = { unknown: 1, done: 2, failed: 3 };

/** Whether a done change changed anything (D32): 0 not known, 1 it did, 2 it did not. */
const CHANGED: Record<'null' | 'true' | 'false', number> = { null: 0, true: 1, false: 2 };

/** The counts of `count`: each outcome, and of the done lines those known changed or unchanged. */
export type KnownCounts = Record<KnownOutcome, number> & { changed: number; unchanged: number };

interface LinePage {
  /** 0: never sent, else an index of OUTCOMES. */
  state: Uint8Array;
  /** CHANGED of the last sending's answer. */
  changed: Uint8Array;
  /** The number of the line's last sending. */
  lastN: Float64Array;
  hasRead: Uint8Array;
  read: Buffer;
}

/** Numbers in pages: index → number (0 when never set). */
class PagedNumbers {
  private readonly pages = new Map<number, Float64Array>();
  get(i: number): number {
    return this.pages.get(Math.floor(i / PAGE))?.[i % PAGE] ?? 0;
  }
  set(i: number, value: number): void {
    const p = Math.floor(i / PAGE);
    let page = this.pages.get(p);
    if (!page) this.pages.set(p, (page = new Float64Array(PAGE)));
    page[i % PAGE] = value;
  }
}

export class KnownLines {
  private readonly pages = new Map<number, LinePage>();
  private readonly lineOfN = new PagedNumbers();
  /** The last line sent (0 when none). */
  lastLine = 0;

  /** Line `line` was sent as change `n`, with the input's digest `read` there. */
  send(line: number, n: number, read: string | undefined): void {
    const page = this.page(line, true)!;
    const i = line % PAGE;
    page.state[i] = CODE.unknown;
    page.changed[i] = CHANGED.null;
    page.lastN[i] = n;
    page.hasRead[i] = read === undefined ? 0 : 1;
    if (read !== undefined) page.read.write(read, i * 32, 32, 'hex');
    this.lineOfN.set(n, line);
    if (line > this.lastLine) this.lastLine = line;
  }

  /** Change `n` was answered: its line's outcome (and whether it changed anything), when it is that line's last sending. */
  outcome(n: number, outcome: KnownOutcome, changed: boolean | null = null): void {
    const line = this.lineOfN.get(n);
    if (line === 0) return;
    const page = this.page(line, false)!;
    const i = line % PAGE;
    if (page.lastN[i] !== n) return;
    page.state[i] = CODE[outcome];
    page.changed[i] = CHANGED[`${changed}`];
  }

  /** What is known of `line`: the outcome of its last sending and the input's digest there; undefined when never sent. */
  get(line: number): { outcome: KnownOutcome; read: string | undefined } | undefined {
    const page = this.page(line, false);
    const i = line % PAGE;
    const outcome = page ? OUTCOMES[page.state[i]!] : undefined;
    if (!page || outcome === undefined) return undefined;
    return { outcome, read: page.hasRead[i] ? page.read.toString('hex', i * 32, i * 32 + 32) : undefined };
  }

  /** Adds each line's outcome to `counts`, and of the done ones those that changed or did not. */
  count(counts: KnownCounts): void {
    for (const page of this.pages.values()) {
      page.state.forEach((s, i) => {
        const outcome = OUTCOMES[s];
        if (!outcome) return;
        counts[outcome]++;
        if (outcome !== 'done') return;
        if (page.changed[i] === CHANGED.true) counts.changed++;
        else if (page.changed[i] === CHANGED.false) counts.unchanged++;
      });
    }
  }

  private page(line: number, make: boolean): LinePage | undefined {
    const p = Math.floor(line / PAGE);
    let page = this.pages.get(p);
    if (!page && make) {
      page = { state: new Uint8Array(PAGE), changed: new Uint8Array(PAGE), lastN: new Float64Array(PAGE), hasRead: new Uint8Array(PAGE), read: Buffer.alloc(PAGE * 32) };
      this.pages.set(p, page);
    }
    return page;
  }
}
