// src/api/resource-fields.ts is generated from the API reference (../shared/api/SERVICE-API.md
// beside the clone): it must be what the generator makes of the document now, and the
// generator must read the document's tables and prose lists as they are meant.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SOURCE, OUTPUT, parseResources, renderModule } from '../../scripts/resource-fields.mjs';

const doc = readFileSync(DEFAULT_SOURCE, 'utf8');

describe('the resource fields of the API reference', () => {
  it('the committed module is current', () => {
    expect(readFileSync(OUTPUT, 'utf8'), 'src/api/resource-fields.ts is stale: run `node scripts/resource-fields.mjs` and commit it').toBe(
      renderModule(parseResources(doc)),
    );
  });

  it('reads tables, prose lists, groups, notes, ranges, nested objects and named resources', () => {
    const r = parseResources(doc);
    const field = (kind: string, name: string) => r.get(kind)?.get(name);
    expect([...r.get('*')!.keys()]).toEqual(['Uid', '_objectType', 'Created', 'Updated', 'ActivityEventData']);
    // A table row's names, and "A1 ... A10".
    expect(field('Account', 'AccountSpecificPageUrl10')).toEqual({ type: 'string' });
    expect(field('Account', 'PrimaryContact')).toEqual({ type: 'object', ref: 'Person' });
    expect(field('Account', 'PersonAccount')).toEqual({ type: 'array', ref: 'PersonAccount' });
    // "Description, WelcomeSubject, … (strings; …)": a plural types the names before it.
    expect(field('EmailList', 'WelcomeSubject')).toEqual({ type: 'string' });
    // "Name, BillingAddOnType (integer)": a singular types one name.
    expect(field('AddOn', 'Name')!.type).toBe('');
    expect(field('AddOn', 'BillingAddOnType')!.type).toBe('integer');
    // "ProviderProfileId (OAuth)" is a note; "(strings)" after it types the group.
    expect(field('Person', 'ProviderProfileId')!.type).toBe('string');
    // "counters CountSent, …"; "(object: Name, …)" an unnamed nested object.
    expect(field('Message', 'CountSent')!.type).toBe('integer');
    expect(field('BroadcastCampaign', 'Campaign')).toEqual({ type: 'object', ref: 'BroadcastCampaign.Campaign' });
    expect(field('BroadcastCampaign.Campaign', 'CampaignType')!.type).toBe('integer');
    // Sub-resources by label, and "(strings unless stated)".
    expect(field('PaymentInformation', 'NumberOfFailures')!.type).toBe('integer');
    expect(field('PaymentInformation', 'NameOnCard')!.type).toBe('string');
    expect(field('PaymentInformation', 'Account')).toEqual({ type: 'object', ref: 'Account' });
    expect(field('DripCampaignMessage', 'DelayInHours')!.type).toBe('integer');
    expect(field('DiscountCouponSubscription', 'DiscountCoupon')).toEqual({ type: 'object', ref: 'DiscountCoupon' });
    // Sentences that list no fields are not read as fields.
    expect(r.get('Deal')!.has('Other')).toBe(false);
    expect([...r.keys()].some((k) => /Gateway-mirrored|Other/.test(k))).toBe(false);
  });
});
