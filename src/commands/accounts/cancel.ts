// `bo accounts cancel <accountUid> --reason <text> [--comment <text>]`: submits a
// cancellation request (D22); the account moves to its cancelling stage. Destructive:
// asks on a terminal, needs --yes otherwise and for a `-` batch.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationField } from '../../mutation/field.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { accountSummary, cancelAccountRequest } from '../../api/crm.js';

interface Opts extends MutationFlags {
  reason: string;
  comment?: string;
}

/** Each flag with the field of the cancellation request it sets (a batch record may name either). */
const fields: readonly MutationField[] = [
  { flag: '--reason', api: 'CancelationReason', parse: (l, t, v) => v.checkText(l, t, { min: 1 }) },
  { flag: '--comment', api: 'Comment', parse: (l, t, v) => v.checkText(l, t, { min: 1 }) },
];

export default defineCommand<Opts>({
  path: ['accounts', 'cancel'],
  fields,
  summary: 'Cancel an account (asks first; - reads Uids from stdin)',
  description:
    'Submit a cancellation request for an account: it moves to its cancelling stage and its subscription ' +
    'ends at its renewal date. Asks for confirmation on a terminal; pass --yes in scripts. ' +
    '--reason and --comment take @file to read the text from a file. ' +
    'With - in place of the Uid, reads Uids from stdin (a batch always needs --yes); a JSON Lines record ' +
    'may carry its own CancelationReason (reason) and Comment (comment).',
  examples: [
    'bo accounts cancel acc_0001 --reason "Moved to a competitor"',
    'bo accounts cancel acc_0001 --reason "Closed" --comment @notes.txt --yes',
    'jq -r .Uid churned.jsonl | bo accounts cancel - --reason "Non-payment" --yes',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<accountUid>', 'the account Uid, or - for stdin')
        .requiredOption('--reason <text>', 'why the account cancels (@file reads a file)')
        .option('--comment <text>', 'a comment (@file reads a file)'),
      { batch: true },
    ),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<accountUid>',
        noun: 'account',
        done: 'cancelled',
        destructive: true,
        action: (u) => `Cancel account ${u}`,
        // The account's name and stage, so the question says which account it is.
        describe: (client, u) => accountSummary(client, u),
        resource: 'Account',
        fields,
        prepare: (values) => values as { CancelationReason: string; Comment?: string },
        request: (u, body) => cancelAccountRequest(u, body),
      },
      uid as string,
      opts,
    );
  },
});
