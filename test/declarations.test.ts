// Options are data (input/declare.ts): every option commander knows is rendered from a
// declaration (a definition's options, a mutation's fields among them, or the global
// ones), no verb file writes its options' type by hand (run's types are inferred from the
// declarations), and an option's help fits a tool as well as the command line: no exit
// codes in it. (No module-level WeakMap or WeakSet: test/module-state.test.ts.)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../src/commands/index.js';
import { optionsOf, type OptionDeclaration } from '../src/input/declare.js';
import { buildProgram, GLOBAL_OPTIONS } from '../src/program.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const commands = await loadCommands();
const tree = buildProgram(commands, async () => {});
const find = (path: string[]): Command => path.reduce<Command>((cmd, name) => cmd.commands.find((c) => c.name() === name)!, tree);

/** The flags each declaration renders: its own, and a switch's `--no-x` spelling when it has one. */
const renderedFlags = (declared: readonly OptionDeclaration[]): string[] =>
  declared.flatMap((d) => (d.negation === undefined ? [d.flags] : [d.flags, d.flags.replace(/^--/, '--no-').split(' ')[0]!]));

/** Commander's own options: help at every level, the version at the root. */
const COMMANDERS = ['-h, --help', '--version'];

const everyDeclaration = [...GLOBAL_OPTIONS, ...commands.flatMap((def) => optionsOf(def, commands))];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('options declared as data', () => {
  it('the global options commander knows are the declared ones, in order', () => {
    const own = tree.options.map((o) => o.flags).filter((flags) => !COMMANDERS.includes(flags));
    expect(own).toEqual(renderedFlags(GLOBAL_OPTIONS));
  });

  it.each(commands.map((def) => [def.path.join(' '), def] as const))('%s: every option commander knows is a declared one, in order', (_name, def) => {
    const own = find(def.path)
      .options.map((o) => o.flags)
      .filter((flags) => !COMMANDERS.includes(flags));
    expect(own).toEqual(renderedFlags(optionsOf(def, commands)));
  });

  it('no verb file writes a type for its options: run receives them as declared', () => {
    const handWritten = [
      /\bdefineCommand</, // type arguments given instead of inferred
      /\binterface \w*(Opts|Options|Flags)\b/,
      /\bopts\??\s*:\s*\{/,
      /\brun(?:\s*:\s*async)?\s*\(\s*\w+\s*,\s*[^,()]+,\s*\w+\s*:/, // run(ctx, args, opts: …)
    ];
    const found = sourceFiles('src/commands').flatMap((file) => {
      const text = readFileSync(join(repo, file), 'utf8');
      return handWritten.filter((pattern) => pattern.test(text)).map((pattern) => `${file} ${pattern}`);
    });
    expect(found).toEqual([]);
  });

  it('the scan of verb files finds each hand-written form', () => {
    const forms = ['defineCommand<Opts>({', 'interface ListOpts extends HistoryOpts {', 'run: async (ctx, _args, opts: { all?: boolean }) => {', 'async run(ctx, [id], opts: ResumeOpts) {'];
    const patterns = [/\bdefineCommand</, /\binterface \w*(Opts|Options|Flags)\b/, /\bopts\??\s*:\s*\{/, /\brun(?:\s*:\s*async)?\s*\(\s*\w+\s*,\s*[^,()]+,\s*\w+\s*:/];
    for (const form of forms) expect(patterns.some((p) => p.test(form)), form).toBe(true);
    expect(patterns.some((p) => p.test('async run(ctx, [id], opts) {'))).toBe(false);
  });

  it('an option’s help names no exit code: it is read by a person and by an agent’s tool alike', () => {
    expect(everyDeclaration.length).toBeGreaterThan(100);
    expect(everyDeclaration.filter((d) => /\bexit (code )?[0-9]/i.test(d.help ?? '')).map((d) => d.flags)).toEqual([]);
  });
});
