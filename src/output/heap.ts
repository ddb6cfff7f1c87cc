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
 * Long work keeps V8's young generation at 4 MiB a semi-space instead of letting it
 * grow to 16: an export allocates its whole volume (260 MB of JSON for 100,000
 * accounts) as short-lived pages and records, and with four pages in flight enough
 * survives each scavenge that V8 grows the semi-spaces to their cap, and lets that much
 * more dead page text and response buffers pile up between collections.
 * `--max-semi-space-size` would cap it but only from the command line (it is fixed when
 * the heap is made); `--semi-space-growth-factor` is read each time V8 considers
 * growing, so it works at run time. What survives the young generation, the old one
 * lets grow until V8 decides to collect it, at a different moment in each run: so every
 * 5,000 records a full collection bounds it.
 *
 * Measured on `accounts list --all --jsonl` (Node 20, 2 cores): peak RSS 114-152 MiB at
 * 100,000 accounts by default. Kept at 1 MiB a semi-space: 88-105 MiB (a bench run:
 * 101, +15.6 % against 10,000 accounts), but ~1,700 scavenges took a third of the CPU
 * time. With the collections: 84-88 MiB at 1 MiB; at 4 MiB, 91-94 MiB (the bench: 91,
 * +7.6 % against 10,000) and 3.6-4.1 s of CPU instead of 4.4-5.0 (the bench's rate 0.86
 * of the 4-way client). Every 2,500 records cost more CPU for 2 MiB less. Node 24:
 * 100-107 MiB. Set when long work starts, so no command that does not page pays
 * anything for it, and put back (V8's default growth factor is 2) at the end.
 */
export function longWorkHeap(): { step(done: number): void; end(): void } {
  let v8: typeof import('node:v8') | undefined;
  try {
    v8 = process.getBuiltinModule('node:v8') as typeof import('node:v8');
  } catch {
    v8 = undefined; // not a Node that has it: the work runs the same, with V8's own sizing
  }
  // V8 doubles the young generation (factor 2, its default) or keeps it (factor 1): let
  // it double until it holds YOUNG_BYTES, then keep it there. Looked at every
  // STEER_RECORDS records, about a page: a page allocates too little for two doublings.
  let factor = 2;
  const steer = () => {
    const young = v8?.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
    const wanted = young < YOUNG_BYTES ? 2 : 1;
    if (wanted !== factor) factor = setGrowthFactor(v8, wanted);
  };
  steer();
  let steered = 0;
  let collected = 0;
  return {
    step(done) {
      if (done - steered >= STEER_RECORDS) {
        steered = done;
        steer();
      }
      if (done - collected >= RECORDS_PER_COLLECTION) {
        collected = done;
        collectGarbage();
      }
    },
    end() {
      if (factor !== 2) factor = setGrowthFactor(v8, 2);
    },
  };
}

/** The young generation during long work: both semi-spaces, 4 MiB each. */
const YOUNG_BYTES = 8 * 1024 * 1024;
const STEER_RECORDS = 100;

function setGrowthFactor(v8: typeof import('node:v8') | undefined, factor: number): number {
  v8?.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  return factor;
}
