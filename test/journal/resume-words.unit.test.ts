// The two small rules `bo batch resume` stands on: a journaled command line splits back
// into the very words that were run, and each record's step follows its known outcome and
// the verb's resend rule.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWord, splitCommand } from '../../src/journal/command-words.js';
import { resumeStep, resumeStepChecked } from '../../src/mutation/resume.js';
import type { ResumeOrder } from '../../src/mutation/types.js';
import { UsageError } from '../../src/errors.js';

describe('a journaled command line', () => {
  it('splits back into the words that were run, whatever they hold', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '\\', '"', '$', '-', '=', '\t', 'é', '\n'), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        expect(splitCommand(words.map(commandWord).join(' '))).toEqual(words);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a plain word as it is and quotes the rest', () => {
    expect(['accounts', 'cancel', '-', '--reason', "It's over", ''].map(commandWord).join(' ')).toBe(
      "accounts cancel - --reason 'It'\\''s over' ''",
    );
  });
});

describe('the step for each record of a resumed run', () => {
  const order = (resendUnknown = false): ResumeOrder => ({
    run: '20261128T100000-ABCDEF',
    lock: { file: '', tookOver: undefined, release() {} },
    known: new Map([
      [1, { outcome: 'done', read: 'd1' }],
      [2, { outcome: 'failed', read: 'd2' }],
      [3, { outcome: 'unknown', read: 'd3' }],
    ]),
    lastLine: 3,
    resendUnknown,
  });

  it('skips known outcomes and sends what was never sent, whatever the verb', () => {
    for (const resend of ['safe', 'check', 'never'] as const) {
      expect([1, 2, 4].map((line) => resumeStep(order(), line, resend))).toEqual(['skip', 'skip', 'send']);
    }
  });

  it('sends an unknown outcome again only where a repeat cannot harm, reads it back where it can be, else holds it', () => {
    expect(resumeStep(order(), 3, 'safe')).toBe('send');
    expect(resumeStep(order(), 3, 'check')).toBe('check');
    expect(resumeStep(order(), 3, 'never')).toBe('hold');
  });

  it('sends every unknown outcome when asked to resend them, and still skips known ones', () => {
    expect([1, 3].map((line) => resumeStep(order(true), line, 'never'))).toEqual(['skip', 'send']);
  });

  it('refuses input that differs from what the run read, naming the line', () => {
    expect(resumeStepChecked(order(), 2, 'd2', 'safe')).toBe('skip');
    expect(() => resumeStepChecked(order(), 2, 'other', 'safe')).toThrow(UsageError);
    expect(() => resumeStepChecked(order(), 2, 'other', 'safe')).toThrow(/from line 2/);
  });
});
