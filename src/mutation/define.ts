// One definition per mutation verb. From it come the commander arguments and options
// (with --dry-run, --yes and the batch flags), the typed values the verb's request
// receives, the reading of each batch record, --dry-run, the confirmation and help: a
// verb file says each thing once and reads top to bottom.

import type { CommandDefinition } from '../command.js';
import { UsageError } from '../errors.js';
import { checkUid } from '../input/validate.js';
import type { MutationField, ValuesOf } from './field.js';
import { BATCH_LINES, mutationOptions } from './flags.js';
import { attributeName, operand, option, type OperandDeclaration, type OptionDeclaration } from '../input/declare.js';
import { runMutation } from './run.js';
import { byOption as isByOption, targetLabel } from './target.js';
import type { ArgDeclaration, BoundMutation, MutationDefinition, MutationFacts, TargetDeclaration } from './types.js';
export type { ArgDeclaration, MutationDefinition, TargetDeclaration } from './types.js';
export { CHANGED, UNKNOWN, bySentence, changedIfRecord, unchanged } from './verdict.js';
export { CannotRead } from './diff.js';

export const target = {
  /** A Uid argument; `-` reads a batch from stdin unless `single`. */
  uid: (name: string, help: string, options: Omit<TargetDeclaration, 'name' | 'help'>): TargetDeclaration => ({ name, help, ...options }),
  /** An option that names the target (`--email <address>`); `-` as its value reads a batch unless `single`. */
  option: (name: string, help: string, options: Omit<TargetDeclaration, 'name' | 'help'>): TargetDeclaration => ({ name, help, ...options }),
};

export const arg = {
  uid: (name: `<${string}>`, help: string): ArgDeclaration => ({ name, help }),
};

type MutationCommand = CommandDefinition<readonly OptionDeclaration[], readonly OperandDeclaration[]> & { mutation: MutationFacts };


/** A verb whose request takes its fields' values as they are. */
export function defineMutation<const F extends readonly MutationField[], const A extends readonly ArgDeclaration[] = []>(
  def: MutationDefinition<F, A, ValuesOf<F>> & { prepare?: undefined },
): MutationCommand;
/** A verb whose `prepare` turns its fields' values into what its request takes. */
export function defineMutation<const F extends readonly MutationField[], const A extends readonly ArgDeclaration[], Prep>(
  def: MutationDefinition<F, A, Prep> & { prepare: NonNullable<MutationDefinition<F, A, Prep>['prepare']> },
): MutationCommand;
export function defineMutation<F extends readonly MutationField[], A extends readonly ArgDeclaration[], Prep>(
  def: MutationDefinition<F, A, Prep>,
): MutationCommand {
  const fields: readonly MutationField[] = def.fields ?? [];
  const byOption = isByOption(def.target);
  const batch = def.target.single !== true;
  const label = targetLabel(def.target);
  const dash = byOption && batch && def.target.dash === true;
  return {
    path: def.path,
    summary: def.summary,
    ...(def.description === undefined ? {} : { description: def.description }),
    examples: def.examples,
    fields,
    mutation: { destructive: def.destructive === true, resend: def.resend, secrets: fields.filter((f) => f.secret).map((f) => f.api) },
    ...declarations(def.target, def.args ?? [], fields, batch, def.destructive === true),
    run: async (ctx, positional, flags) => {
      const given = positional as string[];
      const named = flags as Record<string, unknown>;
      const targetText = dash ? dashTarget(def.target.name, named[attributeName(label)], given[0]) : byOption ? String(named[attributeName(label)]) : given[0]!;
      const rest = byOption ? given.slice(dash ? 1 : 0) : given.slice(1);
      // The definition itself is what the runner reads, bound once to these arguments, checked.
      const bound: BoundMutation<Prep> = { def: def as unknown as BoundMutation<Prep>['def'], args: (def.args ?? []).map((a, i) => (a.check ?? checkUid)(a.name, rest[i]!)) };
      await runMutation(ctx, bound, targetText, flags);
    },
  };
}

/**
 * A mutation's operands and options as data: the target (a Uid operand, or an option),
 * its further operands, `[-]` for a `dash` verb's batch, each field's option (a
 * toggle's `--no-x` too), then --dry-run, --yes and the batch flags.
 */
function declarations(target: TargetDeclaration, args: readonly ArgDeclaration[], fields: readonly MutationField[], batch: boolean, destructive: boolean) {
  const byOption = target.name.startsWith('--');
  const label = target.name.split(' ')[0]!;
  const dash = byOption && batch && target.dash === true;
  const targetHelp = batch ? `${target.help}, or - for stdin` : target.help;
  const operands: OperandDeclaration[] = [
    // A Uid unless the verb checks its target its own way (an email address).
    ...(byOption ? [] : [(target.check ? operand.text : operand.uid)(target.name as `<${string}>`, targetHelp)]),
    ...args.map((a) => operand.uid(a.name as `<${string}>`, a.help)),
    ...(dash ? [operand.text('[-]', `read a batch from stdin, as ${label} - does: JSON Lines records with ${target.recordKey ?? 'Uid'}, or one a line`)] : []),
  ];
  const options: OptionDeclaration[] = [
    ...(dash ? [option.text(target.name, `${targetHelp} (required without -)`)] : byOption ? [option.text(target.name, targetHelp, { required: true })] : []),
    ...fields,
    ...mutationOptions({ batch, destructive }),
  ];
  return { operands, options, ...(batch ? { helpAfter: BATCH_LINES } : {}) };
}

/**
 * The target of a `dash` verb: its option's value, or `-` when the argument is `-`
 * (a batch). Neither, both, or an argument other than `-` is a usage error, in
 * commander's words where commander would have said it.
 */
function dashTarget(option: string, value: unknown, arg: string | undefined): string {
  const label = option.split(' ')[0]!;
  if (arg !== undefined && arg !== '-') throw new UsageError(`too many arguments: ${JSON.stringify(arg)}; give ${label}, or - to read a batch from stdin`);
  if (arg === '-' && value !== undefined) throw new UsageError(`give ${label} or -, not both`);
  if (arg === '-') return '-';
  if (value === undefined) throw new UsageError(`required option '${option}' not specified`);
  return String(value);
}
