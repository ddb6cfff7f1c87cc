// The commander tree reduced to what a completion script needs: commands, flags, the
// values they take, fixed choices, and where file names fit. The three generators
// read this model, never commander itself, so every shell completes the same tree that
// dispatch and --help use (ARCHITECTURE principle 10).

import type { Argument, Command, Option } from 'commander';
import type { CompletionSource } from './dynamic.js';

/** What the word after a flag (or a positional argument) completes to. */
export type ValueKind =
  | { kind: 'none' } // boolean flag: no value
  | { kind: 'text' } // a value nothing can guess (a Uid, a date): complete nothing
  | { kind: 'choices'; choices: string[] }
  | { kind: 'file' }
  | { kind: 'atfile' } // text, or `@` and a file name to read it from (`<text|@file>`)
  // Values known only at TAB time: the script asks `bo __complete <source>`.
  | { kind: 'dynamic'; source: CompletionSource };

export interface FlagSpec {
  /** Short and/or long spelling, e.g. ['-p', '--profile']. */
  names: string[];
  description: string;
  value: ValueKind;
  /** The value may be left out (`--flag [value]`). */
  optionalValue: boolean;
  /** May be given more than once (`-F a=1 -F b=2`): shells keep offering it. */
  repeatable: boolean;
  /** Placeholder shown in zsh messages, e.g. 'name' for `<name>`. */
  valueName: string;
}

export interface ArgSpec {
  name: string;
  value: ValueKind;
  variadic: boolean;
  optional: boolean;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  /** Names from the root, e.g. ['accounts', 'list']; [] for `bo` itself. */
  path: string[];
  /** This command's own flags, including its help flag (globals are separate). */
  flags: FlagSpec[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

export interface CompletionTree {
  /** The program name (`bo`): the command the scripts register for. */
  name: string;
  root: CommandSpec;
  /** The root's options: commander accepts them anywhere on the line. */
  globals: FlagSpec[];
}

/**
 * Flags whose value is a file although their placeholder does not say so. Authors can
 * also just name the placeholder `<file>` (or `<file|->`, `<path>`); `<text|@file>`
 * completes file names after an `@`.
 */
const FILE_FLAGS = new Set(['--input', '--qr-png', '--recovery-codes-file', '--state']);

/** Values the scripts ask `bo __complete` for: profile names and setting keys. */
const DYNAMIC_FLAGS = new Map<string, CompletionSource>([['--profile', 'profiles']]);
const DYNAMIC_ARGS = new Map<string, CompletionSource>([
  ['profiles use <name>', 'profiles'],
  ['profiles remove <name>', 'profiles'],
  ['config get <key>', 'settings'],
  ['config set <key>', 'settings'],
  ['config unset <key>', 'settings'],
]);

/** Names that end up inside shell code: anything else is refused at build time. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;
const SAFE_FLAG = /^--?[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function completionTree(program: Command): CompletionTree {
  const help = program.createHelp();
  const rootOptions = new Set(program.options);
  const globals = program.options.filter((o) => !o.hidden).map((o) => flagSpec(o));

  function walk(cmd: Command, path: string[]): CommandSpec {
    const own = help.visibleOptions(cmd).filter((o) => !rootOptions.has(o));
    // Options of intermediate groups are inherited by their subcommands too.
    for (let up = cmd.parent; up && up !== program; up = up.parent) {
      // But a verb that is also a group (bo mcp, with bo mcp install) keeps its options to itself.
      if ((up as unknown as { _actionHandler: unknown })._actionHandler) continue;
      own.push(...up.options.filter((o) => !o.hidden));
    }
    const children = help.visibleCommands(cmd);
    const siblings = children.map((c) => c.name()).filter((n) => n !== 'help');
    return {
      name: checkName(cmd.name()),
      aliases: cmd.aliases().map(checkName),
      description: oneLine(cmd.summary() || cmd.description()),
      path,
      flags: own.map((o) => flagSpec(o)),
      args: cmd.registeredArguments.map((a) => argSpec(a, path)),
      commands: children.map((c) => {
        const spec = walk(c, [...path, c.name()]);
        // `help [command...]` (program.ts adds one at every level) takes one of its siblings.
        if (c.name() === 'help' && spec.args[0]) {
          spec.args[0].value = { kind: 'choices', choices: siblings };
        }
        return spec;
      }),
    };
  }

  return { name: checkName(program.name()), root: walk(program, []), globals };
}

function flagSpec(option: Option): FlagSpec {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  for (const n of names) {
    if (!SAFE_FLAG.test(n)) throw new Error(`completion: flag ${JSON.stringify(n)} is not a plain flag name`);
  }
  const valueName = /[<[]([^>\]]*)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, '') ?? '';
  let value: ValueKind = { kind: 'none' };
  const dynamic = option.long === undefined ? undefined : DYNAMIC_FLAGS.get(option.long);
  if (dynamic && (option.required || option.optional)) {
    value = { kind: 'dynamic', source: dynamic };
  } else if (option.required || option.optional) {
    value = valueKind(valueName, option.argChoices, option.long !== undefined && FILE_FLAGS.has(option.long));
  }
  return {
    names,
    description: oneLine(option.description),
    value,
    optionalValue: option.optional,
    repeatable: option.variadic || Array.isArray(option.defaultValue),
    valueName: valueName || 'value',
  };
}

function argSpec(argument: Argument, path: string[]): ArgSpec {
  const dynamic = DYNAMIC_ARGS.get(`${path.join(' ')} <${argument.name()}>`);
  return {
    name: argument.name(),
    value: dynamic ? { kind: 'dynamic', source: dynamic } : valueKind(argument.name(), argument.argChoices, false),
    variadic: argument.variadic,
    optional: !argument.required,
  };
}

function valueKind(placeholder: string, choices: string[] | undefined, fileFlag: boolean): ValueKind {
  if (choices && choices.length > 0) {
    for (const c of choices) {
      if (/[\u0000-\u001f\u007f]/.test(c) || c === '') {
        throw new Error(`completion: choice ${JSON.stringify(c)} cannot be typed in a shell`);
      }
    }
    return { kind: 'choices', choices: [...choices] };
  }
  const alternatives = placeholder.split('|').map((p) => p.trim().toLowerCase());
  if (fileFlag || alternatives.some((p) => p === 'file' || p === 'path' || p.endsWith('-file'))) {
    return { kind: 'file' };
  }
  return alternatives.includes('@file') ? { kind: 'atfile' } : { kind: 'text' };
}

function checkName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`completion: command name ${JSON.stringify(name)} is not a plain word`);
  return name;
}

/** Descriptions go into shell strings: one line, no control characters. */
function oneLine(text: string): string {
  return text
    .split('\n')[0]!
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every command of the tree, the root first, in a stable order. */
export function allCommands(tree: CompletionTree): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (c: CommandSpec) => {
    out.push(c);
    c.commands.forEach(visit);
  };
  visit(tree.root);
  return out;
}
