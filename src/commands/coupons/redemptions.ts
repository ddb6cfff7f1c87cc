import { defineCommand } from '../../command.js';
import { addListOptions, type RawListOptions, parseListOptions, listEndNote, checkSearch } from '../../input/list-options.js';
import type { DiscountCouponSubscription } from '../../api/types.js';
import { printList, say, type Column } from '../../output/print.js';
import { listRedemptions } from '../../api/billing.js';
import { columnsFor } from '../../output/columns.js';
import { checkUid } from '../../input/validate.js';
import { ApiError, NotFoundError } from '../../errors.js';
import { boCommand } from '../../hints.js';

interface Opts extends RawListOptions {
  active?: boolean;
  search?: string;
}

export const redemptionColumns: Column<DiscountCouponSubscription>[] = [
  { header: 'Uid', get: (r) => r.Uid },
  { header: 'Subscription', get: (r) => r.Subscription },
  { header: 'Redeemed', get: (r) => r.RedeemedDate, kind: 'date' },
  { header: 'Expires', get: (r) => r.ExpireDate, kind: 'date' },
];

export default defineCommand<Opts>({
  printsRecords: true,
  resource: 'DiscountCouponSubscription',
  path: ['coupons', 'redemptions'],
  summary: 'List the redemptions of a coupon (exit 3 when the coupon is absent)',
  description:
    'List who redeemed a coupon: one subscription per redemption. --search matches part of the account or ' +
      'plan name, --active keeps the redemptions that have not expired. The list options page for you.',
  examples: [
    'bo coupons redemptions coupon_123',
    'bo coupons redemptions coupon_123 --active --search acme',
    'bo coupons redemptions coupon_123 --all --jsonl | jq -r .Subscription.Uid',
  ],
  configure: (cmd) =>
    addListOptions(
      cmd
        .argument('<couponUid>', 'the coupon Uid')
        .option('--search <text>', 'part of the account or plan name')
        .option('--active', 'only redemptions that have not expired'),
    ),
  run: async (ctx, [uid], opts) => {
    const couponUid = checkUid('<couponUid>', uid as string);
    const selection = parseListOptions(opts);
    checkSearch('--search', opts.search);
    const client = await ctx.api();
    let total: number | undefined;
    const records = listRedemptions(client, couponUid, { active: opts.active, q: opts.search }, selection, (meta) => {
      total = meta.total;
    });
    try {
      const printed = await printList(ctx, records, columnsFor(redemptionColumns, opts.fields));
      const note = listEndNote(printed, selection, total);
      if (note) say(ctx, note);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        throw new NotFoundError(`no coupon with Uid ${couponUid}`, { status: 404, code: err.code ?? 'not_found', hint: `${boCommand(ctx.globals, 'coupons list')} finds coupons` });
      }
      throw err;
    }
  },
});
