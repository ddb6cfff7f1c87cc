// `bo completion bash|zsh|fish`: prints the completion script for the shell. The
// generators and the command tree are imported only when this runs.

import { Argument } from 'commander';
import { defineCommand } from '../command.js';

export default defineCommand({
  path: ['completion'],
  summary: 'Print the shell completion script for bash, zsh or fish',
  description:
    'Print a script that completes commands, subcommands, flags, their fixed values and file names. ' +
    'Profile names and setting keys come from a quick bo call at TAB time that reads only the ' +
    'config file (no keychain, no network). Write the script again after upgrading bo.',
  examples: [
    'bo completion bash > ~/.local/share/bash-completion/completions/bo',
    'bo completion zsh > ~/.zfunc/_bo     # with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    'bo completion fish > ~/.config/fish/completions/bo.fish',
    'source <(bo completion bash)         # this shell only',
  ],
  configure: (cmd) => cmd.addArgument(new Argument('<shell>', 'the shell to complete for').choices(['bash', 'zsh', 'fish'])),
  run: async (ctx, args) => {
    const shell = args[0] as 'bash' | 'zsh' | 'fish';
    const [{ completionScript }, { buildProgram }, { commands }] = await Promise.all([
      import('../completion/script.js'),
      import('../program.js'),
      import('./index.js'),
    ]);
    // The same tree main.ts dispatches with; its actions are never called here.
    const program = buildProgram(commands, async () => {});
    ctx.io.stdout.write(completionScript(shell, program));
  },
});
