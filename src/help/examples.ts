// The examples of each command in the tree: shown under "Examples:" in its --help, and
// read back by the reference and the man pages (./reference.ts), so both print exactly
// the examples --help does.

import type { Command } from 'commander';

/** A command line, or a command line and what it shows (`bo --help` lines them up). */
export type Example = string | readonly [command: string, what: string];

const examplesOfCommand = new WeakMap<Command, Example[]>();

/**
 * Adds examples to `cmd`, shown after its help: a group gathers its verbs' first
 * examples as they are added; duplicates show once.
 */
export function addExamples(cmd: Command, examples: readonly Example[]): void {
  const known = examplesOfCommand.get(cmd);
  if (known) {
    known.push(...examples);
    return;
  }
  examplesOfCommand.set(cmd, [...examples]);
  cmd.addHelpText('after', () => {
    const list = unique(examplesOfCommand.get(cmd)!);
    const width = Math.max(...list.map((e) => (typeof e === 'string' ? 0 : e[0].length))) + 4;
    const lines = list.map((e) => (typeof e === 'string' ? e : `${e[0].padEnd(width)}${e[1]}`));
    return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
  });
}

/** The examples of `cmd` as lines to paste into a shell (what they show as a comment). */
export function examplesOf(cmd: Command): string[] {
  return unique(examplesOfCommand.get(cmd) ?? []).map((e) => (typeof e === 'string' ? e : `${e[0]}  # ${e[1]}`));
}

function unique(list: Example[]): Example[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = typeof e === 'string' ? e : e[0];
    return !seen.has(key) && (seen.add(key), true);
  });
}
