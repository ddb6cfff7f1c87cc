// A mutation verb's definition, which the runner (run.ts) reads as it is, bound once to
// the invocation's further arguments (BoundMutation): what it acts on, its fields, what it
// does to the world, how to build the request for one target, and the words its outcomes
// use. The runner does the rest: --dry-run, `-` batches, confirmations, protected
// profiles, errors and exit codes.

import type { ApiResponse, HttpClient, RequestOptions } from '../api/http-types.js';
import type { Context } from '../context.js';
import type { Example } from '../help/examples.js';
import type { MutationField, ValuesOf } from './field.js';
import type { RunLock } from '../journal/run-lock.js';
import type { InputFormat } from './sheet.js';
export type { FieldValues, MutationField } from './field.js';

/** The flags every mutation takes (flags.ts `mutationOptions`). */
export interface MutationFlags {
  dryRun?: boolean;
  yes?: boolean;
  concurrency?: number;
  failFast?: boolean;
  /** How stdin is read: csv, tsv, lines or jsonl (sheet.ts). */
  inputFormat?: InputFormat;
  /** Only the rows of an outcomes file with this bo_outcome (`not-attempted` for `not attempted`). */
  only?: string;
  /** The outcomes file, one row per input row (outcomes-file.ts). */
  outcomes?: string;
  /** Read each target first and show what changes; send nothing where the values hold (diff.ts). */
  diff?: boolean;
}

/** The request one target turns into: what is sent, and what --dry-run prints. */
export type MutationRequest = Pick<RequestOptions, 'method' | 'path' | 'body' | 'anonymous'>;

/**
 * Whether sending a change again is harmless, for a run whose outcome was never known:
 * 'safe' (a PUT that merges or ends a state), 'check' (read back first: `readBack`),
 * 'never' (ask the person).
 */
export type Resend = 'safe' | 'check' | 'never';

/** What a mutation's command definition says about the change, for help, `bo mcp` and the journal. */
export interface MutationFacts {
  /** Cannot be undone: asked about on every profile. */
  destructive: boolean;
  resend: Resend;
  /** The API names of the fields that hold secrets: never shown, logged or kept. */
  secrets: string[];
}

/** The target as declared: a Uid argument (`<accountUid>`) or an option (`--email <address>`). */
export interface TargetDeclaration {
  /** '<accountUid>', or an option with its value: '--email <address>'. */
  name: string;
  help: string;
  /** The target's kind in "not found" messages, e.g. 'subscription add-on'. */
  noun: string;
  /** One target only: no `-` batch. */
  single?: boolean;
  /** Checks each target; throws UsageError naming the label (default: a Uid). */
  check?: (label: string, value: string) => string;
  /** The JSON Lines property that carries a batch record's target (default 'Uid'). */
  recordKey?: string;
  /**
   * The record kind a target names (API reference §2, e.g. 'Account'): a batch record
   * may carry that record's other fields (`bo --jsonl accounts list | …`), ignored.
   */
  resource?: string;
  /**
   * An option target whose batch is also `bo <verb> -` (`bo lists create -`): the
   * option is then not given, each record names its own (by `recordKey` or the flag's name).
   */
  dash?: boolean;
  /**
   * Further columns a sheet's rows of this verb may carry (D35): what names the target's
   * parent (a deal's `Account`, `AccountName`, as `bo deals list` writes them), ignored.
   */
  columns?: readonly string[];
}

/** A further positional argument, checked before anything else (a Uid by default). */
export interface ArgDeclaration {
  name: `<${string}>`;
  help: string;
  check?: (label: string, value: string) => string;
}

/** The further arguments' values, by position. */
export type ArgValues<A extends readonly ArgDeclaration[]> = { [K in keyof A]: string };

/**
 * One read after a single change (not a batch, not --json, which prints the API's
 * answer as it is): what the target is now, shown on the success line as one more
 * field (a cancelled account's AccountStage). Undefined, or a failed read, shows none.
 */
export interface ReadAfter {
  field: string;
  read: (client: HttpClient, target: string) => Promise<unknown>;
}

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
  /** Sent with no Authorization header (D4): no credential is read. */
  anonymous?: boolean;
  /** Whether sending it again is harmless (`Resend`). */
  resend: Resend;
  /** A read that shows whether the change is in place (for a re-send of `resend: 'check'`). */
  readBack?: {
    request: (target: string, prep: Prep, args: ArgValues<A>) => Pick<RequestOptions, 'method' | 'path' | 'query'>;
    inPlace: (target: string, prep: Prep, answer: unknown, args: ArgValues<A>) => boolean;
  };
  /** The question for a confirmation, e.g. 'Cancel account acc_1' (the flags' preparation may choose). */
  action: (target: string, args: ArgValues<A>, prep: Prep | undefined) => string;
  /**
   * --diff (diff.ts): the target's current values of the fields its request sets, by API
   * name, read only as the API allows (D36). `context`: the batch record's other columns
   * (a deal row's `Account`). Throws diff.ts CannotRead when it cannot be read; absent,
   * the verb's targets cannot be read at all.
   */
  current?: (client: HttpClient, target: string, context: Readonly<Record<string, unknown>>, args: ArgValues<A>, signal?: AbortSignal) => Promise<Record<string, unknown>>;
  /**
   * What the target is, shown in the confirmation question (`Acme Inc, 2 Trial`): one
   * cheap read, made only when the question is asked; undefined (or a failure) shows none.
   */
  describe?: (client: HttpClient, target: string) => Promise<string | undefined>;
  /**
   * The values into what `request` needs (default: the values as they are), checking what
   * the fields alone cannot (UsageError). Called once with the flags' values, and in a
   * batch again for each record that carries fields.
   */
  prepare?: (values: ValuesOf<F>, args: ArgValues<A>, ctx: Context) => Prep | Promise<Prep>;
  request: (target: string, prep: Prep, args: ArgValues<A>) => MutationRequest;
  /** Past tense for outcomes and the summary, e.g. 'expired' (the flags' preparation may choose). */
  done: string | ((prep: Prep | undefined) => string);
  /**
   * Whether the answer shows a change (D32; verdict.ts): `true` only when the answer
   * proves it, `false` with a reason when it says nothing changed, `null` when it cannot
   * tell. Every verb declares it, with why.
   */
  changed: (res: ApiResponse, target: string, prep: Prep, args: ArgValues<A>) => Verdict;
  /** The word of an outcome whose answer cannot tell whether it changed (default `done`), e.g. `requested`. */
  neutral?: string;
  /** The kind of record in success lines, e.g. 'Account' (default: the noun, capitalised). */
  kind?: string;
  /** The message for a 404 on a single run (default: `no <noun> with Uid <target>`). */
  notFound?: (target: string, prep: Prep, args: ArgValues<A>) => string;
  /** The message for a 409 (a unique field taken) on a single run, instead of the server's. */
  conflict?: (target: string, prep: Prep) => string;
  /**
   * The fields a success line shows (default: the request's body). Their values come
   * from the server's answer when it holds them, else as sent (outcomes.ts).
   */
  shown?: (target: string, prep: Prep, args: ArgValues<A>) => Record<string, unknown>;
  /** The Uid a success line shows (default: the target), e.g. the Uid of what was created. */
  shownUid?: (target: string, prep: Prep, answer: unknown, args: ArgValues<A>) => string;
  /**
   * True information beyond the success line, on stderr after a single run: what the
   * line cannot say (e.g. the campaign is now inactive; nothing changed).
   */
  note?: (target: string, prep: Prep, res: ApiResponse, args: ArgValues<A>) => string | undefined;
  after?: ReadAfter;
}

/**
 * What the runner runs: a verb's definition as it is, bound once to the invocation's
 * further arguments (their values, checked), which every callback that takes them gets.
 */
export interface BoundMutation<Prep> {
  def: MutationDefinition<readonly MutationField[], readonly ArgDeclaration[], Prep>;
  args: readonly string[];
}

/**
 * Why a change's outcome changed nothing (D32), one vocabulary for every verb and every
 * form (line, summary, --json, the journal, `bo history`, `bo mcp`): `already-ended`,
 * `no-such-tag` and `already-subscribed` when the answer says so; `refused` (a 4xx
 * answer) and `not-sent` (an invalid record) for a failure. `already-holds` is reserved
 * for the outcome `skipped` (a record not sent because a read showed its values hold).
 */
export type Reason = 'already-ended' | 'no-such-tag' | 'already-subscribed' | 'refused' | 'not-sent' | 'already-holds';

/**
 * Whether a change changed anything (D32): true; false with a reason; or null when it
 * cannot be known (the answer does not say, and nothing can be read back).
 */
export type Verdict = { changed: true; reason: null } | { changed: false; reason: Reason } | { changed: null; reason: null };

/** What `bo batch resume` hands the batch runner (resume.ts). */
export type KnownOutcome = 'done' | 'failed' | 'unknown';

export interface ResumeOrder {
  /** The run whose journal the resume goes on with. */
  run: string;
  /** The run's lock, taken before the run was read (src/journal/run-lock.ts): its journal goes on under it. */
  lock: RunLock;
  /** Each line the run sent: its outcome and the input's running digest there (a Map, or the journal's compact KnownLines). */
  known: { get(line: number): { outcome: KnownOutcome; read: string | undefined } | undefined };
  /** The last line the run sent: the input is checked up to it before anything is sent. */
  lastLine: number;
  resendUnknown: boolean;
}

declare module '../context.js' {
  interface Context {
    /** `bo batch resume`: what the interrupted run's journal knows, for the batch it runs again. */
    resume?: ResumeOrder;
  }
}
