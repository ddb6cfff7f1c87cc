// What a mutation verb hands to the runner (run.ts). A verb declares how to check its
// options once, how to build the request for one target (a Uid, or an address), and
// the words its outcomes use; the runner does the rest: --dry-run, `-` batches,
// confirmations, protected profiles, errors and exit codes.

import type { ApiResponse, HttpClient, RequestOptions } from '../api/http-types.js';

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
  /**
   * What the target is, shown in the confirmation question (`Acme Inc, 2 Trial`): one
   * cheap read, made only when the question is asked; undefined (or a failure) shows none.
   */
  describe?: (client: HttpClient, target: string) => Promise<string | undefined>;
  request: (target: string, prep: Prep) => MutationRequest;
  /** The kind of record in success lines, e.g. 'Account' (default: the noun, capitalised). */
  kind?: string;
  /**
   * The fields a success line shows (default: the request's body). Their values come
   * from the server's answer when it holds them, else as sent (outcomes.ts).
   */
  shown?: (target: string, prep: Prep) => Record<string, unknown>;
  /** The Uid a success line shows (default: the target), e.g. the Uid of what was created. */
  shownUid?: (target: string, prep: Prep, answer: unknown) => string;
  /**
   * True information beyond the success line, on stderr after a single run: what the
   * line cannot say (e.g. the campaign is now inactive; nothing changed). Not a second
   * answer: a success otherwise says nothing on stderr.
   */
  note?: (target: string, prep: Prep, res: ApiResponse) => string | undefined;
}
