// The command reference, read from the commander tree (the one source of dispatch, help
// and completions): `bo help reference` prints it as Markdown, and the build writes the
// man pages (man/bo.1, man/bo-<group>-<verb>.1) from the same model (./man.ts).

import type { Command, Help } from 'commander';
import { examplesOf } from './examples.js';

export interface DocItem {
  term: string;
  description: string;
}

export interface DocCommand {
  /** Names from the root: [] for `bo`, ['accounts', 'list'] for a verb. */
  path: string[];
  summary: string;
  description: string;
  /** `bo accounts list [options]`. */
  usage: string;
  args: DocItem[];
  options: DocItem[];
  examples: string[];
  /** Visible subcommands (help commands left out: every level has one). */
  commands: DocCommand[];
}

/** The visible tree under `cmd`: hidden commands and the `help` commands left out. */
export function docTree(cmd: Command, path: string[] = []): DocCommand {
  const helper: Help = cmd.createHelp();
  // Descriptions unwrapped: each output wraps them itself.
  helper.prepareContext({ helpWidth: 10_000 });
  return {
    path,
    summary: cmd.summary() || firstSentence(cmd.description()),
    description: cmd.description(),
    usage: helper.commandUsage(cmd),
    args: helper.visibleArguments(cmd).map((a) => ({ term: helper.argumentTerm(a), description: helper.argumentDescription(a) })),
    options: helper.visibleOptions(cmd).map((o) => ({ term: helper.optionTerm(o), description: helper.optionDescription(o) })),
    examples: examplesOf(cmd),
    commands: helper
      .visibleCommands(cmd)
      .filter((c) => c.name() !== 'help')
      .map((c) => docTree(c, [...path, c.name()])),
  };
}

/** Every command of the tree, parents before their children (the root first). */
export function flatten(doc: DocCommand): DocCommand[] {
  return [doc, ...doc.commands.flatMap(flatten)];
}

function firstSentence(text: string): string {
  return text.split(/(?<=\.)\s/)[0] ?? text;
}

/** `bo help reference`: every command with its usage, arguments, options and examples. */
export function markdownReference(program: Command): string {
  const root = docTree(program);
  const out: string[] = [`# bo reference`, '', root.description, ''];
  out.push('## Global options', '', 'Every command takes these, before or after its own words.', '', ...items(root.options), '');
  for (const doc of flatten(root).slice(1)) {
    out.push(`## \`${doc.usage}\``, '', doc.description, '');
    const own = doc.options.filter((o) => o.term !== '-h, --help');
    if (doc.commands.length > 0) {
      out.push(...doc.commands.map((c) => `- \`${['bo', ...c.path].join(' ')}\`: ${c.summary}`), '');
      // A group; but a verb that is also a group (bo mcp, with bo mcp install) shows its options and examples too.
      if (own.length === 0) continue;
    }
    if (doc.args.length > 0) out.push('Arguments:', '', ...items(doc.args), '');
    if (own.length > 0) out.push('Options:', '', ...items(own), '');
    if (doc.examples.length > 0) out.push('Examples:', '', '```sh', ...doc.examples, '```', '');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function items(list: DocItem[]): string[] {
  return list.map((i) => `- \`${i.term}\`${i.description ? `: ${i.description}` : ''}`);
}
