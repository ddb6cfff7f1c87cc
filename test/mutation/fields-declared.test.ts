// The fields a mutation declares (its definition's `fields`) against its flags: each
// names a flag the command has, a boolean field a flag without a value and any other a
// flag with one, and no API name or record name twice. A field whose flag were misspelt
// would never be read from the command line; this is where that shows.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';

const commands = await loadCommands();

const tree = buildProgram(commands, async () => {});
const find = (path: string[]): Command => path.reduce<Command>((cmd, name) => cmd.commands.find((c) => c.name() === name)!, tree);
const withFields = commands.filter((c) => c.fields !== undefined);

describe('declared mutation fields', () => {
  it('the batch verbs that take options declare them', () => {
    expect(withFields.map((c) => c.path.join(' ')).sort()).toEqual(
      ['accounts cancel', 'accounts extend-trial', 'deals update', 'lists subscribe', 'subscriptions require-upgrade'].sort(),
    );
  });

  it.each(withFields.map((c) => [c.path.join(' '), c] as const))('%s: every field is one of its flags, of the right kind', (_name, def) => {
    const cmd = find(def.path);
    for (const field of def.fields!) {
      const option = cmd.options.find((o) => o.long === field.flag);
      expect(option, field.flag).toBeDefined();
      // A boolean field is a flag without a value; any other takes one and has a parser.
      expect(option!.required || option!.optional, field.flag).toBe(field.kind !== 'boolean');
      expect(field.parse === undefined, field.flag).toBe(field.kind === 'boolean');
    }
    const apiNames = def.fields!.map((f) => f.api);
    const recordNames = def.fields!.map((f) => f.flag.replace(/^--/, ''));
    expect(new Set([...apiNames, ...recordNames]).size).toBe(apiNames.length + recordNames.length);
  });

  it('every option of those verbs that is not a mutation or batch flag is a field', () => {
    const runnerFlags = ['--dry-run', '--yes', '--concurrency', '--fail-fast', '--help', '--email'];
    for (const def of withFields) {
      const declared = def.fields!.map((f) => f.flag);
      const others = find(def.path).options.map((o) => o.long!).filter((flag) => !runnerFlags.includes(flag));
      expect(others.filter((flag) => !declared.includes(flag)), def.path.join(' ')).toEqual([]);
    }
  });
});
