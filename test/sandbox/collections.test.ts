// List behaviour over HTTP: D13 paging and caps, D14 filters and orderBy, D16 fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const ACCOUNTS = 260;
beforeAll(async () => {
  sb = await startTestSandbox({ accounts: ACCOUNTS });
});
afterAll(() => sb.close());

const accounts = (query: string) => sb.api('GET', `/crm/accounts${query}`);

describe('paging (D13)', () => {
  it('defaults to 100 and caps limit at 100', async () => {
    const a = await accounts('');
    expect(a.body.metadata).toEqual({ limit: 100, offset: 0, total: ACCOUNTS });
    expect(a.body.items).toHaveLength(100);
    const b = await accounts('?limit=500&fields=Name');
    expect(b.body.metadata.limit).toBe(100);
    expect(b.body.items).toHaveLength(100);
  });

  it('caps at 25 when fields go below the first level (a dotted path or *)', async () => {
    for (const fields of ['CurrentSubscription.Plan.Name', '*']) {
      const r = await accounts(`?limit=100&fields=${fields}`);
      expect(r.body.metadata.limit, fields).toBe(25);
      expect(r.body.items).toHaveLength(25);
    }
  });

  it('offset is a page index in units of the applied limit, and every record comes once', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset++) {
      const r = await accounts(`?limit=100&offset=${offset}&fields=Name`);
      expect(r.body.metadata).toEqual({ limit: 100, offset, total: ACCOUNTS });
      if (r.body.items.length === 0) break;
      seen.push(...r.body.items.map((a: { Uid: string }) => a.Uid));
    }
    expect(seen).toHaveLength(ACCOUNTS);
    expect(new Set(seen).size).toBe(ACCOUNTS);
    const second = await accounts('?limit=50&offset=1&fields=Name');
    expect(second.body.items.map((a: { Uid: string }) => a.Uid)).toEqual(seen.slice(50, 100));
  });

  it('the last partial page and past the end', async () => {
    const last = await accounts('?limit=100&offset=2&fields=Name');
    expect(last.body.items).toHaveLength(ACCOUNTS - 200);
    const past = await accounts('?limit=100&offset=99');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ metadata: { limit: 100, offset: 99, total: ACCOUNTS }, items: [] });
  });

  it.each([['limit=0'], ['limit=-1'], ['limit=abc'], ['limit=1.5'], ['offset=-1'], ['offset=x']])(
    'refuses %s with 400 naming the parameter',
    async (query) => {
      const r = await accounts(`?${query}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('validation_failed');
      expect(r.body.errors[0].field).toBe(query.split('=')[0]);
    },
  );
});

describe('filters and orderBy (D14)', () => {
  it('filters by equality on a top-level scalar, numbers and booleans read as JSON', async () => {
    const r = await accounts('?AccountStage=2&limit=100');
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const a of r.body.items) expect(a.AccountStage).toBe(2);
    const demo = await accounts('?IsDemo=true');
    for (const a of demo.body.items) expect(a.IsDemo).toBe(true);
    const both = await accounts('?IsDemo=true&AccountStage=3');
    expect(both.body.metadata.total).toBe(0);
  });

  it('refuses a filter on an unknown property, naming it', async () => {
    const r = await accounts('?AccountStag=2');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'AccountStag', message: expect.stringContaining('AccountStag') }]);
  });

  it('sorts ascending and with "desc" descending', async () => {
    const names = (r: { body: { items: Array<{ Name: string }> } }) => r.body.items.map((a) => a.Name);
    const asc = names(await accounts('?orderBy=Name&fields=Name&limit=100'));
    const all = names(await accounts(`?fields=Name&limit=100`));
    expect(asc).toEqual([...asc].sort());
    expect(asc).not.toEqual(all);
    const desc = names(await accounts(`?orderBy=${encodeURIComponent('Name desc')}&fields=Name`));
    expect(desc).toEqual([...desc].sort().reverse());
    const num = (await accounts('?orderBy=LifetimeRevenue%20desc&fields=LifetimeRevenue&limit=10')).body.items.map((a: { LifetimeRevenue: number }) => a.LifetimeRevenue);
    expect(num).toEqual([...num].sort((x: number, y: number) => y - x));
  });

  it('refuses orderBy on an unknown property or with a bad direction', async () => {
    const r = await accounts('?orderBy=Nmae');
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ field: 'orderBy', message: expect.stringContaining('Nmae') });
    expect((await accounts('?orderBy=Name%20sideways')).status).toBe(400);
  });
});

describe('fields (D16)', () => {
  it('default depth: immediate children expanded, deeper references null, back-references {} / []', async () => {
    const r = await accounts(`?q=${sb.fixtures.accounts[0]}`);
    const a = r.body.items[0];
    expect(a.BillingAddress).toMatchObject({ City: expect.any(String) });
    expect(a.CurrentSubscription).toMatchObject({ Uid: expect.any(String), _objectType: 'Subscription' });
    expect(a.CurrentSubscription.Plan).toBeNull();
    expect(a.CurrentSubscription.SubscriptionAddOns).toBeNull();
    expect(a.CurrentSubscription.Account).toEqual({});
    expect(a.Subscriptions[0].Account).toEqual({});
    expect(a.PersonAccount.length).toBeGreaterThan(0);
    expect(a.PersonAccount[0].Account).toEqual({});
    expect(a.PersonAccount[0].Person).toBeNull();
    expect(a.PrimaryContact).toMatchObject({ Email: expect.any(String), PersonAccount: null, Account: {} });
  });

  it('returns Uid plus the requested paths; a dotted path goes deeper; X.* is X\'s scalars', async () => {
    const r = await accounts(`?q=${sb.fixtures.accounts[0]}&fields=Name,CurrentSubscription.Plan.Name`);
    const a = r.body.items[0];
    expect(Object.keys(a).sort()).toEqual(['CurrentSubscription', 'Name', 'Uid']);
    expect(Object.keys(a.CurrentSubscription).sort()).toEqual(['Plan', 'Uid']);
    expect(a.CurrentSubscription.Plan).toEqual({ Uid: expect.any(String), Name: expect.any(String) });
    const star = (await accounts(`?q=${sb.fixtures.accounts[0]}&fields=CurrentSubscription.*`)).body.items[0];
    expect(star.CurrentSubscription).toMatchObject({ Uid: expect.any(String), BillingRenewalTerm: expect.any(Number), RenewalDate: expect.any(String) });
    expect(star.CurrentSubscription).not.toHaveProperty('Plan');
  });

  it('drops unknown paths silently and stays 200', async () => {
    const r = await accounts(`?q=${sb.fixtures.accounts[0]}&fields=Name,NoSuchThing,CurrentSubscription.Nope`);
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toEqual({ Uid: sb.fixtures.accounts[0], Name: expect.any(String), CurrentSubscription: { Uid: expect.any(String) } });
  });

  it('applies to email lists too', async () => {
    const r = await sb.api('GET', '/email/lists?fields=Name&orderBy=Name');
    expect(r.body.items.map((l: object) => Object.keys(l).sort())).toEqual(r.body.items.map(() => ['Name', 'Uid']));
  });
});
