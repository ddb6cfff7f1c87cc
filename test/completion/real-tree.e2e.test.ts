// The real command tree in real shells: whatever commands exist, each shell offers
// every command, subcommand, flag and fixed value that commander knows of. The
// expectations come from commander's help API, not from the generators' model.

import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { completionScript } from '../../src/completion/script.js';
import { buildProgram } from '../../src/program.js';
import { longFlags, optionsAt, paths, subcommands } from './expect.js';
import { complete, type Completions } from './shells.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const program = buildProgram(commands, async () => {});

interface Case {
  line: string;
  want: string[];
}

function cases(): Case[] {
  const all: Array<{ path: string[]; cmd: Command }> = [{ path: [], cmd: program }, ...paths(program)];
  const out: Case[] = [];
  for (const { path, cmd } of all) {
    const prefix = ['bo', ...path].join(' ');
    if (cmd.commands.length > 0) out.push({ line: `${prefix} `, want: subcommands(program, path) });
    out.push({ line: `${prefix} --`, want: longFlags(program, path) });
    for (const option of optionsAt(program, path)) {
      if (option.argChoices && option.long) {
        out.push({ line: `${prefix} ${option.long} `, want: [...option.argChoices].sort() });
      }
    }
    const first = cmd.registeredArguments[0];
    if (cmd.commands.length === 0 && first?.argChoices) {
      out.push({ line: `${prefix} `, want: [...first.argChoices].sort() });
    }
  }
  return out;
}

const all = cases();

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion of the real command tree', (shell) => {
  let result: Completions;
  beforeAll(async () => {
    result = await complete(shell, completionScript(shell, program), all.map((c) => c.line));
  });

  it(`offers what commander defines (${all.length} lines)`, () => {
    const got = all.map((c, i) => ({ line: c.line, words: result.words[i] }));
    expect(got).toEqual(all.map((c) => ({ line: c.line, words: c.want })));
  });
});
