// What a mutation verb hands to the runner (run.ts). A verb declares how to check its
// options once, how to build the request for one target (a Uid, or an address), and
// the words its outcomes use; the runner does the rest: --dry-run, `-` batches,
// confirmations, protected profiles, errors and exit codes.

import type { Context } from '../context.js';
import type { ApiResponse, RequestOptions } from '../api/http-types.js';

/** The flags every mutation takes (added by `mutationFlags`). */
export interface MutationFlags {
  dryRun?: boolean;
  yes?: boolean;
  concurrency?: string;
  failFast?: boolean;
}

/** The request one target turns into: what is sent, and what --dry-run prints. */
export type MutationRequest = Pick<RequestOptions, 'method' | 'path' | 'body' | 'anonymous'>;

import type { FieldValues, MutationField } from './field.js';
export type { FieldValues, MutationField } from './field.js';

export interface MutationSpec<Prep> {
  /** Names the target in messages, e.g. '<subscriptionAddOnUid>' (or '--email'). */
  targetLabel: string;
  /** The target's kind in "not found" messages, e.g. 'subscription add-on'. */
  noun: string;
  /** Past tense for outcomes and the summary, e.g. 'expired'. */
  done: string;
  /** Cancels or deletes: asks for confirmation on a TTY, needs --yes otherwise and in batches. */
  destructive?: boolean;
  /** An endpoint sent with no Authorization header (D4): no credential is needed or read. */
  anonymous?: boolean;
  /** One target only (no `-` batch): `-` in place of the target is refused. */
  single?: boolean;
  /** The message for a 404 on a single run (default: `no <noun> with Uid <target>`). */
  notFound?: (target: string, prep: Prep) => string;
  /** Checks each target (default: a Uid check); throws UsageError. */
  checkTarget?: (label: string, value: string) => string;
  /** The JSON Lines property that carries a batch record's target (default 'Uid'). */
  recordKey?: string;
  /** The question for a confirmation, e.g. 'Cancel account acc_1'. */
  action: (target: string) => string;
  /** The verb's fields: parsed from the flags, and from each record of a batch (which may override them). */
  fields?: readonly MutationField[];
  /** At least one field must be given (else "nothing to change"), by the flags or, in a batch, per record. */
  needsField?: boolean;
  /**
   * The record kind a target names (API reference §2, e.g. 'Account'): a batch record
   * may carry that record's other fields (`bo --jsonl accounts list | …`), ignored.
   */
  resource?: string;
  /**
   * Turns the field values into what request() needs, and checks what the fields alone
   * cannot (flags that do not go together); throws UsageError. Called once with the
   * flags' values, and in a batch again for each record that carries fields.
   */
  prepare: (values: FieldValues) => Prep | Promise<Prep>;
  request: (target: string, prep: Prep) => MutationRequest;
  /**
   * Prints the answer of a single run (stdout) and says what changed (stderr).
   * Default: the answer as printValue prints it, then `confirm` on stderr.
   */
  print?: (ctx: Context, target: string, res: ApiResponse, prep: Prep) => Promise<void>;
  /** What changed, on stderr after a single run, e.g. 'Add-on sa_1 expired'; `res` is the answer. */
  confirm: (target: string, prep: Prep, res: ApiResponse) => string;
}
