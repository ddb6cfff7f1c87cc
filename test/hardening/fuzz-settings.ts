// What the hardening suites share: how many generated cases to run, the summary line
// each prints for the README, and what a leaked JavaScript failure looks like.

/** `npm test` runs `base` cases (fixed seed); `npm run fuzz` sets BO_FUZZ_RUNS for a longer run. */
export function fuzzRuns(base: number): number {
  const wanted = Number(process.env.BO_FUZZ_RUNS);
  return Number.isInteger(wanted) && wanted > 0 ? Math.max(wanted, base) : base;
}

/** One summary line per suite on the test output, the counts the README quotes. */
export function report(suite: string, line: string): void {
  console.log(`[hardening] ${suite}: ${line}`);
}

/** A stack frame or a raw JavaScript error message reaching the user. */
export const STACK_OR_JS_MESSAGE =
  /^\s+at .+[(:]\d|\b(TypeError|ReferenceError|RangeError|SyntaxError|InternalError)\b|\bis not a function\b|\bis not (async )?iterable\b|Cannot read propert|\[object Object\]|\bERR_[A-Z_]+\b|Maximum call stack/m;
