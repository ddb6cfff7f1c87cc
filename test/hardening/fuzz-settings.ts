// What the hardening suites share: the summary line each prints for the README, and
// what a leaked JavaScript failure looks like (the number of cases: test/helpers/fuzz-runs.ts).

/** One summary line per suite on the test output, the counts the README quotes. */
export function report(suite: string, line: string): void {
  console.log(`[hardening] ${suite}: ${line}`);
}

/** A stack frame or a raw JavaScript error message reaching the user. */
export const STACK_OR_JS_MESSAGE =
  /^\s+at .+[(:]\d|\b(TypeError|ReferenceError|RangeError|SyntaxError|InternalError)\b|\bis not a function\b|\bis not (async )?iterable\b|Cannot read propert|\[object Object\]|\bERR_[A-Z_]+\b|Maximum call stack/m;
