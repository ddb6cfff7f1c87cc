// Completion in real bash, zsh and fish, on a small fixed command tree (fixture.ts):
// commands, subcommands, flags, fixed values, file names, and hostile text that must
// stay text.

import { beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../src/completion/script.js';
import { EVIL, EVIL_CHOICES, fixtureProgram } from './fixture.js';
import { longFlags, subcommands } from './expect.js';
import { complete, SCRATCH, type Completions, type ShellName } from './shells.js';

const program = fixtureProgram();

// Each shell reports candidates its own way: bash for readline's word (after the last
// "=" or ":"), zsh and fish for the whole word.

/** What bash and zsh insert for a choice: the value quoted for the shell. */
const shellEscaped = (v: string) => v.replace(/[^A-Za-z0-9_.,:+@%/=-]/g, (c) => `\\${c}`);

const cases: Array<{ name: string; line: string; want: (shell: ShellName) => string[] }> = [
  { name: 'top-level commands', line: 'bo ', want: () => subcommands(program, []) },
  { name: "a group's verbs", line: 'bo sandbox ', want: () => subcommands(program, ['sandbox']) },
  { name: 'a verb by its prefix', line: 'bo sandbox s', want: () => ['serve'] },
  { name: "a verb's flags with the globals", line: 'bo login --', want: () => longFlags(program, ['login']) },
  { name: 'a flag prefix', line: 'bo login --me', want: () => ['--mechanism'] },
  { name: 'fixed values of a flag', line: 'bo login --mechanism ', want: () => ['email', 'totp'] },
  { name: 'fixed values of a short flag', line: 'bo api -X ', want: () => ['GET', 'POST'] },
  {
    name: 'a fixed value after "="',
    line: 'bo login --mechanism=t',
    want: (shell) => [shell === 'bash' ? 'totp' : '--mechanism=totp'],
  },
  { name: 'file names for a file flag', line: 'bo --json sandbox serve --state ', want: () => SCRATCH },
  {
    name: 'file names after "="',
    line: 'bo login --qr-png=',
    want: (shell) => (shell === 'bash' ? SCRATCH : SCRATCH.map((f) => `--qr-png=${f}`)),
  },
  { name: 'nothing to guess for a free value', line: 'bo login --code ', want: () => [] },
  { name: 'fixed values of an argument', line: 'bo paint ', want: () => ['blue', 'green', 'red'] },
  { name: 'file names for a file argument', line: 'bo paint red ', want: () => SCRATCH },
  {
    name: 'file names after "@" for a text-or-@file value',
    line: 'bo paint --note @',
    want: () => SCRATCH.map((f) => `@${f}`),
  },
  { name: 'no file names for its plain text', line: 'bo paint --note n', want: () => [] },
  {
    name: 'file names after "=@"',
    line: 'bo paint --note=@s',
    want: (shell) => ['state.json', 'sub'].map((f) => (shell === 'bash' ? `@${f}` : `--note=@${f}`)),
  },
  { name: 'a global flag value is not a command', line: 'bo --profile sandbox ', want: () => subcommands(program, []) },
  {
    name: 'a global flag value after "="',
    line: 'bo --profile=x sandbox ',
    want: () => subcommands(program, ['sandbox']),
  },
  { name: 'a verb by its alias', line: 'bo sandbox start --st', want: () => ['--state'] },
  { name: 'no hidden flags', line: 'bo login --d', want: () => [] },
  { name: 'help takes a command name', line: 'bo help ', want: () => ['api', 'login', 'paint', 'sandbox'] },
  {
    name: 'a repeatable flag is offered again',
    line: 'bo api -F a=1 -F b=2 -',
    want: () => ['-F', '-X', '-h', '-p', ...longFlags(program, ['api'])].sort(),
  },
  { name: 'a flag with a hostile description', line: 'bo paint --st', want: () => ['--style'] },
  {
    name: 'hostile choices, quoted',
    line: 'bo paint --style ',
    want: (shell) => EVIL_CHOICES.map((c) => (shell === 'fish' ? c : shellEscaped(c))).sort(),
  },
];

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion of a fixed tree', (shell) => {
  let result: Completions;
  beforeAll(async () => {
    result = await complete(shell, completionScript(shell, program), cases.map((c) => c.line));
  });

  it.each(cases.map((c, i) => [c.name, c.line, i] as const))('%s: "%s"', (_name, line, i) => {
    expect(result.words[i], line).toEqual(cases[i]!.want(shell));
  });

  it('ran no command hidden in descriptions or values', () => {
    expect(result.files).toEqual(SCRATCH);
  });

  if (shell !== 'bash') {
    it('shows descriptions, hostile ones as plain text', () => {
      const sep = shell === 'fish' ? '\t' : ' -- ';
      const raw = (line: string) => result.raw[cases.findIndex((c) => c.line === line)];
      expect(raw('bo ')).toContain(`login${sep}Sign in`);
      expect(raw('bo ')).toContain(`paint${sep}${EVIL}`);
      expect(raw('bo login --')).toContain(`--mechanism${sep}where the code goes`);
      expect(raw('bo paint --st')).toEqual([`--style${sep}${EVIL}`]);
    });
  }
});

describe('zsh completion sourced instead of autoloaded', () => {
  it('registers itself with compdef and completes', async () => {
    const script = completionScript('zsh', program);
    const result = await complete('zsh-sourced', script, ['bo sandbox ', 'bo login --mechanism ']);
    expect(result.words).toEqual([subcommands(program, ['sandbox']), ['email', 'totp']]);
  });
});
