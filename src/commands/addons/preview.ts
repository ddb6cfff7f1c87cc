import { defineCommand } from '../../command.js';
import { checkUid, checkDate } from '../../input/validate.js';
import { option } from '../../input/declare.js';
import { previewAddOn } from '../../api/billing.js';
import { printInvoicePreview } from '../../output/invoice.js';
import { say } from '../../output/print.js';
import { ApiError, NotFoundError } from '../../errors.js';

export default defineCommand({
  path: ['addons', 'preview'],
  summary: 'Preview the invoice for adding an add-on to a subscription (nothing is saved)',
  description:
    'Ask what adding an add-on to a subscription would invoice: the prorated charge for the rest of the ' +
      'current billing period plus any setup fee. Nothing is saved. --quantity defaults to the add-on\'s ' +
      'minimum; --start (a date or date-time; a bare date means 23:59:59 UTC that day) defaults to now.',
  examples: [
    'bo addons preview --subscription sub_saxvhgnrf --addon addon_39lnufwfn',
    'bo addons preview --subscription sub_saxvhgnrf --addon addon_39lnufwfn --quantity 5 --start 2026-07-01',
    'bo addons preview --subscription sub_saxvhgnrf --addon addon_39lnufwfn --json | jq .Amount',
  ],
  options: [
    option.uid('--subscription <uid>', 'the subscription to add to', { required: true }),
    option.uid('--addon <uid>', 'the add-on to add', { required: true }),
    option.integer('--quantity <n>', 'how many units (a whole number, at least 1)', 1, Number.MAX_SAFE_INTEGER, { must: 'a whole number of at least 1' }),
    option.date('--start <date>', 'when the add-on would start (default: now)'),
  ] as const,
  run: async (ctx, _args, opts) => {
    const subscriptionUid = checkUid('--subscription', opts.subscription);
    const addOnUid = checkUid('--addon', opts.addon);
    const quantity = opts.quantity;
    const startDate = opts.start === undefined ? undefined : checkDate('--start', opts.start);
    if (startDate !== undefined) say(ctx, `start: ${startDate}`);
    let preview;
    try {
      preview = await previewAddOn(await ctx.api(), { subscriptionUid, addOnUid, quantity, startDate });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        throw new NotFoundError(`no subscription ${subscriptionUid} or no add-on ${addOnUid} (${err.message})`, {
          status: 404,
          code: err.code ?? 'not_found',
        });
      }
      throw err;
    }
    await printInvoicePreview(ctx, preview);
  },
});
