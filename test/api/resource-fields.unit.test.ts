// src/api/resource-fields.ts is generated from the API reference (SERVICE-API.md §2) by
// scripts/resource-fields.mjs, run by hand: the reference is not part of this repository,
// and nothing here reads outside it. This checks the committed module's shape, and the
// generator's reading rules on an excerpt of the reference kept beside this test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseResources } from '../../scripts/resource-fields.mjs';
import { RESOURCE_FIELDS } from '../../src/api/resource-fields.js';

const doc = readFileSync(new URL('./fixtures/service-api-resources.md', import.meta.url), 'utf8');
const TYPES = new Set(['', 'string', 'integer', 'number', 'boolean', 'date-time', 'object', 'array', 'array of string']);

describe('the resource fields of the API reference', () => {
  it('the committed module holds well-formed rows: known types, unique names, references to resources it lists', () => {
    expect(RESOURCE_FIELDS['*']!.map(([name]) => name)).toEqual(['Uid', '_objectType', 'Created', 'Updated', 'ActivityEventData']);
    expect(Object.keys(RESOURCE_FIELDS).length).toBeGreaterThan(20);
    for (const [kind, rows] of Object.entries(RESOURCE_FIELDS)) {
      const names = rows.map(([name]) => name);
      expect(new Set(names).size, `${kind} names a field twice`).toBe(names.length);
      for (const [name, type, holds] of rows) {
        expect(name, kind).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
        expect(TYPES.has(type), `${kind}.${name} has the type ${JSON.stringify(type)}`).toBe(true);
        if (holds !== undefined) {
          expect(RESOURCE_FIELDS[holds], `${kind}.${name} holds ${holds}, which the module does not list`).toBeDefined();
          expect(['object', 'array'], `${kind}.${name} holds a resource`).toContain(type);
        }
      }
    }
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
