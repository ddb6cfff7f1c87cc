// Every mutation verb is one definition (src/mutation/define.ts): its fields against its
// flags, and its file read as text. Each field names a flag the command has (a switch a
// flag without a value, any other a flag with one), no API name or record name comes
// twice, every option that is not the runner's or the target's is a field, and no verb
// file declares a flag, an option type or an argument by hand.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';

const commands = await loadCommands();

const tree = buildProgram(commands, async () => {});
const find = (path: string[]): Command => path.reduce<Command>((cmd, name) => cmd.commands.find((c) => c.name() === name)!, tree);
const mutations = commands.filter((c) => c.mutation !== undefined);
const fileOf = (path: string[]) => new URL(`../../src/commands/${path.join('/')}.ts`, import.meta.url);

describe('mutation verbs, one definition each', () => {
  it('every verb that changes something is a mutation definition', () => {
    expect(mutations.map((c) => c.path.join(' ')).sort()).toEqual(
      [
        'accounts cancel',
        'accounts extend-trial',
        'addons expire',
        'articles untag',
        'deals update',
        'drips add-message',
        'drips delete',
        'lists create',
        'lists subscribe',
        'memberships update',
        'payment-info update',
        'people magic-link',
        'subscriptions require-upgrade',
      ].sort(),
    );
  });

  it.each(mutations.map((c) => [c.path.join(' '), c] as const))('%s: every field is one of its flags, of the right kind', (_name, def) => {
    const cmd = find(def.path);
    for (const field of def.fields!) {
      const option = cmd.options.find((o) => o.long === field.flag);
      expect(option, field.flag).toBeDefined();
      // A switch is a flag without a value; any other takes one and has a parser.
      const isSwitch = field.form === 'boolean' || field.form === 'toggle';
      expect(option!.required || option!.optional, field.flag).toBe(!isSwitch);
      expect(field.parse === undefined, field.flag).toBe(isSwitch);
    }
    const apiNames = def.fields!.map((f) => f.api);
    const recordNames = def.fields!.map((f) => f.flag.replace(/^--/, ''));
    expect(new Set([...apiNames, ...recordNames]).size).toBe(apiNames.length + recordNames.length);
  });

  it('every option that is not the runner’s or the target’s is a field', () => {
    const runnerFlags = ['--dry-run', '--yes', '--concurrency', '--fail-fast', '--input-format', '--outcomes', '--only', '--diff', '--help'];
    for (const def of mutations) {
      const declared = def.fields!.flatMap((f) => (f.form === 'toggle' ? [f.flag, f.flag.replace(/^--/, '--no-')] : [f.flag]));
      const cmd = find(def.path);
      const others = cmd.options.map((o) => o.long!).filter((flag) => !runnerFlags.includes(flag) && !declared.includes(flag));
      // At most one option left: the target given as an option (--email, --name, --account).
      expect(others.length, `${def.path.join(' ')}: ${others.join(', ')}`).toBeLessThanOrEqual(1);
      // Required, unless `-` as the argument stands for it (`bo lists create -`).
      const dash = cmd.registeredArguments.some((a) => a.name() === '-' && !a.required);
      if (others.length === 1) expect(cmd.options.find((o) => o.long === others[0])!.mandatory, others[0]).toBe(!dash);
    }
  });

  it.each(mutations.map((c) => [c.path.join(' '), c] as const))('%s: its file declares each thing once', (_name, def) => {
    const text = readFileSync(fileOf(def.path), 'utf8');
    expect(text).toContain('defineMutation(');
    // No hand-written options type, commander calls, untyped arguments or second runner style.
    expect(text).not.toMatch(/interface Opts|(?<!target)\.option\(|\.requiredOption\(|\.argument\(|as string\b|runMutation|try \{/);
    // Each flag is declared once: in its field's (or the target's) declaration.
    const declared = [...text.matchAll(/(?:field\.\w+|target\.option)\(\s*'(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
    expect(declared.length).toBe(def.fields!.length + (text.includes('target.option(') ? 1 : 0));
    const counted = new Map<string, number>();
    for (const flag of declared) counted.set(flag, (counted.get(flag) ?? 0) + 1);
    expect([...counted].filter(([, n]) => n > 1)).toEqual([]);
  });

  it('destructive is said by the definition, and --yes help follows it', () => {
    for (const def of mutations) {
      const yes = find(def.path).options.find((o) => o.long === '--yes')!;
      expect(yes.description.includes('cannot be undone'), def.path.join(' ')).toBe(def.mutation!.destructive);
    }
    expect(mutations.filter((c) => c.mutation!.destructive).map((c) => c.path.join(' ')).sort()).toEqual(['accounts cancel', 'drips delete']);
  });

  it('the secret fields are declared as such', () => {
    expect(mutations.flatMap((c) => c.mutation!.secrets.map((s) => `${c.path.join(' ')}: ${s}`))).toEqual(['payment-info update: PaymentToken']);
  });
});
