// `bo subscriptions require-upgrade <subscriptionUid> [--quantity <n>] [--message <text>]
// [--clear]`: sets (or with --clear lifts) the plan-upgrade requirement. PUT merges
// (D18): --clear sends only IsPlanUpgradeRequired=false. `-` reads Uids from stdin.
import { UsageError } from '../../errors.js';
import { defineMutation, target, changedIfRecord } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { requireUpgradeRequest, type UpgradeRequirement } from '../../api/billing.js';
import { uidFrom } from '../../help/uid-sources.js';

export default defineMutation({
  path: ['subscriptions', 'require-upgrade'],
  summary: 'Require (or with --clear, stop requiring) a plan upgrade (- reads Uids from stdin)',
  description:
    'Mark a subscription as needing a plan upgrade, optionally with the quantity it must reach and a ' +
    'message for the customer (@file reads the message from a file). --clear lifts the requirement and ' +
    'goes with neither --quantity nor --message; the quantity and message already stored stay. ' +
    'With - in place of the Uid, reads subscription Uids from stdin, one a line (or JSON Lines with "Uid" and ' +
    'maybe the record\'s own NewRequiredQuantity (quantity), PlanUpgradeRequiredMessage (message) or ' +
    'IsPlanUpgradeRequired (clear: its opposite), which override the flags).',
  examples: [
    'bo subscriptions require-upgrade sub_saxvhgnrf --quantity 25 --message "You have more users than seats"',
    'bo subscriptions require-upgrade sub_153ftvs2bs --clear',
    'cut -f1 over-quota.tsv | bo subscriptions require-upgrade - --message @upgrade.txt',
  ],
  target: target.uid('<subscriptionUid>', `the subscription Uid (${uidFrom.subscription})`, { noun: 'subscription', resource: 'Subscription' }),
  fields: [
    field.integer('--quantity <n>', 'NewRequiredQuantity', 'the quantity the subscription must be upgraded to', 1, 2_147_483_647),
    field.text('--message <text>', 'PlanUpgradeRequiredMessage', 'the message shown to the customer (@file reads a file)'),
    field.boolean('--clear', 'IsPlanUpgradeRequired', 'lift the requirement instead', { negates: true }),
  ],
  resend: 'safe', // D18: the same requirement set again
  prepare: (values): UpgradeRequirement => {
    const { IsPlanUpgradeRequired = true, ...rest } = values;
    const body = { IsPlanUpgradeRequired, ...rest };
    if (!body.IsPlanUpgradeRequired) {
      const extra = body.NewRequiredQuantity !== undefined ? '--quantity' : body.PlanUpgradeRequiredMessage !== undefined ? '--message' : undefined;
      if (extra) throw new UsageError(`--clear does not go with ${extra}: it only lifts the requirement`);
    }
    return body;
  },
  action: (u, _a, body) => (body?.IsPlanUpgradeRequired === false ? `Lift the upgrade requirement of subscription ${u}` : `Require a plan upgrade of subscription ${u}`),
  request: (u, body) => requireUpgradeRequest(u, body),
  done: (body) => (body?.IsPlanUpgradeRequired === false ? 'cleared' : 'marked'),
  // D17: the answer is the updated subscription (the merge applied); any other cannot tell.
  changed: changedIfRecord,
});
