import type { PageMeta } from '../../api/paginate.js';
import { defineCommand } from '../../command.js';
import { listOptions, parseListOptions, listEndNote, checkSearch } from '../../input/list-options.js';
import type { DiscountCoupon } from '../../api/types.js';
import { printList, say, type Column } from '../../output/print.js';
import { listCoupons } from '../../api/billing.js';
import { columnsFor, tableFields } from '../../output/columns.js';
import { checkUid } from '../../input/validate.js';
import { ApiError, NotFoundError } from '../../errors.js';
import { option } from '../../input/declare.js';

/**
 * `10 %` or `50 off`: a percentage, or an amount (a coupon carries no currency; it
 * takes the subscription's).
 */
function discount(c: DiscountCoupon): string | undefined {
  if (typeof c.PercentOff === 'number') return `${c.PercentOff} %`;
  if (typeof c.AmountOff === 'number') return `${Number.isInteger(c.AmountOff) ? c.AmountOff : c.AmountOff.toFixed(2)} off`;
  return undefined;
}

export const couponColumns: Column<DiscountCoupon>[] = [
  { header: 'Uid', get: (c) => c.Uid, from: ['Uid'] },
  { header: 'Code', get: (c) => c.UniqueIdentifier, from: ['UniqueIdentifier'] },
  { header: 'Name', get: (c) => c.Name, from: ['Name'], drop: 5 },
  { header: 'Discount', get: discount, from: ['PercentOff', 'AmountOff'], drop: 4 },
  { header: 'Active', get: (c) => c.IsActive, from: ['IsActive'], drop: 2 },
  {
    header: 'Redeemed',
    get: (c) => (c.MaxRedemptions ? `${c.TimesRedeemed ?? 0}/${c.MaxRedemptions}` : c.TimesRedeemed),
    from: ['MaxRedemptions', 'TimesRedeemed'],
    drop: 1,
  },
  { header: 'Redeem by', get: (c) => c.RedeemBy, kind: 'date', from: ['RedeemBy'], drop: 3 },
];

export default defineCommand({
  printsRecords: true,
  resource: 'DiscountCoupon',
  path: ['coupons', 'list'],
  mcp: 'read',
  summary: 'List discount coupons (GET /billing/discountcoupons)',
  description:
    'List discount coupons. --active keeps the coupons that can be redeemed now, --search matches part of ' +
      'a name or code (any case), --plan keeps the coupons that apply to that plan. The list options page for you.',
  examples: [
    'bo coupons list --active',
    'bo coupons list --search spring --json',
    'bo coupons list --plan plan_7a2ulmgbv --all --jsonl > coupons.jsonl',
  ],
  options: [
    option.switch('--active', 'only coupons that can be redeemed now'),
    option.text('--search <text>', 'part of a coupon name or code'),
    option.uid('--plan <uid>', 'only coupons that apply to this plan'),
    ...listOptions(),
  ] as const,
  run: async (ctx, _args, opts) => {
    const selection = parseListOptions(opts, tableFields(ctx, couponColumns, opts.fields), ctx.sink?.page?.bind(ctx.sink));
    checkSearch('--search', opts.search);
    if (opts.plan !== undefined) checkUid('--plan', opts.plan);
    const client = await ctx.api();
    let last: PageMeta | undefined;
    const records = listCoupons(client, { active: opts.active, q: opts.search, planUid: opts.plan }, selection, (meta) => {
      last = meta;
    });
    try {
      const printed = await printList(ctx, records, columnsFor(ctx, couponColumns, opts.fields));
      const note = listEndNote(printed, selection, last);
      if (note) say(ctx, note);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && opts.plan !== undefined) {
        throw new NotFoundError(`no plan with Uid ${opts.plan}`, { status: 404, code: err.code ?? 'not_found' });
      }
      throw err;
    }
  },
});
