// Billing endpoints (§4): add-on preview (D23), payment information (D17), coupons
// and redemptions (D15), upgrade-required (D18), add-on expiry (D24).

import { randomUUID } from 'node:crypto';
import { page } from '../collections.js';
import { ref, refUid } from '../db.js';
import { invalid, notFound } from '../http-error.js';
import { ok, rendered, type Route, type RouteRequest } from '../router.js';
import type { Rec } from '../schema.js';
import { addMonths } from '../seed-world.js';
import type { Tx } from '../tx.js';
import { bool, date, int, objectBody, present, refField, str } from '../validate.js';
import { merged, newRecord, V1 } from './common.js';

const TERM_MONTHS: Record<number, number> = { 1: 1, 2: 12, 3: 3 };

/** Half-up to cents (D23). */
export function cents(x: number): number {
  return (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-9)) / 100;
}

function preview(req: RouteRequest, tx: Tx) {
  const b = objectBody(req.body);
  const sub = tx.need('Subscription', refField(b, 'Subscription', true)!, 'subscription');
  const addOn = tx.need('AddOn', refField(b, 'AddOn', true)!, 'add-on');
  const minimum = typeof addOn.MinimumQuantity === 'number' ? addOn.MinimumQuantity : 1;
  const quantity = int(b, 'Quantity') ?? Math.max(1, minimum);
  if (quantity < Math.max(1, minimum)) throw invalid('Quantity', `must be at least ${Math.max(1, minimum)} (the add-on's MinimumQuantity)`);
  const now = tx.now();
  const start = date(b, 'StartDate') ?? now.toISOString();
  const oneTime = addOn.BillingAddOnType === 2;
  const term = typeof sub.BillingRenewalTerm === 'number' ? sub.BillingRenewalTerm : 1;
  const rateField = oneTime ? 'OneTimeRate' : term === 2 ? 'AnnualRate' : term === 3 ? 'QuarterlyRate' : 'MonthlyRate';
  const rate = Number(addOn[rateField] ?? 0);
  let share = 1;
  if (!oneTime && typeof sub.RenewalDate === 'string') {
    const renewal = Date.parse(sub.RenewalDate);
    const periodStart = Date.parse(addMonths(sub.RenewalDate, -(TERM_MONTHS[term] ?? 1)));
    share = Math.min(1, Math.max(0, (renewal - Date.parse(start)) / (renewal - periodStart)));
  }
  const lines: Array<Record<string, unknown>> = [
    { Description: `${addOn.Name} × ${quantity}`, AddOn: ref(addOn.Uid), Quantity: quantity, UnitAmount: rate, RateField: rateField, ProrationShare: share, Amount: cents(rate * quantity * share) },
  ];
  const setupFee = Number(addOn.SetupFee ?? 0);
  if (setupFee > 0) lines.push({ Description: `${addOn.Name} setup fee`, Quantity: 1, UnitAmount: setupFee, Amount: cents(setupFee) });
  const subtotal = cents(lines.reduce((sum, l) => sum + (l.Amount as number), 0));
  return ok({
    Uid: null, _objectType: 'Invoice', Created: null, Updated: null, ActivityEventData: {},
    InvoiceDate: now.toISOString(), PaymentReminderSentDate: null, Number: null, BillingInvoiceStatus: null,
    Subscription: ref(sub.Uid), Amount: subtotal, AmountOutstanding: subtotal, AmountCredit: 0, AmountDiscount: 0,
    AmountPaid: 0, AmountRefunded: 0, AmountSubtotal: subtotal, AmountTax: 0, AmountTaxRefunded: 0,
    InvoiceLineItems: lines, IsUserGenerated: false, IsTaxable: false, HasPaymentGatewayTransactions: false,
  });
}

const PAYMENT_STRINGS = ['CustomerToken', 'LatestFailureDescription', 'PaymentClientSecret', 'PaymentMethodType', 'PaymentToken',
  'BankName', 'BankAccountType', 'BankAccountHolderType', 'NameOnCard', 'CardType', 'Mode', 'OneTimeToken', 'CaptchaToken', 'SetupIntent'];
/** D17: never echoed back. */
const PAYMENT_SECRETS = ['PaymentToken', 'OneTimeToken', 'PaymentClientSecret', 'CustomerToken', 'SetupIntent'];

function savePaymentInformation(req: RouteRequest, tx: Tx) {
  const b = objectBody(req.body);
  const account = tx.need('Account', refField(b, 'Account', true)!, 'account');
  const changes: Record<string, unknown> = present({
    ...Object.fromEntries(PAYMENT_STRINGS.map((f) => [f, str(b, f, { max: 500 })])),
    LastFourDigits: str(b, 'LastFourDigits'),
    ExpirationMonth: str(b, 'ExpirationMonth'),
    ExpirationYear: str(b, 'ExpirationYear'),
    LatestFailureDateTime: date(b, 'LatestFailureDateTime'),
    LatestSuccessDateTime: date(b, 'LatestSuccessDateTime'),
    NumberOfFailures: int(b, 'NumberOfFailures', { min: 0 }),
  });
  if (typeof changes.LastFourDigits === 'string' && !/^\d{4}$/.test(changes.LastFourDigits)) throw invalid('LastFourDigits', 'must be 4 digits');
  if (typeof changes.ExpirationMonth === 'string' && !/^(0?[1-9]|1[0-2])$/.test(changes.ExpirationMonth)) throw invalid('ExpirationMonth', 'must be a month from 1 to 12');
  if (typeof changes.ExpirationYear === 'string' && !/^\d{4}$/.test(changes.ExpirationYear)) throw invalid('ExpirationYear', 'must be a 4-digit year');
  const existingUid = refUid(account.PaymentInformation);
  const existing = existingUid ? tx.get('PaymentInformation', existingUid) : undefined;
  const saved = existing
    ? merged(tx, existing, changes)
    : newRecord(tx, 'PaymentInformation', `pay_${randomUUID()}`, { Account: ref(account.Uid), NumberOfFailures: 0, ...changes });
  tx.put('PaymentInformation', saved);
  if (!existing) tx.put('Account', merged(tx, account, { PaymentInformation: ref(saved.Uid) }));
  return ok(rendered('PaymentInformation', saved.Uid, (shown) => {
    for (const f of PAYMENT_SECRETS) delete shown[f];
  }));
}

function booleanParam(req: RouteRequest, name: string): boolean | undefined {
  const v = req.query.get(name);
  if (v === null || v === '') return undefined;
  if (v !== 'true' && v !== 'false') throw invalid(name, `must be true or false, got ${JSON.stringify(v)}`);
  return v === 'true';
}

/** Redeemable now: active, before RedeemBy, redemptions left (D15). */
function redeemable(c: Rec, now: number): boolean {
  if (c.IsActive !== true) return false;
  if (typeof c.RedeemBy === 'string' && Date.parse(c.RedeemBy) <= now) return false;
  const max = c.MaxRedemptions;
  return !(typeof max === 'number' && max > 0 && Number(c.TimesRedeemed ?? 0) >= max);
}

function listCoupons(req: RouteRequest, tx: Tx) {
  const now = tx.now().getTime();
  let coupons = tx.db.all('DiscountCoupon');
  const active = booleanParam(req, 'isActive');
  if (active !== undefined) coupons = coupons.filter((c) => redeemable(c, now) === active);
  const q = req.query.get('q')?.toLowerCase();
  if (q) coupons = coupons.filter((c) => [c.Name, c.UniqueIdentifier].some((v) => String(v ?? '').toLowerCase().includes(q)));
  const planUid = req.query.get('planUid');
  if (planUid) {
    if (!tx.get('Plan', planUid)) throw notFound('plan', planUid);
    // A coupon that names no plan applies to every plan.
    coupons = coupons.filter((c) => {
      const plans = String(c.PlanUids ?? '').split(',').filter((p) => p !== '');
      return plans.length === 0 || plans.includes(planUid);
    });
  }
  return ok(page(tx.db, 'DiscountCoupon', coupons, req.query, ['isActive', 'q', 'planUid']));
}

function listRedemptions(req: RouteRequest, tx: Tx) {
  const coupon = tx.need('DiscountCoupon', req.params.discountCouponUid!, 'coupon');
  const db = tx.db;
  let redemptions = db.children('DiscountCouponSubscription', 'DiscountCoupon', coupon.Uid);
  const active = booleanParam(req, 'isActive');
  const now = tx.now().getTime();
  if (active !== undefined) {
    redemptions = redemptions.filter((r) => (typeof r.ExpireDate !== 'string' || Date.parse(r.ExpireDate) > now) === active);
  }
  const q = req.query.get('q')?.toLowerCase();
  if (q) {
    redemptions = redemptions.filter((r) => {
      const sub = db.get('Subscription', refUid(r.Subscription) ?? '');
      const account = sub && db.get('Account', refUid(sub.Account) ?? '');
      const plan = sub && db.get('Plan', refUid(sub.Plan) ?? '');
      return [account?.Name, plan?.Name].some((n) => String(n ?? '').toLowerCase().includes(q));
    });
  }
  return ok(page(db, 'DiscountCouponSubscription', redemptions, req.query, ['isActive', 'q']));
}

function setUpgradeRequired(req: RouteRequest, tx: Tx) {
  const sub = tx.need('Subscription', req.params.subscriptionUid!, 'subscription');
  const b = objectBody(req.body);
  const changes = present({
    IsPlanUpgradeRequired: bool(b, 'IsPlanUpgradeRequired'),
    NewRequiredQuantity: int(b, 'NewRequiredQuantity', { min: 0 }),
    PlanUpgradeRequiredMessage: str(b, 'PlanUpgradeRequiredMessage', { max: 1000 }),
    Quantity: int(b, 'Quantity', { min: 1 }),
  });
  tx.put('Subscription', merged(tx, sub, changes));
  return ok(rendered('Subscription', sub.Uid));
}

function expireAddOn(req: RouteRequest, tx: Tx) {
  const addOn = tx.need('SubscriptionAddOn', req.params.subscriptionAddOnUid!, 'subscription add-on');
  const now = tx.now();
  const ended = typeof addOn.EndDate === 'string' && Date.parse(addOn.EndDate) <= now.getTime();
  // D24: expiring an ended add-on changes nothing and still succeeds.
  if (ended) return ok(`Add-on already ended at ${addOn.EndDate}`);
  tx.put('SubscriptionAddOn', merged(tx, addOn, { EndDate: now.toISOString(), ExpirationDate: now.toISOString() }));
  return ok(`Add-on expired at ${now.toISOString()}`);
}

export const billingRoutes: Route[] = [
  { method: 'POST', pattern: `${V1}/billing/subscriptionaddons/addsubscriptionaddonpreview`, auth: 'required', handler: preview },
  { method: 'POST', pattern: `${V1}/billing/paymentinformation`, auth: 'required', handler: savePaymentInformation },
  { method: 'GET', pattern: `${V1}/billing/discountcoupons`, auth: 'required', handler: listCoupons },
  { method: 'GET', pattern: `${V1}/billing/discountcoupons/:discountCouponUid/redemptions`, auth: 'required', handler: listRedemptions },
  { method: 'PUT', pattern: `${V1}/billing/subscriptions/:subscriptionUid/setsubscriptionupgraderequired`, auth: 'required', handler: setUpgradeRequired },
  { method: 'PUT', pattern: `${V1}/billing/subscriptionaddons/:subscriptionAddOnUid/expire`, auth: 'required', handler: expireAddOn },
];
