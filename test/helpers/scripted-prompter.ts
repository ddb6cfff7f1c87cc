// A Prompter that answers from a script, in order, and fails loudly on a question the
// script did not expect or on answers left over. Each answer names the kind of prompt
// and a piece of its message, so a test reads like the conversation it stands for.
// Validation runs as on the terminal: an answer the real prompt would refuse fails the
// test, instead of slipping through to the flow.

import type { Choice, Prompter } from '../../src/auth/prompter-types.js';
import { InterruptedError } from '../../src/errors.js';

/** A text answer, or a function computing it when the question comes (an emailed code). */
export type TextAnswer = string | (() => string | Promise<string>);

export type Step =
  | { input: RegExp | string; answer: TextAnswer }
  | { password: RegExp | string; answer: TextAnswer }
  | { select: RegExp | string; answer: unknown }
  | { confirm: RegExp | string; answer: boolean }
  /** Acts like Ctrl-C at a prompt of this kind. */
  | { interrupt: 'input' | 'password' | 'select' | 'confirm' };

export interface ScriptedPrompter extends Prompter {
  /** Every question asked, in order: "input: Code from the email". */
  readonly asked: string[];
  /** Throws when answers are left over. */
  assertDone(): void;
}

function matches(pattern: RegExp | string, message: string): boolean {
  return typeof pattern === 'string' ? message.includes(pattern) : pattern.test(message);
}

export function scriptedPrompter(steps: Step[]): ScriptedPrompter {
  const queue = [...steps];
  const asked: string[] = [];

  function take(kind: 'input' | 'password' | 'select' | 'confirm', message: string): Step {
    asked.push(`${kind}: ${message}`);
    const step = queue.shift();
    if (!step) throw new Error(`scripted prompter: unexpected ${kind} "${message}" (no answers left)`);
    if ('interrupt' in step) {
      if (step.interrupt !== kind) throw new Error(`scripted prompter: expected a ${step.interrupt} to interrupt, got ${kind} "${message}"`);
      throw new InterruptedError();
    }
    if (!(kind in step)) {
      throw new Error(`scripted prompter: expected ${Object.keys(step)[0]}, got ${kind} "${message}"`);
    }
    const pattern = (step as Record<string, unknown>)[kind] as RegExp | string;
    if (!matches(pattern, message)) throw new Error(`scripted prompter: expected a ${kind} like ${String(pattern)}, got "${message}"`);
    return step;
  }

  async function validated(given: TextAnswer, validate?: (v: string) => true | string): Promise<string> {
    const answer = typeof given === 'function' ? await given() : given;
    const verdict = validate?.(answer) ?? true;
    if (verdict !== true) throw new Error(`scripted prompter: the prompt refused "${answer}": ${verdict}`);
    return answer;
  }

  return {
    asked,
    async input(message, options) {
      const step = take('input', message) as { answer: TextAnswer };
      return validated(step.answer, options?.validate);
    },
    async password(message, options) {
      const step = take('password', message) as { answer: TextAnswer };
      return validated(step.answer, options?.validate);
    },
    async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
      const step = take('select', message) as { answer: unknown };
      const choice = choices.find((c) => c.value === step.answer);
      if (!choice) throw new Error(`scripted prompter: "${String(step.answer)}" is not a choice of "${message}"`);
      return choice.value;
    },
    async confirm(message) {
      return (take('confirm', message) as { answer: boolean }).answer;
    },
    assertDone() {
      if (queue.length > 0) throw new Error(`scripted prompter: ${queue.length} answer(s) left over: ${JSON.stringify(queue[0])}`);
    },
  };
}
