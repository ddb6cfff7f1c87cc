// The examples of each command in the tree: shown under "Examples:" in its --help, and
// read back by the reference and the man pages (./reference.ts), so both print exactly
// the examples --help does. They are a field of the command itself (every command of the
// tree is a CommandWithExamples, through commander's createCommand), never state kept
// beside it. Each one runs as written against the embedded sandbox (`bo`
// as `bo --sandbox`, its seeded Uids: test/help/examples-run.test.ts); one that cannot
// says what it needs.

import { Command } from 'commander';

/** A command line, or a command line and what it shows (`bo --help` lines them up). */
export type ExampleLine = string | readonly [command: string, what: string];

/**
 * An example: a line that runs as written, or one that needs what a test does not
 * have (a tenant, a terminal, a process that runs until stopped), saying what.
 */
export type Example = ExampleLine | { readonly example: ExampleLine; readonly needs: string };

/** A command of bo's tree, with the examples its help shows; its subcommands are ones too. */
export class CommandWithExamples extends Command {
  readonly examples: Example[] = [];

  override createCommand(name?: string): CommandWithExamples {
    return new CommandWithExamples(name);
  }
}

/** The examples a command holds as added: none for a command of another tree. */
const held = (cmd: Command): Example[] => (cmd instanceof CommandWithExamples ? cmd.examples : []);

const lineOf = (e: Example): ExampleLine => (typeof e === 'object' && 'needs' in e ? e.example : e);

/** The command line of an example, as a user pastes it. */
export function exampleCommand(e: Example): string {
  const line = lineOf(e);
  return typeof line === 'string' ? line : line[0];
}

/** What an example needs to run, when a test cannot give it; undefined: it runs. */
export function exampleNeeds(e: Example): string | undefined {
  return typeof e === 'object' && 'needs' in e ? e.needs : undefined;
}

/**
 * Adds examples to `cmd`, shown after its help: a group gathers its verbs' first
 * examples as they are added; duplicates show once.
 */
export function addExamples(cmd: CommandWithExamples, examples: readonly Example[]): void {
  const first = cmd.examples.length === 0;
  cmd.examples.push(...examples);
  if (!first || cmd.examples.length === 0) return;
  cmd.addHelpText('after', () => `\nExamples:\n${examplesOf(cmd, true).map((l) => `  ${l}`).join('\n')}\n`);
}

/**
 * The examples of `cmd` as lines to paste into a shell, what they show as a comment
 * (`aligned`: the comments lined up, as --help shows them).
 */
export function examplesOf(cmd: Command, aligned = false): string[] {
  const lines = unique(held(cmd)).map(lineOf);
  const width = aligned ? Math.max(...lines.map((l) => (typeof l === 'string' ? 0 : l[0].length))) + 2 : 0;
  return lines.map((l) => (typeof l === 'string' ? l : `${aligned ? l[0].padEnd(width) : `${l[0]}  `}# ${l[1]}`));
}

/** The examples of `cmd` as defined, each once (for the test that runs them). */
export function examplesToRun(cmd: Command): Example[] {
  return unique(held(cmd));
}

function unique(list: Example[]): Example[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = exampleCommand(e);
    return !seen.has(key) && (seen.add(key), true);
  });
}
