// Contract tests: the billing functions and mutation request builders (sent through
// client.request) send bodies the sandbox accepts (D17, D18,
// D23, D24, D29), and what they change is stored.
import { describe, expect, it } from 'vitest';
import { expireAddOnRequest, previewAddOn, requireUpgradeRequest, updatePaymentInformationRequest } from '../../src/api/billing.js';
import { useSandboxClient } from './sandbox-client.js';

const t = useSandboxClient();
const send = t.send;

describe('billing functions against the sandbox', () => {
  it('previewAddOn sends Subscription and AddOn as references with Quantity; nothing is stored (D23)', async () => {
    const sub = t.sb.fixtures.subscriptions[0]!;
    const addOnUid = t.sb.fixtures.addOns[0]!;
    const addOn = await t.sb.record('AddOn', addOnUid);
    const quantity = Math.max(2, addOn.MinimumQuantity ?? 1);
    const before = JSON.stringify(await t.sb.record('Subscription', sub));
    const invoice = await previewAddOn(t.client, { subscriptionUid: sub, addOnUid, quantity, startDate: new Date().toISOString() });
    expect(invoice.Subscription).toEqual({ Uid: sub });
    expect(invoice.InvoiceLineItems?.[0]).toMatchObject({ Quantity: quantity, AddOn: { Uid: addOnUid } });
    expect(typeof invoice.Amount).toBe('number');
    expect(JSON.stringify(await t.sb.record('Subscription', sub))).toBe(before);
  });

  it('updatePaymentInformationRequest sends Account as a reference; the token is stored but not echoed (D17)', async () => {
    const account = t.sb.fixtures.accounts[0]!;
    const saved = (await send(updatePaymentInformationRequest(account, {
      PaymentToken: 'tok_contract_1',
      PaymentMethodType: 'card',
      NameOnCard: 'Ada Lovelace',
      LastFourDigits: '4242',
      ExpirationMonth: '12',
      ExpirationYear: '2030',
    }))) as Record<string, any>;
    expect(saved.PaymentToken).toBeUndefined();
    expect(saved.LastFourDigits).toBe('4242');
    const stored = await t.sb.record('PaymentInformation', saved.Uid);
    expect(stored).toMatchObject({ PaymentToken: 'tok_contract_1', NameOnCard: 'Ada Lovelace', ExpirationYear: '2030', Account: { Uid: account } });
  });

  it('requireUpgradeRequest sets and clears the upgrade flag with its quantity and message (D18)', async () => {
    const sub = t.sb.fixtures.subscriptions[1]!;
    await send(requireUpgradeRequest(sub, { IsPlanUpgradeRequired: true, NewRequiredQuantity: 12, PlanUpgradeRequiredMessage: 'Seats exceeded' }));
    expect(await t.sb.record('Subscription', sub)).toMatchObject({
      IsPlanUpgradeRequired: true,
      NewRequiredQuantity: 12,
      PlanUpgradeRequiredMessage: 'Seats exceeded',
    });
    await send(requireUpgradeRequest(sub, { IsPlanUpgradeRequired: false }));
    expect(await t.sb.record('Subscription', sub)).toMatchObject({ IsPlanUpgradeRequired: false, NewRequiredQuantity: 12 });
  });

  it('expireAddOnRequest ends a running add-on and is idempotent (D24)', async () => {
    const uid = t.sb.fixtures.subscriptionAddOns[0]!;
    expect(typeof (await send(expireAddOnRequest(uid)))).toBe('string');
    const ended = await t.sb.record('SubscriptionAddOn', uid);
    expect(Date.parse(ended.EndDate)).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(ended.ExpirationDate).toBe(ended.EndDate);
    expect(typeof (await send(expireAddOnRequest(uid)))).toBe('string');
    expect((await t.sb.record('SubscriptionAddOn', uid)).EndDate).toBe(ended.EndDate);
  });
});
