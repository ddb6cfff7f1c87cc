// bash with real readline on a pseudo-terminal: the line after TAB is what a user
// gets, including readline's own word splitting at "=" and "@" and its quoting.

import { beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../src/completion/script.js';
import { fixtureProgram } from './fixture.js';
import { typeInBash } from './shells.js';

const cases: Array<[typed: string, after: string]> = [
  ['bo sandbox se', 'bo sandbox serve '],
  ['bo login --mech', 'bo login --mechanism '],
  ['bo login --mechanism e', 'bo login --mechanism email '],
  ['bo login --mechanism=t', 'bo login --mechanism=totp '],
  ['bo paint --style a', 'bo paint --style a\\ b '],
  ['bo paint --style it', "bo paint --style it\\'s "],
  ['bo paint --style=a', 'bo paint --style=a\\ b '],
  ['bo --json sandbox serve --state st', 'bo --json sandbox serve --state state.json '],
  ['bo sandbox serve --state su', 'bo sandbox serve --state sub/'],
  ['bo login --qr-png=n', 'bo login --qr-png=notes.txt '],
  ['bo paint --note @no', 'bo paint --note @notes.txt '],
  ['bo paint --note=@no', 'bo paint --note=@notes.txt '],
  ['bo paint --note @su', 'bo paint --note @sub/'],
  ['bo api -F a=1 --in', 'bo api -F a=1 --input '],
  ['bo --profile=x sandbox re', 'bo --profile=x sandbox reset '],
];

describe('bash completion through readline', () => {
  let after: string[];
  beforeAll(async () => {
    after = await typeInBash(
      completionScript('bash', fixtureProgram()),
      cases.map(([typed]) => typed),
    );
  });

  it.each(cases.map(([typed, want], i) => [typed, want, i] as const))('"%s" + TAB → "%s"', (_typed, want, i) => {
    expect(after[i]).toBe(want);
  });
});
