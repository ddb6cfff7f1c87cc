// What a mutation verb's definition (define.ts) hands to the runner (run.ts): what it
// acts on, its fields, what it does to the world, how to build the request for one
// target, and the words its outcomes use. The runner does the rest: --dry-run, `-`
// batches, confirmations, protected profiles, errors and exit codes.

import type { ApiResponse, HttpClient, RequestOptions } from '../api/http-types.js';
import type { FieldValues, MutationField } from './field.js';
import type { RunLock } from '../journal/run-lock.js';
export type { FieldValues, MutationField } from './field.js';

/** The flags every mutation takes (added by `mutationFlags`). */
export interface MutationFlags {
  dryRun?: boolean;
  yes?: boolean;
  concurrency?: number;
  failFast?: boolean;
}

/** The request one target turns into: what is sent, and what --dry-run prints. */
export type MutationRequest = Pick<RequestOptions, 'method' | 'path' | 'body' | 'anonymous'>;

/**
 * Whether sending a change again is harmless, for a run whose outcome was never known:
 * 'safe' (a PUT that merges or ends a state), 'check' (read back first: `readBack`),
 * 'never' (ask the person).
 */
export type Resend = 'safe' | 'check' | 'never';

/** What a mutation's command definition says about the change, for help, tests and later readers (the journal). */
export interface MutationFacts {
  /** Cannot be undone: asked about on every profile. */
  destructive: boolean;
  resend: Resend;
  /** The API names of the fields that hold secrets: never shown, logged or kept. */
  secrets: string[];
}

/** What a mutation acts on: a Uid argument, or an option (`--email`, `--name`, `--account`). */
export interface MutationTarget {
  /** Names the target in messages, e.g. '<subscriptionAddOnUid>' (or '--email'). */
  label: string;
  /** The target's kind in "not found" messages, e.g. 'subscription add-on'. */
  noun: string;
  /** One target only (no `-` batch): `-` in place of the target is refused. */
  single: boolean;
  /** Checks each target; throws UsageError naming `label`. */
  check: (label: string, value: string) => string;
  /** The JSON Lines property that carries a batch record's target ('Uid', 'Email'). */
  recordKey: string;
  /** Another name a record may give it: the target option's flag name (`name` for --name). */
  recordAlias?: string;
  /**
   * The record kind a target names (API reference §2, e.g. 'Account'): a batch record
   * may carry that record's other fields (`bo --jsonl accounts list | …`), ignored.
   */
  resource?: string;
}

/** What a change does to the world: the confirmation, the credential, a re-send. */
export interface MutationEffects {
  /** Cancels or deletes: asks on a terminal, needs --yes otherwise and in batches. */
  destructive: boolean;
  /** An endpoint sent with no Authorization header (D4): no credential is read. */
  anonymous: boolean;
  resend: Resend;
}

/** A read that tells whether a change is already in place (for a re-send of `resend: 'check'`). */
export interface ReadBack<Prep> {
  request: (target: string, prep: Prep) => Pick<RequestOptions, 'method' | 'path' | 'query'>;
  inPlace: (target: string, prep: Prep, answer: unknown) => boolean;
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

/** The words of a success line and of a 404. */
export interface MutationReport<Prep> {
  /** Past tense for outcomes and the summary, e.g. 'expired' (the flags' preparation may choose). */
  done: (prep: Prep | undefined) => string;
  /**
   * Whether the server's answer shows a change (D32), declared by each verb: true only
   * when the answer proves it, false with a reason when it says nothing changed, else null.
   */
  changed: (target: string, prep: Prep, res: ApiResponse) => Verdict;
  /** The word of an outcome whose answer cannot tell (default `done`), e.g. `requested`. */
  neutral?: string;
  /** The kind of record in success lines, e.g. 'Account' (default: the noun, capitalised). */
  kind?: string;
  /** The message for a 404 on a single run (default: `no <noun> with Uid <target>`). */
  notFound?: (target: string, prep: Prep) => string;
  /** The message for a 409 (a unique field taken) on a single run, instead of the server's. */
  conflict?: (target: string, prep: Prep) => string;
  /**
   * The fields a success line shows (default: the request's body). Their values come
   * from the server's answer when it holds them, else as sent (outcomes.ts).
   */
  shown?: (target: string, prep: Prep) => Record<string, unknown>;
  /** The Uid a success line shows (default: the target), e.g. the Uid of what was created. */
  shownUid?: (target: string, prep: Prep, answer: unknown) => string;
  /**
   * True information beyond the success line, on stderr after a single run: what the
   * line cannot say (e.g. the campaign is now inactive; nothing changed).
   */
  note?: (target: string, prep: Prep, res: ApiResponse) => string | undefined;
  /**
   * One read after a single change (not a batch, not --json, which prints the API's
   * answer as it is): what the target is now, shown on the success line as one more
   * field (a cancelled account's AccountStage). Undefined, or a failed read, shows none.
   */
  after?: { field: string; read: (client: HttpClient, target: string) => Promise<unknown> };
}

export interface MutationSpec<Prep> {
  /** The verb's words, e.g. ['accounts', 'extend-trial'] (the journal's command line). */
  path: string[];
  target: MutationTarget;
  /** The verb's fields, and whether at least one must be given (else "nothing to change"). */
  fields: { list: readonly MutationField[]; needsOne: boolean };
  effects: MutationEffects;
  readBack?: ReadBack<Prep>;
  /** The question for a confirmation, e.g. 'Cancel account acc_1' (the flags' preparation may choose). */
  action: (target: string, prep: Prep | undefined) => string;
  /**
   * What the target is, shown in the confirmation question (`Acme Inc, 2 Trial`): one
   * cheap read, made only when the question is asked; undefined (or a failure) shows none.
   */
  describe?: (client: HttpClient, target: string) => Promise<string | undefined>;
  /**
   * Turns the field values into what request() needs, and checks what the fields alone
   * cannot; throws UsageError. Called once with the flags' values, and in a batch again
   * for each record that carries fields.
   */
  prepare: (values: FieldValues) => Prep | Promise<Prep>;
  request: (target: string, prep: Prep) => MutationRequest;
  report: MutationReport<Prep>;
}

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
