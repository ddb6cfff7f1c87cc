// Billing endpoints over HTTP (§4): add-on preview (D23), payment information (D17),
// coupons and redemptions (D15), upgrade-required (D18), add-on expiry (D24).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
beforeEach(() => sb.reset());
afterAll(() => sb.close());

async function subscriptionWithTerm(term: number) {
  for (const uid of sb.fixtures.subscriptions) {
    const s = await sb.record('Subscription', uid);
    if (s.BillingRenewalTerm === term && s.RenewalDate && Date.parse(s.RenewalDate) > Date.now()) return s;
  }
  throw new Error(`no subscription with term ${term}`);
}
async function addOnNamed(name: string) {
  for (const uid of sb.fixtures.addOns) {
    const a = await sb.record('AddOn', uid);
    if (a.Name === name) return a;
  }
  throw new Error(name);
}
function monthsBefore(iso: string, months: number): number {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.getTime();
}
const preview = (body: unknown) => sb.api('POST', '/billing/subscriptionaddons/addsubscriptionaddonpreview', { body });

describe('POST …/addsubscriptionaddonpreview (D23)', () => {
  it.each([
    [1, 'MonthlyRate', 1],
    [2, 'AnnualRate', 12],
    [3, 'QuarterlyRate', 3],
  ])('term %i uses %s, prorated by the remaining share of a %i-month period', async (term, rateField, months) => {
    const sub = await subscriptionWithTerm(term);
    const addOn = await addOnNamed('Extra seats'); // no setup fee
    const renewal = Date.parse(sub.RenewalDate);
    const periodStart = monthsBefore(sub.RenewalDate, months);
    const half = new Date((renewal + periodStart) / 2).toISOString();
    const r = await preview({ Subscription: { Uid: sub.Uid }, AddOn: { Uid: addOn.Uid }, Quantity: 3, StartDate: half });
    expect(r.status).toBe(200);
    const expected = Math.round(addOn[rateField] * 3 * 0.5 * 100) / 100;
    expect(r.body).toMatchObject({ _objectType: 'Invoice', AmountTax: 0, Amount: expected, AmountSubtotal: expected });
  });

  it('clamps the share to 0…1 and adds the setup fee once, not per unit', async () => {
    const sub = await subscriptionWithTerm(1);
    const addOn = await addOnNamed('Priority support'); // SetupFee 99
    const early = await preview({ Subscription: sub.Uid, AddOn: addOn.Uid, Quantity: 2, StartDate: '2000-01-01T00:00:00Z' });
    expect(early.body.Amount).toBe(addOn.MonthlyRate * 2 + addOn.SetupFee);
    const late = await preview({ Subscription: sub.Uid, AddOn: addOn.Uid, Quantity: 2, StartDate: '2999-01-01T00:00:00Z' });
    expect(late.body.Amount).toBe(addOn.SetupFee);
  });

  it('a one-time add-on (type 2) uses OneTimeRate with no proration', async () => {
    const sub = await subscriptionWithTerm(2);
    const addOn = await addOnNamed('Onboarding workshop');
    const r = await preview({ Subscription: sub.Uid, AddOn: addOn.Uid, Quantity: 2, StartDate: sub.RenewalDate });
    expect(r.body.Amount).toBe(addOn.OneTimeRate * 2);
  });

  it('defaults Quantity to max(1, MinimumQuantity) and refuses less than the minimum', async () => {
    const sub = await subscriptionWithTerm(1);
    const addOn = await addOnNamed('Storage pack'); // MinimumQuantity 5
    const r = await preview({ Subscription: sub.Uid, AddOn: addOn.Uid, StartDate: '2000-01-01T00:00:00Z' });
    expect(r.body.Amount).toBe(Math.round(addOn.MonthlyRate * 5 * 100) / 100);
    const low = await preview({ Subscription: sub.Uid, AddOn: addOn.Uid, Quantity: 4 });
    expect(low.status).toBe(400);
    expect(low.body.errors[0].field).toBe('Quantity');
  });

  it('saves nothing', async () => {
    const sub = await subscriptionWithTerm(1);
    const fields = 'fields=Subscriptions.SubscriptionAddOns.Uid';
    const before = await sb.api('GET', `/crm/accounts?q=${sub.Account.Uid}&${fields}`);
    await preview({ Subscription: sub.Uid, AddOn: sb.fixtures.addOns[0] });
    expect(await sb.api('GET', `/crm/accounts?q=${sub.Account.Uid}&${fields}`)).toMatchObject({ body: before.body });
  });

  it('answers 404 for an unknown subscription or add-on, 400 without them', async () => {
    expect((await preview({ Subscription: 'sub_nope', AddOn: sb.fixtures.addOns[0] })).status).toBe(404);
    expect((await preview({ Subscription: sb.fixtures.subscriptions[0], AddOn: { Uid: 'nope' } })).status).toBe(404);
    const r = await preview({ AddOn: sb.fixtures.addOns[0] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('Subscription');
  });
});

describe('POST /billing/paymentinformation (D17)', () => {
  it('stores the payment fields and answers without the secret ones', async () => {
    const account = sb.fixtures.accounts[6]!; // a Demo-stage account: no payment information yet
    const r = await sb.api('POST', '/billing/paymentinformation', {
      body: { Account: { Uid: account }, PaymentToken: 'tok_secret', OneTimeToken: 'ott', CustomerToken: 'cus', SetupIntent: 'si', PaymentClientSecret: 'pcs', PaymentMethodType: 'card', NameOnCard: 'Ada', LastFourDigits: '4242', ExpirationMonth: '12', ExpirationYear: '2030' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ PaymentMethodType: 'card', NameOnCard: 'Ada', LastFourDigits: '4242' });
    for (const f of ['PaymentToken', 'OneTimeToken', 'CustomerToken', 'SetupIntent', 'PaymentClientSecret']) expect(r.body).not.toHaveProperty(f);
    const stored = await sb.record('PaymentInformation', r.body.Uid);
    expect(stored.PaymentToken).toBe('tok_secret');
    expect((await sb.record('Account', account)).PaymentInformation).toEqual({ Uid: r.body.Uid });
  });

  it('updates the account\'s existing payment information in place', async () => {
    const account = sb.fixtures.accounts[0]!; // Subscribing: has one
    const existing = (await sb.record('Account', account)).PaymentInformation.Uid;
    const r = await sb.api('POST', '/billing/paymentinformation', { body: { Account: account, PaymentToken: 't', LastFourDigits: '1111' } });
    expect(r.body.Uid).toBe(existing);
    expect((await sb.record('PaymentInformation', existing)).LastFourDigits).toBe('1111');
  });

  it('refuses a card number as LastFourDigits, an unknown account, a missing Account', async () => {
    const account = sb.fixtures.accounts[0]!;
    const bad = await sb.api('POST', '/billing/paymentinformation', { body: { Account: account, LastFourDigits: '4242424242424242' } });
    expect(bad.status).toBe(400);
    expect((await sb.api('POST', '/billing/paymentinformation', { body: { Account: 'acc_nope' } })).status).toBe(404);
    expect((await sb.api('POST', '/billing/paymentinformation', { body: { PaymentToken: 'x' } })).body.errors[0].field).toBe('Account');
  });
});

describe('GET /billing/discountcoupons (D15)', () => {
  const codes = async (query: string) =>
    (await sb.api('GET', `/billing/discountcoupons${query}`)).body.items.map((c: { UniqueIdentifier: string }) => c.UniqueIdentifier).sort();

  it('isActive=true keeps redeemable coupons only (active, before RedeemBy, redemptions left)', async () => {
    expect(await codes('')).toEqual(['FOUNDERS', 'GROWTH50', 'LEGACY20', 'SPRING25', 'WELCOME10']);
    expect(await codes('?isActive=true')).toEqual(['GROWTH50', 'WELCOME10']);
    expect(await codes('?isActive=false')).toEqual(['FOUNDERS', 'LEGACY20', 'SPRING25']);
  });

  it('q searches name or code case-insensitively; planUid keeps coupons for that plan', async () => {
    expect(await codes('?q=welcome')).toEqual(['WELCOME10']);
    expect(await codes('?q=launch')).toEqual(['GROWTH50']);
    const [starter, growth] = sb.fixtures.plans;
    expect(await codes(`?planUid=${growth}`)).toEqual(['FOUNDERS', 'GROWTH50', 'SPRING25', 'WELCOME10']);
    expect(await codes(`?planUid=${starter}&isActive=true`)).toEqual(['WELCOME10']);
  });

  it('refuses a non-boolean isActive and an unknown filter property (D14)', async () => {
    expect((await sb.api('GET', '/billing/discountcoupons?isActive=yes')).status).toBe(400);
    const r = await sb.api('GET', '/billing/discountcoupons?Colour=red');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('Colour');
  });
});

describe('GET /billing/discountcoupons/{uid}/redemptions (D15)', () => {
  it('lists the coupon\'s redemptions; isActive=true keeps unexpired ones; q matches account or plan name', async () => {
    const coupon = sb.fixtures.coupons[0]!;
    const all = await sb.api('GET', `/billing/discountcoupons/${coupon}/redemptions`);
    expect(all.status).toBe(200);
    expect(all.body.metadata.total).toBeGreaterThan(1);
    for (const r of all.body.items) expect(r.DiscountCoupon.Uid).toBe(coupon);
    const active = await sb.api('GET', `/billing/discountcoupons/${coupon}/redemptions?isActive=true`);
    expect(active.body.items.length).toBeGreaterThan(0);
    expect(active.body.items.length).toBeLessThan(all.body.items.length);
    for (const r of active.body.items) expect(Date.parse(r.ExpireDate)).toBeGreaterThan(Date.now());
    const first = all.body.items[0];
    const sub = await sb.record('Subscription', first.Subscription.Uid);
    const account = await sb.record('Account', sub.Account.Uid);
    const byName = await sb.api('GET', `/billing/discountcoupons/${coupon}/redemptions?q=${encodeURIComponent(account.Name.toUpperCase())}`);
    expect(byName.body.items.map((r: { Uid: string }) => r.Uid)).toContain(first.Uid);
    const none = await sb.api('GET', `/billing/discountcoupons/${coupon}/redemptions?q=zzzz-no-such`);
    expect(none.body).toEqual({ metadata: { limit: 100, offset: 0, total: 0 }, items: [] });
  });

  it('answers 404 for an unknown coupon', async () => {
    expect((await sb.api('GET', '/billing/discountcoupons/nope/redemptions')).status).toBe(404);
  });
});

describe('PUT …/setsubscriptionupgraderequired (D18)', () => {
  it('merges the upgrade fields and answers the updated subscription', async () => {
    const uid = sb.fixtures.subscriptions[0]!;
    const before = await sb.record('Subscription', uid);
    const r = await sb.api('PUT', `/billing/subscriptions/${uid}/setsubscriptionupgraderequired`, {
      body: { IsPlanUpgradeRequired: true, NewRequiredQuantity: 12, PlanUpgradeRequiredMessage: 'Too many seats' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Uid: uid, IsPlanUpgradeRequired: true, NewRequiredQuantity: 12, Quantity: before.Quantity });
    await sb.api('PUT', `/billing/subscriptions/${uid}/setsubscriptionupgraderequired`, { body: { IsPlanUpgradeRequired: false } });
    expect(await sb.record('Subscription', uid)).toMatchObject({ IsPlanUpgradeRequired: false, NewRequiredQuantity: 12, PlanUpgradeRequiredMessage: 'Too many seats' });
  });

  it('refuses a negative quantity (400) and an unknown subscription (404)', async () => {
    const uid = sb.fixtures.subscriptions[0]!;
    expect((await sb.api('PUT', `/billing/subscriptions/${uid}/setsubscriptionupgraderequired`, { body: { NewRequiredQuantity: -1 } })).status).toBe(400);
    expect((await sb.api('PUT', '/billing/subscriptions/nope/setsubscriptionupgraderequired', { body: {} })).status).toBe(404);
  });
});

describe('PUT /billing/subscriptionaddons/{uid}/expire (D24)', () => {
  it('ends a running add-on now; expiring again changes nothing and still answers 200', async () => {
    const uid = sb.fixtures.subscriptionAddOns[0]!;
    const first = await sb.api('PUT', `/billing/subscriptionaddons/${uid}/expire`);
    expect(first.status).toBe(200);
    expect(typeof first.body).toBe('string');
    const ended = await sb.record('SubscriptionAddOn', uid);
    expect(Math.abs(Date.parse(ended.EndDate) - Date.now())).toBeLessThan(60_000);
    expect(ended.ExpirationDate).toBe(ended.EndDate);
    const second = await sb.api('PUT', `/billing/subscriptionaddons/${uid}/expire`);
    expect(second.status).toBe(200);
    expect(await sb.record('SubscriptionAddOn', uid)).toEqual(ended);
  });

  it('answers 404 for an unknown add-on', async () => {
    expect((await sb.api('PUT', '/billing/subscriptionaddons/nope/expire')).status).toBe(404);
  });
});
