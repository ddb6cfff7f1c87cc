// How many generated cases a hardening suite runs: the suite's bounded default in
// `npm test`, or BO_FUZZ_RUNS for the longer run of `npm run fuzz`.
export function fuzzRuns(bounded: number): number {
  const text = process.env.BO_FUZZ_RUNS;
  if (text === undefined || text === '') return bounded;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BO_FUZZ_RUNS must be a whole number of cases, got "${text}"`);
  return n;
}
