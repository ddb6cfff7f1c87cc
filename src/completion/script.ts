// One entry point for `bo completion <shell>` and the build: the program's commander
// tree in, the shell's script out.

import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree } from './tree.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where `npm run build` writes each script (and where the staleness test reads it). */
export const SCRIPT_FILES: Record<Shell, string> = {
  bash: 'completions/bo.bash',
  zsh: 'completions/_bo',
  fish: 'completions/bo.fish',
};

export function completionScript(shell: Shell, program: Command): string {
  const tree = completionTree(program);
  if (shell === 'bash') return bashScript(tree);
  if (shell === 'zsh') return zshScript(tree);
  return fishScript(tree);
}
