// The ratchet on long functions: no function in src/ is over 80 lines, except those
// listed here with their length the day the rule came in, and the list only shrinks.
// scripts/long-functions.mjs finds them (how it counts: nested functions count on their
// own and for the function around them) and prints the list: `node scripts/long-functions.mjs`.
// Not a unit test: the TypeScript compiler's API runs the compiler as a helper process.
import { describe, expect, it } from 'vitest';
import { LIMIT, longFunctions } from '../scripts/long-functions.mjs';

/** [file, function, lines]: may shrink below its length, never grow; off the list once at 80 or under. */
const ALLOWED: Array<[string, string, number]> = [
  ['src/commands/doctor.ts', 'runChecks', 138],
  ['src/completion/bash.ts', 'driver', 92],
  ['src/completion/fish.ts', 'walker', 94],
  ['src/connection.ts', 'connect', 96],
  ['src/journal/read.ts', 'readOpen', 90],
  ['src/output/jq-engine.ts', 'loadJqEngine', 111],
  ['src/output/pager.ts', 'createPager', 124],
  ['src/output/table.ts', 'writeTable', 147],
];

const key = (file: string, name: string) => `${file} ${name}`;

describe('how scripts/long-functions.mjs counts', () => {
  it('names and measures each function with a body, a nested one on its own and within its parent', () => {
    expect(longFunctions(3, 'test/fixtures/long-functions/')).toEqual([
      ['test/fixtures/long-functions/sample.ts', 'outer', 8],
      ['test/fixtures/long-functions/sample.ts', 'Counter.add', 5],
      ['test/fixtures/long-functions/sample.ts', 'onEvent', 5],
      ['test/fixtures/long-functions/sample.ts', '<anonymous>', 4],
      ['test/fixtures/long-functions/sample.ts', 'outer.inner', 4],
      ['test/fixtures/long-functions/sample.ts', 'overloaded', 4],
    ]);
  });
});

describe('function length', () => {
  const found = new Map(longFunctions().map(([file, name, lines]) => [key(file, name), lines]));
  const allowed = new Map(ALLOWED.map(([file, name, lines]) => [key(file, name), lines]));

  it(`no function in src/ is over ${LIMIT} lines unless the list allows it`, () => {
    const unlisted = [...found].filter(([k]) => !allowed.has(k)).map(([k, lines]) => `${k}: ${lines} lines`);
    expect(unlisted, `over ${LIMIT} lines: split them (the list only shrinks)`).toEqual([]);
  });

  it('no listed function grew', () => {
    const grown = [...found]
      .filter(([k, lines]) => allowed.has(k) && lines > allowed.get(k)!)
      .map(([k, lines]) => `${k}: ${lines} lines, listed at ${allowed.get(k)}`);
    expect(grown, 'a listed function may only get shorter').toEqual([]);
  });

  it(`a listed function at ${LIMIT} lines or under (or gone) leaves the list`, () => {
    const done = [...allowed.keys()].filter((k) => !found.has(k));
    expect(done, `${LIMIT} lines or under, renamed or gone: take them off ALLOWED in test/function-length.test.ts`).toEqual([]);
  });
});
