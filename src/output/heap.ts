// V8's heap during long work, and a full collection on demand: the two things `bo`
// asks of the garbage collector (progress.ts for exports and batches, http-attempt.ts
// for a dropped oversized answer). Both change V8 flags only for as long as they need
// them: the flags are part of the code cache's key (bin/bo.js), and a cache written
// after a change would be refused once by the next ordinary command.

let collector: (() => void) | null | undefined;

/**
 * A full collection now. `gc` exists only with --expose-gc: the flag is set for as long
 * as it takes to make a context that has it, then put back.
 */
export function collectGarbage(): void {
  if (collector === undefined) {
    try {
      const v8 = process.getBuiltinModule('node:v8') as typeof import('node:v8');
      const vm = process.getBuiltinModule('node:vm') as typeof import('node:vm');
      v8.setFlagsFromString('--expose-gc');
      try {
        collector = vm.runInNewContext('gc') as () => void;
      } finally {
        v8.setFlagsFromString('--no-expose-gc');
      }
    } catch {
      collector = null; // not a Node that allows it: V8 collects when it will
    }
  }
  collector?.();
}

/** Records of long work between two full collections (longWorkHeap). */
const RECORDS_PER_COLLECTION = 5000;

/**
 * Long work keeps V8's young generation at its first size (1 MiB a semi-space) instead
 * of letting it grow to 16: an export allocates its whole volume (260 MB of JSON for
 * 100,000 accounts) as short-lived pages and records, and with four pages in flight
 * enough survives each scavenge that V8 grows the semi-spaces to their cap, and lets
 * that much more dead page text and response buffers pile up between collections.
 * `--max-semi-space-size` would do the same but only from the command line (it is
 * fixed when the heap is made); `--semi-space-growth-factor` is read each time V8
 * considers growing, so it works at run time. What still survives the young
 * generation, the old one lets grow until V8 decides to collect it, at a different
 * moment in each run: so every 5,000 records a full collection bounds it.
 *
 * Measured on `accounts list --all --jsonl` (Node 20, 2 cores): peak RSS 114–152 MiB
 * at 100,000 accounts by default; 88–105 with the small young generation (a bench run:
 * 101 MiB, and +15.6 % against 10,000 accounts); with the collections too, 84–88 (the
 * bench: 90 MiB, -1.9 % against 10,000), for no CPU time that stands out of the noise
 * (3.9–4.4 s against 4.1–4.3 s, alternating runs; every 2,500 records cost more).
 * Set when long work starts, so no command that does not page pays anything for it,
 * and put back (V8's default growth factor is 2) at the end.
 */
export function longWorkHeap(): { step(done: number): void; end(): void } {
  setGrowthFactor(1);
  let last = 0;
  return {
    step(done) {
      if (done - last < RECORDS_PER_COLLECTION) return;
      last = done;
      collectGarbage();
    },
    end() {
      setGrowthFactor(2);
    },
  };
}

function setGrowthFactor(factor: number): void {
  try {
    const v8 = process.getBuiltinModule('node:v8') as typeof import('node:v8');
    v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch {
    // not a Node that has it: the work runs the same, with V8's own sizing
  }
}
