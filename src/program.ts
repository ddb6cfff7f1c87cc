// Builds the commander tree from the command definitions: global options, groups,
// verbs, help with examples, `help` at every level. Only commander (and plain text
// modules) load here.

import { Argument, Command, CommanderError, Option } from 'commander';
import type { EventEmitter } from 'node:events';
import { groupExamples, groups, type CommandDefinition } from './command.js';
import { addExamples, CommandWithExamples, type Example } from './help/examples.js';
import { addHelpCommand } from './help/help-command.js';
import { nearest } from './help/suggest.js';
import { fieldsOf } from './input/fields.js';
import { topicNames } from './help/topics.js';
import { groupUidNotes } from './help/uid-sources.js';
import { VERSION } from './version.js';
import { option, optionsOf, type OperandDeclaration, type OptionDeclaration } from './input/declare.js';

export type Action = (def: CommandDefinition<any>, cmd: Command, args: unknown[]) => Promise<void>;

/** The options every verb takes (COMMANDS.md "Global options"), as data. */
export const GLOBAL_OPTIONS = [
  option.text('-p, --profile <name>', 'tenant profile (env BO_PROFILE; default: the one chosen with "bo profiles use", else "default")'),
  option.text('--base-url <url>', 'tenant root, e.g. https://acme.example.com (env BO_BASE_URL)'),
  option.switch('--sandbox', 'use the embedded sandbox (env BO_SANDBOX=1)'),
  option.switch('--json', 'JSON on stdout', { conflicts: ['jsonl', 'csv'] }),
  option.switch('--jsonl', 'one JSON record per line', { conflicts: ['json', 'csv'] }),
  option.switch(
    '--csv',
    "CSV on stdout (RFC 4180, header row) for lists and records; text starting with = + - @, tab or CR gets a leading ' so spreadsheets do not run it as a formula",
    { conflicts: ['json', 'jsonl', 'jq'] },
  ),
  option.text('--csv-separator <char>', "with --csv: the separator, , (the default) or ; or tab, as the spreadsheet's locale reads it (setting csv-separator)"),
  option.switch('--bom', 'with --csv: start with a UTF-8 byte order mark, so Excel reads non-ASCII text (setting csv-bom)'),
  option.text(
    '--jq <expression>',
    'filter the JSON output with jq (implies --json): . is the array or record --json prints, or each line with --jsonl; strings print raw, other values as JSON, one a line',
    { conflicts: ['csv'] },
  ),
  option.switch('--no-color', 'no colour (also NO_COLOR, TERM=dumb, or stdout not a TTY)'),
  option.switch('--no-input', 'never prompt (env BO_NO_INPUT=1; implied when stdin is not a TTY)'),
  option.switch('--no-log', 'keep requests out of the activity log (donotlog=1)'),
  option.switch('--verbose', 'HTTP trace on stderr, secrets redacted (env BO_DEBUG=1)'),
  option.text('--timeout <seconds>', 'per-request timeout (env BO_TIMEOUT; default 30)'),
  option.text('--max-retries <n>', 'retries for refused or failed requests (default 3)'),
] as const;

export function addGlobalOptions(program: Command): Command {
  for (const declared of GLOBAL_OPTIONS) addDeclaredOption(program, declared);
  return program;
}

/**
 * An option as commander reads it, rendered from its declaration: a choice's values (any
 * case accepted where declared so: the verb reads it), a list's uses gathered, a switch's
 * `--no-x`. Values stay as typed: the invocation types them (invocation.ts), for every caller alike.
 */
export function addDeclaredOption(cmd: Command, declared: OptionDeclaration): void {
  const made = new Option(declared.flags, declared.help);
  if (declared.required) made.makeOptionMandatory();
  if (declared.choices) made.choices(declared.choices);
  if (declared.anyCase) made.argParser((v: string) => v);
  if (declared.kind === 'list') made.argParser((v: string, previous: string[] | undefined) => [...(previous ?? []), v]);
  if (declared.conflicts) made.conflicts([...declared.conflicts]);
  // Shown to commander for help and completions (a list's `[]`); invocation.ts applies it for every caller.
  if (declared.default !== undefined) made.default(declared.default);
  cmd.addOption(made);
  if (declared.negation !== undefined) cmd.addOption(new Option(declared.flags.replace(/^--/, '--no-').split(' ')[0]!, declared.negation));
}

/** A verb's declared operands and options on its commander Command. */
export function addDeclarations(cmd: Command, def: CommandDefinition<any, any>, all: readonly CommandDefinition<any, any>[]): void {
  for (const { name, help, choices } of (def.operands ?? []) as readonly OperandDeclaration[]) {
    cmd.addArgument(choices ? new Argument(name, help).choices(choices) : new Argument(name, help));
  }
  for (const declared of optionsOf(def, all)) addDeclaredOption(cmd, declared);
  if (def.helpAfter !== undefined) cmd.addHelpText('after', def.helpAfter);
}

/** `bo --help`'s examples: the command, and what it shows. */
const rootExamples: Example[] = [
  ['bo --sandbox accounts list', 'try it on the embedded sandbox'],
  { example: ['bo login', 'sign in (two-factor prompts included)'], needs: 'a terminal: it asks for the password and code' },
  ['bo accounts list --q acme --json', 'machine output for scripts'],
  ['bo help accounts list', 'help for one command (or: bo accounts list --help)'],
];

/**
 * Help as bo writes it, for every command (subcommands inherit it): an option's
 * description says `(required)` where commander requires it, never commander's
 * `(default: "4010")` (a description states its default in words where useful), and
 * a narrow terminal still wraps descriptions at spaces rather than letting the terminal
 * cut words in two (commander stops wrapping under 40 columns of description).
 */
const helpConfiguration = {
  minWidthToWrap: 16,
  optionDescription(option: Option): string {
    const extra: string[] = [];
    if (option.argChoices) extra.push(`one of ${option.argChoices.join(', ')}`);
    if (option.mandatory) extra.push('required');
    return extra.length ? `${option.description} (${extra.join('; ')})` : option.description;
  },
};

export function buildProgram(defs: CommandDefinition<any>[], action: Action): Command {
  const program = new CommandWithExamples('bo')
    .configureHelp(helpConfiguration)
    .description('Admin tool for the subscription back office: people, accounts, billing, email, support.')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'help with examples')
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  addGlobalOptions(program);
  addExamples(program, rootExamples);
  program.addHelpText(
    'after',
    `Help topics: ${topicNames.map((t) => `bo help ${t}`).join(', ')}.
Exit codes: 0 ok, 1 request failed, 2 usage (or a confirmation declined or needed), 3 not found, 4 auth, 5 rate limited, 130 interrupted (129 SIGHUP, 143 SIGTERM), 141 batch output closed.`,
  );

  const groupCommands = new Map<string, CommandWithExamples>();
  /** Each group's verbs that print records: where an unknown verb of the group points. */
  const readers = new Map<Command, Array<[CommandDefinition<any>, Command]>>();
  for (const def of defs) {
    let parent = program;
    for (const name of def.path.slice(0, -1)) {
      // A verb that is also a group (bo mcp, and bo mcp install): its subcommands go under it.
      let group = groupCommands.get(name) ?? (parent.commands.find((c) => c.name() === name) as CommandWithExamples | undefined);
      if (group) groupCommands.set(name, group);
      if (!group) {
        // Its help (and man page) also says where the Uids its verbs take come from.
        const note = (groupUidNotes as Record<string, string | undefined>)[name];
        const summary = groups[name] ?? name;
        group = parent.command(name).summary(summary).description(note ? `${summary}. ${note}` : summary);
        group.showSuggestionAfterError(true);
        // A group's examples: its own (command.ts), then each verb's first example, so a
        // new verb brings its own.
        addExamples(group, groupExamples[name] ?? []);
        groupCommands.set(name, group);
      }
      if (def.examples[0]) addExamples(group, [def.examples[0]]);
      parent = group;
    }
    const verb = def.path[def.path.length - 1]!;
    const cmd = parent.command(verb, { hidden: def.hidden, isDefault: def.groupDefault === true }).summary(def.summary).description(def.description ?? def.summary);
    cmd.showSuggestionAfterError(true).allowExcessArguments(false);
    if (def.printsRecords && parent !== program) readers.set(parent, [...(readers.get(parent) ?? []), [def, cmd]]);
    addDeclarations(cmd, def, defs);
    if (def.groupDefault === true) unknownWordsAreCommands(parent, cmd);
    unknownOptionFirst(cmd, def);
    if (def.resource !== undefined) {
      // `--fields` alone lists the resource's fields (main.ts): the command's arguments
      // (`accounts get <accountUid>`) are then not needed.
      cmd.on('option:fields', (value: unknown) => {
        if (value == null) for (const arg of cmd.registeredArguments) arg.required = false;
      });
    }
    addExamples(cmd, def.examples);
    cmd.action(async (...args: unknown[]) => action(def, cmd, args.slice(0, -2)));
  }
  for (const group of groupCommands.values()) {
    unknownVerbPoints(group, readers.get(group) ?? []);
    addHelpCommand(group);
  }
  addHelpCommand(program);
  refuseContradictions(program);
  return program;
}

/** The flags that ask for help: an unknown option next to one still shows the help. */
const HELP_FLAGS = new Set(['-h', '--help']);

/**
 * An unknown option (`extend-trial acc_1 --days 14`) is the error reported, before a
 * required option that is missing (`--to`), a conflict or an argument count: commander
 * checks those first, so a typo was reported as something else. Checked as soon as the
 * verb's options are parsed, unless help was asked for. Thrown as an UnknownOptionError,
 * not yet written: main.ts first asks which other verbs take the option.
 */
function unknownOptionFirst(cmd: Command, def: CommandDefinition<any>): void {
  const parse = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv) => {
    const parsed = parse(argv);
    // As commander reads a verb's arguments, the first unknown one is an option.
    const [flag] = parsed.unknown;
    if (flag !== undefined && !parsed.unknown.some((arg) => HELP_FLAGS.has(arg))) throw new UnknownOptionError(cmd, def, flag);
    return parsed;
  };
}

/** Flags that search by part of a name: where a verb has none, --filter Name=… is its nearest. */
const SEARCH_FLAGS = ['--q', '--search'];

/**
 * An unknown option of a verb, worded as commander words it (`unknown option '--q'`,
 * with commander's guess: `(did you mean --jq?)`) until `report` is told which other
 * verbs take it: then it says so instead (`--q is an option of accounts list; lists
 * list searches with --filter Name=…`). A CommanderError, so a caller that does not ask
 * (a tool call, a plan) gets commander's words.
 */
export class UnknownOptionError extends CommanderError {
  readonly flag: string;

  constructor(
    private readonly cmd: Command,
    private readonly def: CommandDefinition<any>,
    given: string,
  ) {
    const flag = given.startsWith('--') ? given.split('=')[0]! : given;
    const known = [...cmd.options, ...globalOptions(cmd)].flatMap((o) => [o.long, o.short]).filter((n): n is string => !!n);
    const near = flag.startsWith('--') ? nearest(flag, known.filter((n) => n.startsWith('--'))) : [];
    const hint = near.length > 0 ? `\n(did you mean ${near.join(' or ')}?)` : '';
    super(1, 'commander.unknownOption', `error: unknown option '${given}'${hint}`);
    this.flag = flag;
  }

  /** The verb's words: `lists list`. */
  get path(): readonly string[] {
    return this.def.path;
  }

  /** Writes the error through commander (its output, its exit) and throws it: `elsewhere`, the other verbs that take the flag. */
  report(elsewhere: string[]): never {
    if (elsewhere.length === 0) this.cmd.error(this.message, { code: this.code, exitCode: this.exitCode });
    const shown = elsewhere.length > 3 ? [...elsewhere.slice(0, 3), `${elsewhere.length - 3} more`] : elsewhere;
    const named = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}` : shown[0]!;
    // A search flag of another verb: how this one searches, if it does.
    const own = this.cmd.options.find((o) => o.long !== undefined && SEARCH_FLAGS.includes(o.long))?.long;
    const byName = this.cmd.options.some((o) => o.long === '--filter') && this.def.resource !== undefined && fieldsOf(this.def.resource).some(([name]) => name === 'Name');
    const how = own ?? (byName ? '--filter Name=…' : undefined);
    const searches = SEARCH_FLAGS.includes(this.flag) && how !== undefined ? `; ${this.def.path.join(' ')} searches with ${how}` : '';
    const line = this.message.split('\n')[0]!;
    this.cmd.error(`${line}\n(${this.flag} is an option of ${named}${searches})`, { code: this.code, exitCode: this.exitCode });
  }
}

/** The verbs of `program` other than `path` that take `flag`, in help order (`accounts list`). */
export function verbsTaking(program: Command, flag: string, path: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (cmd: Command, words: string[]): void => {
    for (const sub of cmd.createHelp().visibleCommands(cmd)) {
      if (sub.name() === 'help') continue;
      const at = [...words, sub.name()];
      if (sub.commands.length > 0) walk(sub, at);
      else if (at.join(' ') !== path.join(' ') && sub.options.some((o) => o.long === flag || o.short === flag)) found.push(at.join(' '));
    }
  };
  walk(program, []);
  return found;
}

/** The options of the commands above `cmd` (the global ones): commander accepts them on a verb too. */
function globalOptions(cmd: Command): Option[] {
  const above: Option[] = [];
  for (let parent = cmd.parent; parent; parent = parent.parent) above.push(...parent.options);
  return above;
}

/**
 * An unknown verb of a group (`bo subscriptions get sub_1`, `bo addons lst`): commander's
 * words and its nearest verbs, then the way to the group's records, each verb that
 * prints them with what it does (`bo subscriptions list <accountUid> lists an account's
 * subscriptions`), or for a group with none, where its Uids come from (its help's note).
 */
function unknownVerbPoints(group: Command, verbs: Array<[CommandDefinition<any>, Command]>): void {
  const ways = verbs.map(([def, cmd]) => `${verbUsage(cmd)} ${doesWhat(def.summary)}`);
  const note = (groupUidNotes as Record<string, string | undefined>)[group.name()];
  const way = ways.length > 0 ? ways.join('; ') : note && `${note.charAt(0).toLowerCase()}${note.slice(1).replace(/\.$/, '')}`;
  if (way === undefined) return;
  // Commander's own report (its typings leave the method out), with the way added.
  const own = group as unknown as { unknownCommand(): never };
  const report = own.unknownCommand.bind(group);
  own.unknownCommand = () => {
    const error = group.error.bind(group);
    group.error = (message, options) => error(`${message}\n(${way})`, options);
    return report();
  };
}

/** `bo subscriptions list <accountUid>`: the verb and its required arguments. */
function verbUsage(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  const args = cmd.registeredArguments.filter((a) => a.required).map((a) => `<${a.name()}>`);
  return ['bo', ...words, ...args].join(' ');
}

/** A summary's first clause as what a verb does: "List an account's add-ons: …" → "lists an account's add-ons". */
function doesWhat(summary: string): string {
  const clause = summary.split(/:| \(/)[0]!.trim();
  const [verb = '', ...rest] = clause.split(' ');
  const lower = verb.toLowerCase();
  return [/(s|sh|ch|x)$/.test(lower) ? `${lower}es` : `${lower}s`, ...rest].join(' ');
}

/**
 * `--x` and `--no-x` of one command given both ways: commander lets the last one win;
 * this refuses it instead (exit 2, nothing sent), in whatever order and however often
 * they come. A pair is two options of the same command with one attribute name, one of
 * them negated: the global `--no-input` and `bo api --input <file>` belong to different
 * commands, so they are no pair. Runs on `cmd` and every command below it.
 */
export function refuseContradictions(cmd: Command): void {
  for (const no of cmd.options.filter((o) => o.negate)) {
    const yes = cmd.options.find((o) => !o.negate && o.attributeName() === no.attributeName());
    if (yes === undefined) continue;
    const key = no.attributeName();
    // Before commander stores the value: a value already set from the command line by
    // the other spelling is a contradiction (the negated one stores false).
    const check = (negated: boolean) => () => {
      if (cmd.getOptionValueSource(key) === 'cli' && (cmd.getOptionValue(key) === false) !== negated) {
        cmd.error(`error: ${yes.long} and ${no.long} contradict each other`, { exitCode: 2, code: 'bo.contradictingOptions' });
      }
    };
    // A Command is an EventEmitter (commander's typings declare only `on`).
    const events = cmd as unknown as EventEmitter;
    events.prependListener(`option:${yes.name()}`, check(false));
    events.prependListener(`option:${no.name()}`, check(true));
  }
  for (const sub of cmd.commands) refuseContradictions(sub);
}

/**
 * A group's default verb that takes no argument (`bo history` is `bo history list`):
 * a word after the group is a verb that does not exist, reported as every group
 * reports one (`unknown command 'bogus'`, with a suggestion), not as an argument
 * too many for the default verb. Commander hands the group's words on to the default
 * verb; this looks at them first. Options come after the words (`args[0]` is a word).
 */
function unknownWordsAreCommands(group: Command, verb: Command): void {
  group.hook('preSubcommand', (thisGroup, dispatched) => {
    if (dispatched !== verb || verb.registeredArguments.length > 0) return;
    const word = thisGroup.args[0];
    if (word === undefined || word.startsWith('-')) return;
    if (thisGroup.commands.some((c) => c.name() === word || c.aliases().includes(word))) return;
    // Commander's own report (its typings leave the method out): the same words and suggestion.
    (thisGroup as unknown as { unknownCommand(): never }).unknownCommand();
  });
}
