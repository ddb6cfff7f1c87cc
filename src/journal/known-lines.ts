// What a run's journal says of each input line it sent, kept compactly: a resume of a
// run of a million changes holds this for each, so it is typed arrays in pages of 4,096
// lines (made only for lines that were sent), not an object per line. For each line:
// the outcome of its last sending, that sending's number and the input's running digest
// there (32 bytes). A change's number leads back to its line for its outcome.

export type KnownOutcome = 'done' | 'failed' | 'unknown';

const PAGE = 4096;
const OUTCOMES: readonly (KnownOutcome | undefined)[] = [undefined, 'unknown', 'done', 'failed'];
const CODE: Record<KnownOutcome, number> = { unknown: 1, done: 2, failed: 3 };

interface LinePage {
  /** 0: never sent, else an index of OUTCOMES. */
  state: Uint8Array;
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
    page.lastN[i] = n;
    page.hasRead[i] = read === undefined ? 0 : 1;
    if (read !== undefined) page.read.write(read, i * 32, 32, 'hex');
    this.lineOfN.set(n, line);
    if (line > this.lastLine) this.lastLine = line;
  }

  /** Change `n` was answered: its line's outcome, when it is that line's last sending. */
  outcome(n: number, outcome: KnownOutcome): void {
    const line = this.lineOfN.get(n);
    if (line === 0) return;
    const page = this.page(line, false)!;
    const i = line % PAGE;
    if (page.lastN[i] === n) page.state[i] = CODE[outcome];
  }

  /** What is known of `line`: the outcome of its last sending and the input's digest there; undefined when never sent. */
  get(line: number): { outcome: KnownOutcome; read: string | undefined } | undefined {
    const page = this.page(line, false);
    const i = line % PAGE;
    const outcome = page ? OUTCOMES[page.state[i]!] : undefined;
    if (!page || outcome === undefined) return undefined;
    return { outcome, read: page.hasRead[i] ? page.read.toString('hex', i * 32, i * 32 + 32) : undefined };
  }

  /** Adds each line's outcome to `counts`. */
  count(counts: Record<KnownOutcome, number>): void {
    for (const page of this.pages.values()) {
      for (const s of page.state) {
        const outcome = OUTCOMES[s];
        if (outcome) counts[outcome]++;
      }
    }
  }

  private page(line: number, make: boolean): LinePage | undefined {
    const p = Math.floor(line / PAGE);
    let page = this.pages.get(p);
    if (!page && make) {
      page = { state: new Uint8Array(PAGE), lastN: new Float64Array(PAGE), hasRead: new Uint8Array(PAGE), read: Buffer.alloc(PAGE * 32) };
      this.pages.set(p, page);
    }
    return page;
  }
}
