// The terminal Prompter: inquirer's prompts (./prompts.ts) reading io.stdin and drawing on io.stderr
// (stdout stays data only). Ctrl-C in a prompt (ExitPromptError), the run's abort
// signal (AbortPromptError) and a closed prompt all become InterruptedError, exit 130;
// inquirer restores the cursor and raw mode itself before rejecting.

import { styleText } from 'node:util';
import type { Io } from '../context.js';
import { InterruptedError } from '../errors.js';
import type { Prompter } from './prompter-types.js';
import { symbols } from '../output/symbols.js';

const interruptions = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

async function guard<T>(signal: AbortSignal, ask: () => Promise<T>): Promise<T> {
  if (signal.aborted) throw new InterruptedError();
  try {
    return await ask();
  } catch (err) {
    if (err instanceof Error && interruptions.has(err.name)) throw new InterruptedError();
    throw err;
  }
}

const asciiKey = (key: string) => ({ '↑↓': 'up/down', '⏎': 'enter' })[key] ?? key;

export async function createPrompter(io: Io, signal: AbortSignal): Promise<Prompter> {
  const prompts = await import('./prompts.js');
  const context = { input: io.stdin, output: io.stderr, signal } as Parameters<typeof prompts.input>[1];
  // The marks in bo's own glyphs: ASCII under a locale that is not UTF-8 (inquirer asks
  // the terminal type only, and would draw ✔ and ❯ as mojibake under LANG=C).
  const sym = symbols(io.env);
  const marks = {
    prefix: { idle: styleText('blue', '?'), done: styleText('green', sym.ok) },
    ...(sym.unicode ? {} : { spinner: { interval: 80, frames: ['-', '\\', '|', '/'] } }),
  };
  // A code the server has not judged yet is not shown with a green tick when submitted.
  const pendingMark = { prefix: { ...marks.prefix, done: styleText('dim', sym.pointer) } };
  return {
    input: (message, options) =>
      guard(signal, () =>
        prompts.input(
          {
            message,
            default: options?.default,
            validate: options?.validate,
            // A refused entry is cleared: a fresh code typed next is not appended to it.
            theme: { ...marks, validationFailureMode: 'clear', ...(options?.checkedLater ? pendingMark : {}) },
          },
          context,
        ),
      ),
    password: (message, options) =>
      guard(signal, () => prompts.password({ message, mask: false, validate: options?.validate, theme: marks }, context)),
    select: (message, choices) =>
      guard(signal, () =>
        prompts.select(
          {
            message,
            choices: choices.map((c) => ({ name: c.name, value: c.value, description: c.description })),
            // Numbered, so the digit keys visibly pick a choice (letters pick by the name's start).
            theme: {
              ...marks,
              icon: { cursor: sym.cursor },
              indexMode: 'number',
              // The key help in words where ↑↓ and ⏎ would be mojibake.
              ...(sym.unicode ? {} : { style: { keysHelpTip: (keys: string[][]) => keys.map(([key, action]) => `${asciiKey(key!)} ${action}`).join(', ') } }),
            },
          },
          context,
        ),
      ),
    // Cleared once answered: no "✔ … No" echo; the caller says what happened.
    confirm: (message, options) =>
      guard(signal, () => prompts.confirm({ message, default: options?.default, theme: marks }, { ...context, clearPromptOnDone: true })),
  };
}
