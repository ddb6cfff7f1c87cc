// One invocation of a verb, and the one way to run it. An invocation is data: the verb's
// path and its operands and options by name, typed as the definition declares them
// (input/declare.ts), so it can be stored (a plan, a journal run) and built by any
// caller. The command line makes one from commander's parse; `bo mcp` from a tool call's
// arguments; `bo plan apply` and `bo batch resume` read a stored one. Every caller runs
// it through invoke(), with its context and, when it wants values rather than printed
// text, a sink (output/value-sink.ts).

import type { Command } from 'commander';
import type { CommandDefinition } from './command.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { inexactError } from './input/number.js';
import { attributeName, isNegationOnly, longFlag, operandName, optionsOf, type OptionDeclaration } from './input/declare.js';
import { handleFieldFlags, type FieldFlags } from './output/field-list.js';
import type { ValueSink } from './output/value-sink.js';
import { buildProgram } from './program.js';

/** A value as an invocation holds it: JSON, as the declaration types it. */
export type InvocationValue = string | number | boolean | string[];

declare module './context.js' {
  interface Context {
    /** The invocation being run (invoke() derives the verb's context with it): what a journal run stores. */
    invocation?: Invocation;
  }
}

export interface Invocation {
  /** The verb's words: ['accounts', 'list']. */
  path: readonly string[];
  /** Its operands (by name, `accountUid`) and options (by attribute name, `pageSize`) that were given. */
  values: Record<string, InvocationValue>;
}

/** The options a definition declares, each with its attribute name. */
export function declaredOptions(def: CommandDefinition<any, any>): Array<{ name: string; declared: OptionDeclaration }> {
  return optionsOf(def, []).map((declared) => ({ name: attributeName(declared.flags), declared }));
}

/**
 * An integer option's text as a number within its bounds; anything else is exit 2 naming
 * the flag, in the declaration's words (`must`) or its bounds'.
 */
export function integerOf(declared: OptionDeclaration, text: string): number {
  const min = declared.minimum ?? 0;
  const max = declared.maximum ?? Number.MAX_SAFE_INTEGER;
  const trimmed = text.trim();
  const n = Number(trimmed);
  // A whole number past what a double holds exactly is refused as every number flag refuses one.
  if (/^\d+$/.test(trimmed) && !Number.isSafeInteger(n) && max >= Number.MAX_SAFE_INTEGER) throw inexactError(`${longFlag(declared.flags)} ${trimmed}`, trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${longFlag(declared.flags)} must be ${declared.must ?? `an integer from ${min} to ${max}`}, not ${JSON.stringify(text)}`);
  }
  return n;
}

/**
 * The invocation commander's parse of a command line stands for: the verb's operands and
 * its own options as given (global options are the context's), integers made numbers.
 */
export function invocationOf(def: CommandDefinition<any, any>, cmd: Command, args: readonly unknown[]): Invocation {
  const values: Record<string, InvocationValue> = {};
  (def.operands ?? []).forEach((declared: { name: string }, i: number) => {
    const value = args[i];
    if (value !== undefined) values[operandName(declared.name)] = value as string | string[];
  });
  for (const { name, declared } of declaredOptions(def)) {
    const value = cmd.getOptionValue(name) as InvocationValue | undefined;
    if (value === undefined || cmd.getOptionValueSource(name) === 'default') continue;
    values[name] = declared.kind === 'integer' && typeof value === 'string' ? integerOf(declared, value) : value;
  }
  return { path: def.path, values };
}

/**
 * What `run` receives of an invocation: the operands by position and the options, with
 * what was not given at its declared default (a `--no-x` alone: true). A required operand
 * or option missing, or two that conflict, is exit 2 naming them, whoever built it.
 */
export function argumentsOf(def: CommandDefinition<any, any>, invocation: Invocation): { operands: unknown[]; options: Record<string, unknown> } {
  const { values } = invocation;
  // `--fields` alone lists the resource's fields: the verb's arguments are then not needed (program.ts).
  const listingFields = def.resource !== undefined && values.fields === true;
  const operands = (def.operands ?? []).map((declared: { name: string }) => {
    const value = values[operandName(declared.name)];
    if (value === undefined && declared.name.startsWith('<') && !listingFields) throw new UsageError(`missing required argument '${operandName(declared.name)}'`);
    return value;
  });
  const options: Record<string, unknown> = {};
  const declaredList = declaredOptions(def);
  for (const { name, declared } of declaredList) {
    const value = values[name];
    if (value === undefined) {
      if (declared.required) throw new UsageError(`required option '${declared.flags}' not specified`);
      if (declared.default !== undefined) options[name] = declared.default;
      else if (isNegationOnly(declared)) options[name] = true;
      continue;
    }
    for (const other of declared.conflicts ?? []) {
      if (values[other] !== undefined) {
        const them = declaredList.find((d) => d.name === other);
        throw new UsageError(`option '${declared.flags}' cannot be used with option '${them?.declared.flags ?? other}'`);
      }
    }
    options[name] = value;
  }
  return { operands, options };
}

/**
 * Runs an invocation: the resource's --fields, --filter and --order-by checks (and
 * `--fields` alone, which lists the fields), then the verb, in `ctx` or, given a sink, in
 * a context derived from it whose output goes to the sink.
 */
export async function invoke(ctx: Context, def: CommandDefinition<any, any>, invocation: Invocation, sink?: ValueSink): Promise<void> {
  const { operands, options } = argumentsOf(def, invocation);
  const run: Context = { ...ctx, invocation, ...(sink ? { sink } : {}) };
  const { fields, filter, orderBy } = options as FieldFlags;
  if (def.resource !== undefined && (fields !== undefined || filter !== undefined || orderBy !== undefined)) {
    if (await handleFieldFlags(run, def.resource, { fields, filter, orderBy })) return;
  }
  await def.run(run, operands as never, options as never);
}

/**
 * A stored invocation run again — a plan applied, an interrupted batch resumed — with the
 * flags of the run that replays it (`--yes`, `--dry-run`): its verb found among this bo's
 * definitions by its path, then invoked as any caller invokes one.
 */
export async function replay(ctx: Context, stored: Invocation, flags: Record<string, InvocationValue>): Promise<void> {
  const verb = stored.path.join(' ');
  const def = (await ctx.definitions()).find((d) => d.path.join(' ') === verb);
  if (!def) throw new UsageError(`"${verb}" is no command of this bo`);
  await invoke(ctx, def, { path: def.path, values: { ...stored.values, ...flags } });
}

/**
 * The invocation a command line of one verb stands for (`argv`: its path, options and
 * operands), parsed by the verb's own declarations as the command line is; commander's
 * messages are not written (its errors are thrown). For a run the journal stored as a
 * command line, before runs stored their invocation.
 */
export async function invocationOfArgv(defs: readonly CommandDefinition<any, any>[], argv: readonly string[]): Promise<{ def: CommandDefinition<any, any>; invocation: Invocation } | undefined> {
  const def = defs.find((d) => d.path.every((word, i) => argv[i] === word));
  if (!def) return undefined;
  let invocation: Invocation | undefined;
  const program = buildProgram([def], async (d, cmd, args) => {
    invocation = invocationOf(d, cmd, args);
  });
  const quiet = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    cmd.commands.forEach(quiet);
  };
  quiet(program);
  await program.parseAsync([...argv], { from: 'user' });
  return invocation && { def, invocation };
}
