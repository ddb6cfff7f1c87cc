// `bo completion bash|zsh|fish`: prints the completion script for the shell. The
// command definitions come from the registry (commands/index.ts) through the context
// (ctx.definitions()), so this file never imports it.

import { defineCommand } from '../command.js';
import { completionScript } from '../completion/script.js';
import { buildProgram } from '../program.js';
import { operand } from '../input/declare.js';

/** The completion command: every command, read when the script is written. */
export default defineCommand({
  path: ['completion'],
  summary: 'Print the shell completion script for bash, zsh or fish',
  description:
    'Print a script that completes commands, subcommands, flags, their fixed values and file names. ' +
    'Profile names and setting keys come from a quick bo call at TAB time that reads only the ' +
    'config file (no keychain, no network). Write the script again after upgrading bo. ' +
    'The folders the examples write to may not exist yet on a fresh machine: mkdir -p creates them first.',
  examples: [
    'mkdir -p ~/.local/share/bash-completion/completions && bo completion bash > ~/.local/share/bash-completion/completions/bo',
    'mkdir -p ~/.zfunc && bo completion zsh > ~/.zfunc/_bo     # with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    'mkdir -p ~/.config/fish/completions && bo completion fish > ~/.config/fish/completions/bo.fish',
    'source <(bo completion bash)         # this shell only',
  ],
  operands: [operand.choice('<shell>', 'the shell to complete for', ['bash', 'zsh', 'fish'])],
  run: async (ctx, [shell]) => {
    // The same tree main.ts dispatches with; its actions are never called here.
    const program = buildProgram(await ctx.definitions(), async () => {});
    ctx.io.stdout.write(completionScript(shell, program));
  },
});
