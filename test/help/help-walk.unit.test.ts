// Walks the whole command tree and renders every help page as a user would see it
// (`bo <path> --help`, `bo help <path>`, `bo <group> help <verb>`): every command has a
// summary and an example, groups show their verbs' examples, no line cites an internal
// decision number, and descriptions are left to commander to wrap.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { defineCommand } from '../../src/command.js';
import { exampleCommand } from '../../src/help/examples.js';
import { buildProgram } from '../../src/program.js';
import { runBo } from '../helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const decisionNumber = /\bD[0-9]+\b/;

function walk(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  return [{ path, cmd }, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

const tree = buildProgram(commands, async () => {});
const all = walk(tree);

describe('help of every command', () => {
  it('covers the whole tree: root, groups, verbs and the help commands', () => {
    expect(all.some((n) => n.path.join(' ') === 'accounts list')).toBe(true);
    expect(all.some((n) => n.path.join(' ') === 'accounts help')).toBe(true);
    expect(all.some((n) => n.path.join(' ') === 'help')).toBe(true);
    expect(all.length).toBeGreaterThan(commands.length);
  });

  it.each(all.map((n) => [n.path.join(' ') || '(bo)', n] as const))('%s: a summary, an example, no decision number', async (_name, node) => {
    const r = await runBo([...node.path, '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const page = r.stdout;
    // A one-line summary: the command's own, shown in its parent's list too.
    const summary = node.cmd.summary() || node.cmd.description();
    expect(summary.trim()).not.toBe('');
    expect(summary).not.toContain('\n');
    expect(page).toContain(`Usage: bo ${node.path.join(' ')}`.trimEnd());
    // At least one example, a line that runs bo.
    const examples = page.split('\nExamples:\n')[1];
    expect(examples, 'an Examples: section').toBeDefined();
    expect(examples!.split('\n').filter((l) => /^ {2}\S/.test(l) && /\bbo\b/.test(l)).length).toBeGreaterThan(0);
    // No line cites an internal decision number.
    for (const line of page.split('\n')) expect(line).not.toMatch(decisionNumber);
    // Arguments are shown as <placeholder> or [optional].
    for (const arg of node.cmd.registeredArguments) {
      expect(page).toMatch(arg.required ? `<${arg.name()}` : `[${arg.name()}`);
    }
  });

  it.each(all.filter((n) => n.path.length > 0 && n.path.at(-1) !== 'help').map((n) => [n.path.join(' '), n.path] as const))(
    'bo help %s prints the same page, on stdout, exit 0',
    async (_name, path) => {
      const flag = await runBo([...path, '--help']);
      const viaHelp = await runBo(['help', ...path]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stderr).toBe('');
      expect(viaHelp.stdout).toBe(flag.stdout);
      if (path.length === 2) {
        const viaGroup = await runBo([path[0]!, 'help', path[1]!]);
        expect(viaGroup.code).toBe(0);
        expect(viaGroup.stdout).toBe(flag.stdout);
      }
    },
  );

  it('bo help and bo <group> help print the root and group pages', async () => {
    const root = await runBo(['help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toBe((await runBo(['--help'])).stdout);
    const group = await runBo(['accounts', 'help']);
    expect(group.code).toBe(0);
    expect(group.stdout).toBe((await runBo(['accounts', '--help'])).stdout);
    expect(group.stdout).toContain('list');
  });

  it('descriptions carry no hard line breaks: commander wraps them to the terminal', () => {
    for (const node of all) {
      // A paragraph break is allowed; a line broken inside a paragraph is not.
      expect(node.cmd.description().replace(/\n\n/g, ''), node.path.join(' ')).not.toContain('\n');
      for (const o of node.cmd.options) expect(o.description, `${node.path.join(' ')} ${o.flags}`).not.toContain('\n');
    }
  });

  it('a description is one line in a wide terminal and wraps within a narrow one', () => {
    const accountsList = all.find((n) => n.path.join(' ') === 'accounts list')!.cmd;
    const description = accountsList.description();
    const render = (width: number) => {
      let text = '';
      accountsList.configureOutput({ writeOut: (s) => (text += s), getOutHelpWidth: () => width });
      accountsList.outputHelp();
      return text;
    };
    expect(render(1000)).toContain(`\n${description}\n`);
    const narrow = render(40);
    const paragraph = narrow.split('\n\n')[1]!;
    expect(paragraph.split('\n').length).toBeGreaterThan(2);
    for (const line of paragraph.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(paragraph.replace(/\n/g, ' ')).toBe(description);
  });
});

describe('group help shows examples of its verbs', () => {
  const groups = tree.commands.filter((c) => c.commands.length > 0);

  it.each(groups.map((g) => [g.name(), g] as const))('bo %s --help lists the first example of each verb', async (name) => {
    const r = await runBo([name, '--help']);
    expect(r.code).toBe(0);
    const examples = r.stdout.split('\nExamples:\n')[1] ?? '';
    for (const def of commands.filter((d) => d.path.length === 2 && d.path[0] === name)) {
      expect(examples).toContain(exampleCommand(def.examples[0]!));
    }
  });

  it('a verb added to a group brings its example to the group help', () => {
    const extra = defineCommand({
      path: ['accounts', 'frobnicate'],
      summary: 'A verb another engineer might add',
      examples: ['bo accounts frobnicate acc_1'],
      run: async () => {},
    });
    const program = buildProgram([...commands, extra], async () => {});
    const group = program.commands.find((c) => c.name() === 'accounts')!;
    let text = '';
    group.configureOutput({ writeOut: (s) => (text += s) });
    group.outputHelp();
    expect(text).toContain('  bo accounts frobnicate acc_1');
    expect(text).toContain('  bo accounts list --q acme');
  });
});

describe('help topics', () => {
  it('bo help environment lists every variable bo reads', async () => {
    const r = await runBo(['help', 'environment']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const name of [
      'BO_PROFILE', 'BO_BASE_URL', 'BO_SANDBOX', 'BO_TOKEN', 'BO_API_KEY', 'BO_API_SECRET', 'BO_NO_INPUT', 'BO_DEBUG',
      'BO_TIMEOUT', 'BO_CONFIG_DIR', 'BO_DATA_DIR', 'BO_KEYCHAIN_TIMEOUT', 'BO_TOTP_SECRET', 'XDG_CONFIG_HOME',
      'XDG_DATA_HOME', 'HOME', 'NO_COLOR', 'TERM', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  (\\S+, )*${name}\\b`, 'm'));
    }
    expect(r.stdout).not.toMatch(decisionNumber);
  });

  it('names every upper-case variable the source reads (a new one must be added to the topic)', async () => {
    const root = join(import.meta.dirname, '..', '..', 'src');
    const read = new Set<string>();
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)\b|\b(BO_[A-Z0-9_]+)\b/g)) read.add((m[1] ?? m[2])!.toUpperCase());
    }
    expect(read.size).toBeGreaterThan(15);
    const r = await runBo(['help', 'environment']);
    for (const name of read) expect(r.stdout, name).toMatch(new RegExp(`^  (\\S+, )*${name}\\b`, 'm'));
  });

  it('bo help exit-codes gives every code, its meaning and what a script should do', async () => {
    const r = await runBo(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 129, 130, 141, 143]) expect(r.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
    expect(r.stdout.match(/Script: /g)).toHaveLength(10);
    // The pipe and signal rules.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('Pipes and signals never turn a failure into success');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('a batch whose stdout closes exits 141');
    expect(r.stdout).not.toMatch(decisionNumber);
  });

  it('the root help names the topics', async () => {
    const r = await runBo(['--help']);
    expect(r.stdout).toContain('bo help environment');
    expect(r.stdout).toContain('bo help exit-codes');
  });
});

describe('typos suggest the nearest name', () => {
  it.each([
    [['help', 'acounts'], "unknown command or help topic 'acounts' (did you mean accounts?)"],
    [['help', 'exit-code'], "unknown command or help topic 'exit-code' (did you mean exit-codes?)"],
    [['help', 'enviroment'], 'did you mean environment?'],
    [['help', 'accounts', 'lsit'], "unknown command 'accounts lsit' (did you mean list?)"],
    [['accounts', 'help', 'gte'], "unknown command 'accounts gte' (did you mean get?)"],
    [['accounts', 'lst'], 'did you mean list?'],
    [['acounts', 'list'], 'did you mean accounts?'],
    [['accounts', 'list', '--limt', '5'], 'did you mean --limit?'],
    [['accounts', 'list', '--verbos'], 'did you mean --verbose?'],
    [['--profle', 'x', 'accounts', 'list'], 'did you mean --profile?'],
  ])('bo %j', async (argv, expected) => {
    const r = await runBo(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(expected);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
  });
});
