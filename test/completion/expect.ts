// Expectations read from a commander tree through commander's own help API (what
// `--help` lists), independently of src/completion/tree.ts.

import type { Command, Option } from 'commander';

export function find(program: Command, path: string[]): Command {
  let cmd = program;
  for (const name of path) {
    const next = cmd.commands.find((c) => c.name() === name);
    if (!next) throw new Error(`no command ${path.join(' ')}`);
    cmd = next;
  }
  return cmd;
}

/** Subcommand names `bo <path> <TAB>` should offer, sorted. */
export function subcommands(program: Command, path: string[]): string[] {
  const cmd = find(program, path);
  return cmd.createHelp().visibleCommands(cmd).map((c) => c.name()).sort();
}

/** Options valid at a command: its own (with help) and the root's, which work anywhere. */
export function optionsAt(program: Command, path: string[]): Option[] {
  const cmd = find(program, path);
  const own = cmd.createHelp().visibleOptions(cmd);
  return path.length === 0 ? own : [...own, ...program.options.filter((o) => !o.hidden)];
}

/** Long flags `bo <path> --<TAB>` should offer, sorted. */
export function longFlags(program: Command, path: string[]): string[] {
  return [...new Set(optionsAt(program, path).flatMap((o) => (o.long ? [o.long] : [])))].sort();
}

/** Every command path of the tree with its command, the root and hidden commands excluded. */
export function paths(program: Command): Array<{ path: string[]; cmd: Command }> {
  const out: Array<{ path: string[]; cmd: Command }> = [];
  const visit = (cmd: Command, path: string[]) => {
    const visible = cmd.createHelp().visibleCommands(cmd);
    for (const c of cmd.commands.filter((c) => visible.includes(c))) {
      out.push({ path: [...path, c.name()], cmd: c });
      visit(c, [...path, c.name()]);
    }
  };
  visit(program, []);
  return out;
}
