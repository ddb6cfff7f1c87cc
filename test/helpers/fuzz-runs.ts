// How many generated cases a property test runs: its bounded default in `npm test`, or
// more under BO_FUZZ_RUNS (`npm run fuzz`). Never fewer than the default, so a short
// BO_FUZZ_RUNS cannot quietly weaken a suite; a value that is not a count is an error.
export function fuzzRuns(bounded: number): number {
  const text = process.env.BO_FUZZ_RUNS;
  if (text === undefined || text === '') return bounded;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BO_FUZZ_RUNS must be a whole number of cases, got "${text}"`);
  return Math.max(n, bounded);
}

/**
 * A fixed seed for a property test in `npm test`, none (a new one each run) under
 * BO_FUZZ_RUNS: for a property that compares with JSON.parse, which on Node 24 (V8 13.6)
 * can give an object a wrong key after many similar objects were parsed — a case that
 * says nothing of bo's code. `npm test` then runs the same cases every time.
 */
export function fuzzSeed(fixed: number): { seed?: number } {
  const text = process.env.BO_FUZZ_RUNS;
  return text === undefined || text === '' ? { seed: fixed } : {};
}
