// One typed object per command verb. program.ts turns these into the commander tree,
// which drives dispatch, help and completions. A verb file imports what it uses at its
// top: the registry (commands/index.ts) loads it only when it is needed, and the heavy
// libraries (prompts, keychain, QR, sandbox) load themselves when first used.

import type { Context } from './context.js';
import type { Example } from './help/examples.js';
import type { MutationField } from './mutation/field.js';
import type { MutationFacts } from './mutation/types.js';
import type { OperandDeclaration, OperandValues, OptionDeclaration, OptionValues } from './input/declare.js';

/** The operands a verb declares (input/declare.ts): the positional arguments, in order. */
export type Operand = OperandDeclaration;

export interface CommandDefinition<D extends readonly OptionDeclaration[] = readonly OptionDeclaration[], O extends readonly OperandDeclaration[] = readonly OperandDeclaration[]> {
  /** e.g. ['accounts', 'list'], or ['login'] for a top-level verb. */
  path: string[];
  summary: string;
  /** Longer text for --help; defaults to the summary. */
  description?: string;
  /** Left out of --help and of the completion scripts (`bo __complete`, for the scripts). */
  hidden?: boolean;
  /** What the group alone runs (`bo history` is `bo history list`). */
  groupDefault?: boolean;
  /**
   * At least one; shown under "Examples:" in --help. Each runs as written against the
   * embedded sandbox (`bo --sandbox …`, its seeded Uids; test/help/examples-run.e2e.test.ts);
   * one that cannot says why (`needs`).
   */
  examples: Example[];
  /**
   * Prints records (a list, or one record): the commands that take --csv. Any other
   * command refuses --csv with exit 2, before anything is sent.
   */
  printsRecords?: boolean;
  /**
   * The API resource the command prints (a record kind of the API reference, e.g.
   * 'Account'), for a command with `--fields [paths]`: `--fields` alone lists its
   * fields, and paths the reference does not list are named on stderr (main.ts).
   */
  resource?: string;
  /**
   * A mutation's fields (mutation/field.ts): each flag with its API name and parser. The
   * runner reads them from the flags, and from each JSON Lines record of a `-` batch.
   */
  fields?: readonly MutationField[];
  /** A mutation's facts (defineMutation): destructive, whether a re-send is harmless, its secret fields. */
  mutation?: MutationFacts;
  /**
   * On a terminal its output goes through the pager (src/output/pager.ts; main.ts starts
   * it with the first byte). Default: printsRecords. Never for batches.
   */
  paged?: boolean;
  /**
   * `'read'`: `bo mcp` offers the verb as a read tool (mcp/tools.ts), in the tool group its
   * path's first word names. Never on a verb that changes data (a mutation has its own
   * tools under --writes) or that prints credentials or local settings.
   */
  mcp?: 'read';
  /**
   * Its help is made from what the other verbs declare (bo mcp's tool groups): a command
   * line naming it builds the program with every verb (main.ts), so `configure` sees them.
   */
  helpFromAll?: boolean;
  /** Its positional arguments, in order (input/declare.ts `operand`). */
  operands?: O;
  /**
   * Its options (input/declare.ts `option`), in help order: the data commander, help,
   * completions, man pages and `bo mcp`'s schemas are rendered from. A function when a
   * text names what other verbs declare (bo mcp's tool groups, `helpFromAll`).
   */
  options?: D | ((all: readonly CommandDefinition<any, any>[]) => D);
  /** Text shown after the options in --help (and the man page). */
  helpAfter?: string;
  /** Positional arguments, then the options, typed as declared. */
  run(ctx: Context, args: OperandValues<O>, opts: OptionValues<D>): Promise<void>;
}

declare module './context.js' {
  interface Context {
    /**
     * Every verb's definition, in help order, for a verb that works over the others (bo mcp,
     * plan apply, batch resume, completion): the registry loads them on the first call only.
     */
    definitions(): Promise<CommandDefinition<any>[]>;
  }
}

export function defineCommand<const D extends readonly OptionDeclaration[] = [], const O extends readonly OperandDeclaration[] = []>(
  def: CommandDefinition<D, O>,
): CommandDefinition<D, O> {
  return def;
}

/** Group summaries, shown in `bo --help` and `bo <group> --help`. */
export const groups: Record<string, string> = {
  accounts: 'Accounts: list, show, extend trials, cancel',
  addons: 'Subscription add-ons: list, preview the invoice, expire',
  articles: 'Support articles: remove tags',
  auth: 'Credentials: status, token, API keys',
  batch: 'Interrupted batches: finish one from its journal, sending nothing known to be done',
  broadcasts: 'Email broadcast campaigns: show one',
  config: 'Per-profile settings: base-url, api-key-scheme, timeout, max-response-mb, protected, journal',
  coupons: 'Discount coupons: list, redemptions',
  deals: 'CRM deals: update',
  drips: 'Email drip campaigns: add messages, delete',
  history: 'The journal of changes: runs, their outcomes',
  lists: 'Email lists: list, create, subscribe addresses',
  memberships: 'Account memberships: update role, primary contact, invoices',
  'payment-info': 'Payment information: update an account\'s payment method',
  people: 'People: send a sign-in link',
  plan: 'Plans: list, show, apply or watch for the changes an agent prepared (bo mcp --writes plan)',
  profiles: 'Tenant profiles',
  sandbox: 'The local emulator of the API',
  subscriptions: 'Subscriptions: list, require a plan upgrade',
};

/** Examples shown in `bo <group> --help`, for the groups that have them. */
export const groupExamples: Record<string, Example[]> = {
  accounts: [
    'bo accounts list --q acme',
    'bo accounts list --filter AccountStage=2 --all --jsonl | bo accounts extend-trial - --to 2027-01-31',
  ],
  addons: ['bo addons expire subaddon_1gpyasctkp', 'cut -f1 addons.tsv | bo addons expire -'],
  articles: ['bo articles untag art_m1wb8fh4s8 tag_lv8yz0svfv', 'jq -r .Uid articles.jsonl | bo articles untag - tag_lxvl2oztv9'],
  drips: ['bo drips delete drip_llo22xbxil --dry-run', 'printf "%s\\n" drip_lpcrpsn2ab drip_lsdylrbgpp | bo drips delete - --yes'],
};
