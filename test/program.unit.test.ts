import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands, verbPaths } from '../src/commands/index.js';
import { buildProgram } from '../src/program.js';
import { runBo } from './helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

function verbs(cmd: Command, prefix: string[] = []): string[][] {
  // `help` at each level is the program's own, not a verb definition.
  return cmd.commands
    .filter((c) => c.name() !== 'help')
    // A verb that is also a group (bo mcp, with bo mcp install) has an action of its own.
    .flatMap((c) => (c.commands.length ? [...((c as unknown as { _actionHandler: unknown })._actionHandler ? [[...prefix, c.name()]] : []), ...verbs(c, [...prefix, c.name()])] : [[...prefix, c.name()]]));
}

describe('the registry (src/commands/index.ts)', () => {
  it('lists every verb once, in help order, under the path its definition declares', () => {
    expect(commands.map((def) => def.path)).toEqual(verbPaths);
    expect(new Set(verbPaths.map((path) => path.join(' '))).size).toBe(verbPaths.length);
  });

  it('loads only the verbs asked for', async () => {
    const addons = await loadCommands((path) => path[0] === 'addons');
    expect(addons.map((def) => def.path.join(' '))).toEqual(['addons list', 'addons preview', 'addons expire']);
    expect(await loadCommands((path) => path.join(' ') === 'completion')).toEqual([expect.objectContaining({ path: ['completion'] })]);
  });
});

describe('verb arguments', () => {
  // A verb's required arguments are declared in its definition (`operands`, or a
  // mutation's target and args), so they reach its run typed; none is added by hand.
  const tree = buildProgram(commands, async () => {});
  const find = (path: string[]): Command => path.reduce<Command>((cmd, name) => cmd.commands.find((c) => c.name() === name)!, tree);

  it.each(commands.filter((def) => def.mutation === undefined).map((def) => [def.path.join(' '), def] as const))(
    '%s: the arguments commander knows are those its definition declares',
    (_name, def) => {
      const registered = find(def.path).registeredArguments.map((a) => `<${a.name()}>`);
      expect(registered).toEqual((def.operands ?? []).map((o) => o.name));
      // `__complete` is commands/complete.ts.
      const text = readFileSync(new URL(`../src/commands/${def.path.join('/').replace(/^__/, '')}.ts`, import.meta.url), 'utf8');
      expect(text).not.toMatch(/\.(argument|addArgument)\(/);
    },
  );

  it('hands `config get` its key as given, and checks it', async () => {
    const r = await runBo(['config', 'get', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown config key "nope"');
  });
});

describe('program', () => {
  it('prints help with examples and the exit codes', async () => {
    const r = await runBo(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: bo');
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('130 interrupted');
  });

  it('gives every verb a summary and at least one example in --help', async () => {
    const tree = buildProgram(commands, async () => {});
    const all = verbs(tree);
    expect(all.length).toBe(commands.length);
    for (const path of all) {
      const r = await runBo([...path, '--help']);
      expect(r.code, path.join(' ')).toBe(0);
      expect(r.stdout, path.join(" ")).toMatch(/Examples:\n {2}\S.*\bbo |Examples:\n {2}bo /);
    }
  });

  it('rejects an unknown command with exit 2 and a suggestion', async () => {
    const r = await runBo(['acounts', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'acounts'");
    expect(r.stderr).toContain('did you mean accounts?');
  });

  it('rejects an unknown flag with exit 2 and a suggestion', async () => {
    const r = await runBo(['accounts', 'list', '--limt', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--limt'");
    expect(r.stderr).toContain('did you mean --limit?');
  });

  it('names an unknown flag before a missing required one, with its suggestion', async () => {
    const r = await runBo(['accounts', 'extend-trial', 'acc_1', '--too', '2027-01-31']);
    expect(r.stderr).toBe("error: unknown option '--too'\n(did you mean --to?)\n");
    expect(r.code).toBe(2);
  });

  it('prints the version', async () => {
    const r = await runBo(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('treats a bare group as a usage error that shows its verbs', async () => {
    const r = await runBo(['accounts']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('list');
  });

  it('rejects a bad --timeout and --max-retries before anything runs', async () => {
    const t = await runBo(['--timeout', 'soon', 'accounts', 'list']);
    expect(t.code).toBe(2);
    expect(t.stderr).toBe('error: --timeout must be a number of seconds from 0.1 to 86400 (24 h), got "soon"\n');
    const m = await runBo(['--max-retries', '-1', 'accounts', 'list']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/^error: --max-retries must be a whole number/);
  });
});
