import { defineCommand } from '../../command.js';
import { checkUid, checkInteger, checkDate } from '../../input/validate.js';
import { previewAddOn } from '../../api/billing.js';
import { printInvoicePreview } from '../../output/invoice.js';
import { say } from '../../output/print.js';
import { ApiError, NotFoundError } from '../../errors.js';

interface Opts {
  subscription: string;
  addon: string;
  quantity?: string;
  start?: string;
}

export default defineCommand<Opts>({
  path: ['addons', 'preview'],
  summary: 'Preview the invoice for adding an add-on to a subscription (nothing is saved)',
  description:
    'Ask what adding an add-on to a subscription would invoice: the prorated charge for the rest of the ' +
      'current billing period plus any setup fee. Nothing is saved. --quantity defaults to the add-on\'s ' +
      'minimum; --start (a date or date-time; a bare date means 23:59:59 UTC that day) defaults to now.',
  examples: [
    'bo addons preview --subscription sub_123 --addon addon_456',
    'bo addons preview --subscription sub_123 --addon addon_456 --quantity 5 --start 2026-07-01',
    'bo addons preview --subscription sub_123 --addon addon_456 --json | jq .Amount',
  ],
  configure: (cmd) =>
    cmd
      .requiredOption('--subscription <uid>', 'the subscription to add to')
      .requiredOption('--addon <uid>', 'the add-on to add')
      .option('--quantity <n>', 'how many units (a whole number, at least 1)')
      .option('--start <date>', 'when the add-on would start (default: now)'),
  run: async (ctx, _args, opts) => {
    const subscriptionUid = checkUid('--subscription', opts.subscription);
    const addOnUid = checkUid('--addon', opts.addon);
    const quantity = opts.quantity === undefined ? undefined : checkInteger('--quantity', opts.quantity, 1, Number.MAX_SAFE_INTEGER);
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
