// Build time (scripts/top-help.mjs) and the staleness test: the parts of `bo --help`
// taken from the commander tree itself, so the pre-rendered help never has a second
// source. top-help-render.ts prints them at run time.

import type { Command } from 'commander';
import type { TopHelp } from './top-help-render.js';

export function captureTopHelp(program: Command): TopHelp {
  const helper = program.createHelp();
  helper.prepareContext({ helpWidth: 80 });
  let full = '';
  program.configureOutput({ writeOut: (s) => (full += s), getOutHelpWidth: () => 80, getOutHasColors: () => false });
  program.outputHelp();
  const generated = helper.formatHelp(program, helper);
  if (!full.startsWith(generated)) throw new Error('top help: text before the generated help is not supported');
  return {
    version: program.version() ?? '',
    usage: `Usage: ${helper.commandUsage(program)}`,
    description: helper.commandDescription(program),
    termWidth: helper.padWidth(program, helper),
    sections: [
      { title: 'Arguments:', items: helper.visibleArguments(program).map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)]) },
      { title: 'Options:', items: helper.visibleOptions(program).map((o) => [helper.optionTerm(o), helper.optionDescription(o)]) },
      { title: 'Commands:', items: helper.visibleCommands(program).map((c) => [helper.subcommandTerm(c), helper.subcommandDescription(c)]) },
    ],
    after: full.slice(generated.length),
  };
}
