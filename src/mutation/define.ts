// One definition per mutation verb. From it come the commander arguments and options
// (with --dry-run, --yes and the batch flags), the typed values the verb's request
// receives, the reading of each batch record, --dry-run, the confirmation and help: a
// verb file says each thing once and reads top to bottom.

import type { CommandDefinition, Operand } from '../command.js';
import type { Context } from '../context.js';
import type { Example } from '../help/examples.js';
import type { ApiResponse, HttpClient, RequestOptions } from '../api/http-types.js';
import { UsageError } from '../errors.js';
import { checkUid } from '../input/validate.js';
import type { FieldValues, MutationField, ValuesOf } from './field.js';
import { attributeOf, recordNameOf } from './fields.js';
import { BATCH_LINES, mutationOptions } from './flags.js';
import { operand, option, type OperandDeclaration, type OptionDeclaration } from '../input/declare.js';
import { runMutation } from './run.js';
import type { MutationFacts, MutationFlags, MutationReport, MutationRequest, MutationSpec, Resend, Verdict } from './types.js';
export { CHANGED, UNKNOWN, bySentence, changedIfRecord, unchanged } from './verdict.js';

/** The target as declared: a Uid argument (`<accountUid>`) or an option (`--email <address>`). */
export interface TargetDeclaration {
  /** '<accountUid>', or an option with its value: '--email <address>'. */
  name: string;
  help: string;
  noun: string;
  /** One target only: no `-` batch. */
  single?: boolean;
  check?: (label: string, value: string) => string;
  recordKey?: string;
  resource?: string;
  /**
   * An option target whose batch is also `bo <verb> -` (`bo lists create -`): the
   * option is then not given, each record names its own (by `recordKey` or the flag's name).
   */
  dash?: boolean;
}

/**
 * A further positional argument: a required operand as every verb declares one
 * (command.ts), checked before anything else (a Uid by default).
 */
export interface ArgDeclaration extends Omit<Operand, 'choices' | 'kind'> {
  check?: (label: string, value: string) => string;
}

/** The further arguments' values, by position. */
type ArgValues<A extends readonly ArgDeclaration[]> = { [K in keyof A]: string };

export const target = {
  /** A Uid argument; `-` reads a batch from stdin unless `single`. */
  uid: (name: string, help: string, options: Omit<TargetDeclaration, 'name' | 'help'>): TargetDeclaration => ({ name, help, ...options }),
  /** An option that names the target (`--email <address>`); `-` as its value reads a batch unless `single`. */
  option: (name: string, help: string, options: Omit<TargetDeclaration, 'name' | 'help'>): TargetDeclaration => ({ name, help, ...options }),
};

export const arg = {
  uid: (name: `<${string}>`, help: string): ArgDeclaration => ({ name, help }),
};

export interface MutationDefinition<F extends readonly MutationField[], A extends readonly ArgDeclaration[], Prep> {
  path: string[];
  summary: string;
  description?: string;
  examples: Example[];
  target: TargetDeclaration;
  args?: A;
  fields?: F;
  /** At least one field must be given, by the flags or, in a batch, per record. */
  needsField?: boolean;
  /** Cannot be undone: asked about on every profile, and --yes says so. */
  destructive?: boolean;
  /** Sent with no Authorization header (D4). */
  anonymous?: boolean;
  /** Whether sending it again is harmless (types.ts `Resend`). */
  resend: Resend;
  /** A read that shows whether the change is in place. */
  readBack?: {
    request: (target: string, prep: Prep, args: ArgValues<A>) => Pick<RequestOptions, 'method' | 'path' | 'query'>;
    inPlace: (target: string, prep: Prep, answer: unknown, args: ArgValues<A>) => boolean;
  };
  /** The question for a confirmation, e.g. 'Cancel account acc_1'. */
  action: (target: string, args: ArgValues<A>, prep: Prep | undefined) => string;
  describe?: (client: HttpClient, target: string) => Promise<string | undefined>;
  /** The values into what `request` needs (default: the values as they are). */
  prepare?: (values: ValuesOf<F>, args: ArgValues<A>, ctx: Context) => Prep | Promise<Prep>;
  request: (target: string, prep: Prep, args: ArgValues<A>) => MutationRequest;
  done: string | ((prep: Prep | undefined) => string);
  /**
   * Whether the answer shows a change (D32; verdict.ts): `true` only when the answer
   * proves it, `false` with a reason when it says nothing changed, `null` when it cannot
   * tell. Every verb declares it, with why.
   */
  changed: (res: ApiResponse, target: string, prep: Prep, args: ArgValues<A>) => Verdict;
  /** The word of an outcome whose answer cannot tell whether it changed (default `done`). */
  neutral?: string;
  kind?: string;
  notFound?: (target: string, prep: Prep, args: ArgValues<A>) => string;
  /** The message for a 409 (a unique field taken), instead of the server's. */
  conflict?: (target: string, prep: Prep) => string;
  shown?: (target: string, prep: Prep, args: ArgValues<A>) => Record<string, unknown>;
  shownUid?: (target: string, prep: Prep, answer: unknown, args: ArgValues<A>) => string;
  note?: (target: string, prep: Prep, res: ApiResponse, args: ArgValues<A>) => string | undefined;
  /** One read after a single change, shown on its success line (types.ts MutationReport.after). */
  after?: MutationReport<Prep>['after'];
}

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
  const byOption = def.target.name.startsWith('--');
  const batch = def.target.single !== true;
  const label = def.target.name.split(' ')[0]!;
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
      const targetText = dash ? dashTarget(def.target.name, (flags as Record<string, unknown>)[attributeOf(label)], given[0]) : byOption ? String((flags as Record<string, unknown>)[attributeOf(label)]) : given[0]!;
      const rest = (byOption ? given.slice(dash ? 1 : 0) : given.slice(1)) as string[];
      const args = (def.args ?? []).map((a, i) => (a.check ?? checkUid)(a.name, rest[i]!)) as unknown as ArgValues<A>;
      const spec: MutationSpec<Prep> = {
        path: def.path,
        target: {
          label,
          noun: def.target.noun,
          single: !batch,
          check: def.target.check ?? checkUid,
          recordKey: def.target.recordKey ?? 'Uid',
          ...(byOption ? { recordAlias: recordNameOf(label) } : {}),
          ...(def.target.resource === undefined ? {} : { resource: def.target.resource }),
        },
        fields: { list: fields, needsOne: def.needsField === true },
        effects: { destructive: def.destructive === true, anonymous: def.anonymous === true, resend: def.resend },
        ...(def.readBack
          ? { readBack: { request: (t: string, p: Prep) => def.readBack!.request(t, p, args), inPlace: (t: string, p: Prep, a: unknown) => def.readBack!.inPlace(t, p, a, args) } }
          : {}),
        action: (t, p) => def.action(t, args, p),
        ...(def.describe ? { describe: def.describe } : {}),
        prepare: (values: FieldValues) => (def.prepare ? def.prepare(values as ValuesOf<F>, args, ctx) : (values as Prep)),
        request: (t, p) => def.request(t, p, args),
        report: {
          done: (p: Prep | undefined) => (typeof def.done === 'string' ? def.done : def.done(p)),
          changed: (t: string, p: Prep, res: ApiResponse) => def.changed(res, t, p, args),
          ...(def.neutral === undefined ? {} : { neutral: def.neutral }),
          ...(def.kind === undefined ? {} : { kind: def.kind }),
          ...(def.notFound ? { notFound: (t: string, p: Prep) => def.notFound!(t, p, args) } : {}),
          ...(def.conflict ? { conflict: def.conflict } : {}),
          ...(def.shown ? { shown: (t: string, p: Prep) => def.shown!(t, p, args) } : {}),
          ...(def.shownUid ? { shownUid: (t: string, p: Prep, a: unknown) => def.shownUid!(t, p, a, args) } : {}),
          ...(def.note ? { note: (t: string, p: Prep, res: ApiResponse) => def.note!(t, p, res, args) } : {}),
          ...(def.after ? { after: def.after } : {}),
        },
      };
      await runMutation(ctx, spec, targetText, flags);
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
    ...(byOption ? [] : [operand.uid(target.name as `<${string}>`, targetHelp)]),
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
