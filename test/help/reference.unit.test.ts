// `bo help reference`: every visible command of the tree, with its usage, arguments,
// options and the examples its --help shows, as Markdown on stdout.

import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { examplesOf } from '../../src/help/examples.js';
import { buildProgram } from '../../src/program.js';
import { runBo } from '../helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const program = buildProgram(commands, async () => {});

function visible(cmd: Command): Command[] {
  return cmd.commands.filter((c) => c.name() !== 'help' && !(c as unknown as { _hidden: boolean })._hidden).flatMap((c) => [c, ...visible(c)]);
}

describe('bo help reference', () => {
  it('prints every command with its options and examples, exit 0, nothing on stderr', async () => {
    const r = await runBo(['help', 'reference']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const md = r.stdout;
    expect(md.startsWith('# bo reference\n')).toBe(true);
    for (const option of program.options) expect(md).toContain(`- \`${option.flags}\``);
    const all = visible(program);
    expect(all.length).toBeGreaterThan(40);
    for (const cmd of all) {
      const help = cmd.createHelp();
      const section = md.split(`\n## \`${help.commandUsage(cmd)}\`\n`)[1]?.split('\n## ')[0];
      expect(section, `no section for ${help.commandUsage(cmd)}`).toBeDefined();
      for (const option of help.visibleOptions(cmd).filter((o) => o.long !== '--help')) expect(section).toContain(`- \`${option.flags}\``);
      for (const argument of help.visibleArguments(cmd)) expect(section).toContain(help.argumentTerm(argument));
      if (cmd.commands.length === 0) for (const example of examplesOf(cmd)) expect(section).toContain(`\n${example}\n`);
    }
    expect(md).not.toMatch(/\bD[0-9]+\b/);
    expect(md).not.toMatch(/\n{3}/);
  });

  it('is listed among the help topics, and a near miss is suggested', async () => {
    const top = await runBo(['help']);
    expect(top.stdout).toContain('bo help reference');
    const miss = await runBo(['help', 'referense']);
    expect(miss.code).toBe(2);
    expect(miss.stderr).toContain('reference');
  });
});
