// `bo accounts extend-trial <accountUid> --to <date> [--expiration <date>]`: moves the
// trial end (D21). A bare date means 23:59:59 UTC that day; the instant sent is printed
// back. `-` reads account Uids from stdin.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationField } from '../../mutation/field.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { accountSummary, extendTrialRequest } from '../../api/crm.js';

interface Opts extends MutationFlags {
  to: string;
  expiration?: string;
}

/** Each flag with the field of the request it sets (a batch record may name either). */
const fields: readonly MutationField[] = [
  { flag: '--to', api: 'ToDate', parse: (l, t, v) => v.checkDate(l, t) },
  { flag: '--expiration', api: 'ExpirationDate', parse: (l, t, v) => v.checkDate(l, t) },
];

export default defineCommand<Opts>({
  path: ['accounts', 'extend-trial'],
  fields,
  summary: 'Move the end of an account trial (- reads Uids from stdin)',
  description:
    'Extend the trial of an account in trial: --to becomes the trial end, --expiration its expiration ' +
    '(default: the same as --to). Dates are ISO 8601 date-times or bare dates; a bare date means the ' +
    'end of that day, 23:59:59 UTC. The new date must be later than the current trial end. ' +
    'With - in place of the Uid, reads Uids from stdin, one a line (the first tab-separated field, so ' +
    "bo's own piped rows work), or JSON Lines with \"Uid\" and maybe the record's own ToDate (to) and " +
    'ExpirationDate (expiration), which override the flags; the other fields of an account record are ignored.',
  examples: [
    'bo accounts extend-trial acc_0001 --to 2027-01-31',
    'bo accounts extend-trial acc_0001 --to 2027-01-31T12:00:00Z --expiration 2027-02-28 --dry-run',
    'bo accounts list --filter AccountStage=2 --all --jsonl | bo accounts extend-trial - --to 2027-01-31',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<accountUid>', 'the account Uid, or - for stdin')
        .requiredOption('--to <date>', 'the new trial end (date or date-time)')
        .option('--expiration <date>', 'the new expiration date (default: --to)'),
      { batch: true },
    ),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<accountUid>',
        noun: 'account',
        done: 'extended',
        action: (u) => `Extend the trial of account ${u}`,
        // Asked on a protected profile: the account's name and stage say which one it is.
        describe: (client, u) => accountSummary(client, u),
        resource: 'Account',
        fields,
        prepare: (values) => values as { ToDate: string; ExpirationDate?: string },
        request: (u, body) => extendTrialRequest(u, body),
      },
      uid as string,
      opts,
    );
  },
});
