// `bo subscriptions require-upgrade <subscriptionUid> [--quantity <n>] [--message <text>]
// [--clear]`: sets (or with --clear lifts) the plan-upgrade requirement. PUT merges
// (D18): --clear sends only IsPlanUpgradeRequired=false. `-` reads Uids from stdin.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationField } from '../../mutation/field.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { requireUpgradeRequest, type UpgradeRequirement } from '../../api/billing.js';
import { UsageError } from '../../errors.js';

interface Opts extends MutationFlags {
  quantity?: string;
  message?: string;
  clear?: boolean;
}

/** Each flag with the field of the subscription it sets (a batch record may name either). */
const fields: readonly MutationField[] = [
  { flag: '--quantity', api: 'NewRequiredQuantity', parse: (l, t, v) => v.checkInteger(l, t, 1, 2_147_483_647) },
  { flag: '--message', api: 'PlanUpgradeRequiredMessage', parse: (l, t, v) => v.checkText(l, t, { min: 1 }) },
  { flag: '--clear', api: 'IsPlanUpgradeRequired', kind: 'boolean', negates: true },
];

export default defineCommand<Opts>({
  path: ['subscriptions', 'require-upgrade'],
  fields,
  summary: 'Require (or with --clear, stop requiring) a plan upgrade (- reads Uids from stdin)',
  description:
    'Mark a subscription as needing a plan upgrade, optionally with the quantity it must reach and a ' +
    'message for the customer (@file reads the message from a file). --clear lifts the requirement and ' +
    'goes with neither --quantity nor --message; the quantity and message already stored stay. ' +
    'With - in place of the Uid, reads subscription Uids from stdin, one a line (or JSON Lines with "Uid" and ' +
    'maybe the record\'s own NewRequiredQuantity (quantity), PlanUpgradeRequiredMessage (message) or ' +
    'IsPlanUpgradeRequired (clear: its opposite), which override the flags).',
  examples: [
    'bo subscriptions require-upgrade sub_0001 --quantity 25 --message "You have more users than seats"',
    'bo subscriptions require-upgrade sub_0001 --clear',
    'cut -f1 over-quota.tsv | bo subscriptions require-upgrade - --message @upgrade.txt',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<subscriptionUid>', 'the subscription Uid, or - for stdin')
        .option('--quantity <n>', 'the quantity the subscription must be upgraded to')
        .option('--message <text>', 'the message shown to the customer (@file reads a file)')
        .option('--clear', 'lift the requirement instead'),
      { batch: true },
    ),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<subscriptionUid>',
        noun: 'subscription',
        done: opts.clear ? 'cleared' : 'marked',
        action: (u) => (opts.clear ? `Lift the upgrade requirement of subscription ${u}` : `Require a plan upgrade of subscription ${u}`),
        resource: 'Subscription',
        fields,
        prepare: (values) => {
          const body = { IsPlanUpgradeRequired: true, ...values } as UpgradeRequirement;
          if (!body.IsPlanUpgradeRequired) {
            const extra = body.NewRequiredQuantity !== undefined ? '--quantity' : body.PlanUpgradeRequiredMessage !== undefined ? '--message' : undefined;
            if (extra) throw new UsageError(`--clear does not go with ${extra}: it only lifts the requirement`);
          }
          return body;
        },
        request: (u, body) => requireUpgradeRequest(u, body),
      },
      uid as string,
      opts,
    );
  },
});
