import type { PageMeta } from '../../api/paginate.js';
import { defineCommand } from '../../command.js';
import { listOptions, parseListOptions, listEndNote, checkSearch } from '../../input/list-options.js';
import type { DiscountCouponSubscription } from '../../api/types.js';
import { printList, say, type Column } from '../../output/print.js';
import { listRedemptions } from '../../api/billing.js';
import { columnsFor, tableFields } from '../../output/columns.js';
import { checkUid } from '../../input/validate.js';
import { ApiError, NotFoundError } from '../../errors.js';
import { boCommand } from '../../hints.js';
import { operand, option } from '../../input/declare.js';

type Named = { Uid?: string; Name?: string } | null | undefined;
const nested = (r: DiscountCouponSubscription) =>
  (r.Subscription ?? undefined) as { Uid?: string; Account?: Named; Plan?: Named } | undefined;

// Who redeemed it: the account and plan names, read through `fields` (the API then
// pages by 25 instead of 100: nested paths, D13).
export const redemptionColumns: Column<DiscountCouponSubscription>[] = [
  { header: 'Uid', get: (r) => r.Uid, from: ['Uid'] },
  { header: 'Account', get: (r) => nested(r)?.Account?.Name ?? nested(r)?.Account?.Uid, from: ['Subscription.Account.Name'] },
  { header: 'Plan', get: (r) => nested(r)?.Plan?.Name ?? nested(r)?.Plan?.Uid, from: ['Subscription.Plan.Name'], drop: 3 },
  { header: 'Redeemed', get: (r) => r.RedeemedDate, kind: 'date', from: ['RedeemedDate'], drop: 1 },
  { header: 'Expires', get: (r) => r.ExpireDate, kind: 'date', from: ['ExpireDate'], drop: 2 },
];

export default defineCommand({
  printsRecords: true,
  resource: 'DiscountCouponSubscription',
  path: ['coupons', 'redemptions'],
  mcp: 'read',
  summary: 'List the redemptions of a coupon (exit 3 when the coupon is absent)',
  description:
    'List who redeemed a coupon: one subscription per redemption, by account and plan name. --search matches part of the account or ' +
      'plan name, --active keeps the redemptions that have not expired. The list options page for you.',
  examples: [
    'bo coupons redemptions coupon_h390aljpd6',
    'bo coupons redemptions coupon_h390aljpd6 --active --search acme',
    'bo coupons redemptions coupon_h390aljpd6 --all --jsonl | jq -r .Subscription.Uid',
  ],
  operands: [operand.uid('<couponUid>', 'the coupon Uid')],
  options: [
    option.text('--search <text>', 'part of the account or plan name'),
    option.switch('--active', 'only redemptions that have not expired'),
    ...listOptions(),
  ] as const,
  run: async (ctx, [uid], opts) => {
    const couponUid = checkUid('<couponUid>', uid);
    const selection = parseListOptions(opts, tableFields(ctx, redemptionColumns, opts.fields), ctx.sink?.page?.bind(ctx.sink));
    checkSearch('--search', opts.search);
    const client = await ctx.api();
    let last: PageMeta | undefined;
    const records = listRedemptions(client, couponUid, { active: opts.active, q: opts.search }, selection, (meta) => {
      last = meta;
    });
    try {
      const printed = await printList(ctx, records, columnsFor(ctx, redemptionColumns, opts.fields));
      const note = listEndNote(printed, selection, last);
      if (note) say(ctx, note);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        throw new NotFoundError(`no coupon with Uid ${couponUid}`, { status: 404, code: err.code ?? 'not_found', hint: `${boCommand(ctx.globals, 'coupons list')} finds coupons` });
      }
      throw err;
    }
  },
});
