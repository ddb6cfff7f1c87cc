// The model the three scripts are generated from: what counts as a file value, a
// repeatable flag, a global; and names that must never reach shell code.

import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { completionTree, type CommandSpec, type FlagSpec } from '../../src/completion/tree.js';

function tree(configure: (cmd: Command) => void) {
  const program = new Command('bo').option('--json', 'JSON').option('-p, --profile <name>', 'profile');
  configure(program.command('verb').description('a verb'));
  return completionTree(program);
}

function flag(cmd: CommandSpec, name: string): FlagSpec {
  const f = cmd.flags.find((x) => x.names.includes(name));
  if (!f) throw new Error(`no ${name}`);
  return f;
}

describe('completion tree', () => {
  it('completes file names for <file>, <path>, <file|-> and the known file flags', () => {
    const t = tree((c) =>
      c
        .option('--out <file>', '')
        .option('--dir <path>', '')
        .option('--input <file|->', '')
        .option('--qr-png <png>', '')
        .option('--recovery-codes-file <f>', '')
        .option('--state <where>', '')
        .option('--name <text>', ''),
    );
    const verb = t.root.commands[0]!;
    for (const name of ['--out', '--dir', '--input', '--qr-png', '--recovery-codes-file', '--state']) {
      expect(flag(verb, name).value, name).toEqual({ kind: 'file' });
    }
    expect(flag(verb, '--name').value).toEqual({ kind: 'text' });
  });

  it('reads fixed values from Option.choices and Argument.choices', () => {
    const t = tree((c) =>
      c
        .addOption(new Option('--mechanism <m>').choices(['email', 'totp']))
        .addArgument(new Argument('<shell>').choices(['bash', 'zsh'])),
    );
    const verb = t.root.commands[0]!;
    expect(flag(verb, '--mechanism').value).toEqual({ kind: 'choices', choices: ['email', 'totp'] });
    expect(verb.args[0]!.value).toEqual({ kind: 'choices', choices: ['bash', 'zsh'] });
  });

  it('marks flags with an array default (collected values) as repeatable', () => {
    const t = tree((c) =>
      c.option('-F, --field <kv>', '', (v: string, all: string[]) => [...all, v], []).option('--once <x>', ''),
    );
    const verb = t.root.commands[0]!;
    expect(flag(verb, '-F').repeatable).toBe(true);
    expect(flag(verb, '--once').repeatable).toBe(false);
  });

  it('keeps the root options apart as globals: commander takes them anywhere on the line', () => {
    const t = tree((c) => c.option('--yes', 'skip the question'));
    expect(t.globals.map((g) => g.names)).toEqual([['--json'], ['-p', '--profile']]);
    expect(t.root.commands[0]!.flags.map((f) => f.names.join(' '))).toEqual(['--yes', '-h --help']);
    expect(t.root.flags.map((f) => f.names.join(' '))).toEqual(['-h --help']);
  });

  it('leaves out hidden flags and hidden commands', () => {
    const program = new Command('bo');
    program.command('shown').addOption(new Option('--secret').hideHelp());
    program.command('ghost', { hidden: true });
    const t = completionTree(program);
    expect(t.root.commands.map((c) => c.name)).toEqual(['shown', 'help']);
    expect(t.root.commands[0]!.flags.flatMap((f) => f.names)).toEqual(['-h', '--help']);
  });

  it('uses the summary, on one line, as the description', () => {
    const t = tree((c) => c.summary('short\tone').description('long\ntext'));
    expect(t.root.commands[0]!.description).toBe('short one');
  });

  it('refuses a command name that is not a plain word', () => {
    const program = new Command('bo');
    program.command('rm;x');
    expect(() => completionTree(program)).toThrow(/command name "rm;x"/);
  });

  it('refuses a choice that cannot be typed', () => {
    expect(() => tree((c) => c.addOption(new Option('--x <v>').choices(['a\nb'])))).toThrow(/choice "a\\nb"/);
  });
});
