// `help` at every level: `bo help`, `bo help accounts list`, `bo accounts help`,
// `bo accounts help list`, and the topics `bo help environment`, `bo help exit-codes`
// and `bo help reference` (every command, as Markdown). Help goes to stdout, exit 0;
// an unknown name is a usage error with the nearest suggestion.

import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { markdownReference } from './reference.js';
import { didYouMean } from './suggest.js';
import { renderTopic, topicNames, type Layout } from './topics.js';

function findChild(parent: Command, name: string): Command | undefined {
  return parent.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** Adds `help [command...]` to `parent` (the root also answers the topics). */
export function addHelpCommand(parent: Command): void {
  parent.helpCommand(false);
  const isRoot = !parent.parent;
  const topics = isRoot ? ` or a topic: ${topicNames.join(', ')}` : '';
  const help = parent
    .command('help')
    .argument('[command...]', isRoot ? `a command${topics}` : 'a command')
    .summary(`Show help for a command${topics}`)
    .description(`Show help for a command${topics}. Help goes to stdout; "--help" after any command does the same.`)
    .showSuggestionAfterError(true);
  const prefix = pathOf(parent);
  const examples = isRoot
    ? ['bo help accounts list', 'bo help environment', 'bo help exit-codes', 'bo help reference > bo-reference.md']
    : [`bo ${prefix} help`, ...(parent.commands[0] ? [`bo ${prefix} help ${parent.commands[0].name()}`] : [])];
  help.addHelpText('after', () => `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
  help.action((words: string[]) => {
    const write = help.configureOutput().writeOut ?? ((s: string) => void s);
    if (isRoot && words.length === 1 && words[0] === 'reference') return write(markdownReference(parent));
    if (isRoot && words.length === 1) {
      const topic = renderTopic(words[0]!, layout(help));
      if (topic !== undefined) return write(topic);
    }
    let target = parent;
    for (const word of words) {
      const child = findChild(target, word);
      if (!child) {
        const names = target.commands.map((c) => c.name()).filter((n) => n !== 'help');
        const candidates = target === parent && isRoot ? [...names, ...topicNames] : names;
        const what = isRoot && target === parent ? 'command or help topic' : 'command';
        throw new UsageError(`unknown ${what} '${[...pathOf(target).split(' ').filter(Boolean), word].join(' ')}'${didYouMean(word, candidates)}`, {
          hint: isRoot ? `bo help lists the commands; topics: ${topicNames.join(', ')}` : `bo ${pathOf(target)} help lists its commands`,
        });
      }
      target = child;
    }
    target.outputHelp();
  });
}

function layout(cmd: Command): Layout {
  const helper = cmd.createHelp();
  helper.prepareContext({ helpWidth: cmd.configureOutput().getOutHelpWidth?.() });
  return {
    paragraph: (text) => helper.boxWrap(text, helper.helpWidth ?? 80),
    item: (term, termWidth, description) => helper.formatItem(term, termWidth, description, helper),
  };
}

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
