// Sandbox-only endpoints (DECISIONS "Sandbox-only endpoints"): fixtures shape,
// records, activity log (donotlog), clock, reset, and the routing edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe('GET /__sandbox/fixtures', () => {
  it('has exactly the documented keys, every array non-empty', () => {
    expect(Object.keys(sb.fixtures).sort()).toEqual(
      ['apiKey', 'users', 'accounts', 'trialAccounts', 'memberships', 'deals', 'plans', 'addOns', 'subscriptions',
        'subscriptionAddOns', 'coupons', 'emailLists', 'broadcasts', 'dripCampaigns', 'articles', 'people',
        'pipelineStages', 'segments'].sort(),
    );
    for (const [key, value] of Object.entries(sb.fixtures)) {
      if (Array.isArray(value)) expect(value.length, key).toBeGreaterThan(0);
    }
    expect(sb.fixtures.apiKey.scheme).toBe('bo');
    expect(sb.fixtures.memberships[0]).toEqual({ accountUid: expect.any(String), uid: expect.any(String) });
    expect(sb.fixtures.articles[0]).toEqual({ uid: expect.any(String), tagUids: expect.arrayContaining([expect.any(String)]) });
  });

  it('lists one user of each kind, each username a seeded person\'s email', async () => {
    const kinds = sb.fixtures.users.map((u) => u.kind).sort();
    expect(kinds).toEqual(['both', 'email', 'enroll', 'plain', 'totp']);
    const people = await Promise.all(sb.fixtures.people.map((uid) => sb.record('Person', uid)));
    const emails = new Set(people.map((p) => p.Email));
    for (const user of sb.fixtures.users) {
      expect(emails.has(user.username), user.username).toBe(true);
      expect(user.password.length).toBeGreaterThan(8);
    }
  });

  it('gives totp/email/both users unused recovery codes, the enroll user none; TOTP users a secret', () => {
    for (const u of sb.fixtures.users) {
      if (u.kind === 'enroll' || u.kind === 'plain') expect(u.recoveryCodes, u.kind).toEqual([]);
      else expect(u.recoveryCodes.length, u.kind).toBeGreaterThan(0);
      if (u.kind === 'totp' || u.kind === 'both') expect(u.totpSecret).toMatch(/^[A-Z2-7]+=*$/);
      else expect(u.totpSecret).toBeNull();
    }
  });

  it('is deterministic: the same seed gives the same Uids, another seed other Uids', async () => {
    const same = await startTestSandbox({ seed: 1 });
    const other = await startTestSandbox({ seed: 2 });
    try {
      const { apiKey: _a, ...mine } = sb.fixtures;
      const { apiKey: _b, ...again } = same.fixtures;
      expect(again).toEqual(mine);
      expect(same.fixtures.apiKey).toEqual(sb.fixtures.apiKey);
      expect(other.fixtures.accounts).not.toEqual(sb.fixtures.accounts);
    } finally {
      await same.close();
      await other.close();
    }
  });

  it('names trial accounts that are in trial with a future trial end', async () => {
    for (const uid of sb.fixtures.trialAccounts.slice(0, 3)) {
      const account = await sb.record('Account', uid);
      expect(account.AccountStage).toBe(2);
      const sub = await sb.record('Subscription', account.CurrentSubscription.Uid);
      expect(Date.parse(sub.EndDate)).toBeGreaterThan(Date.now());
    }
  });

  it('names running add-ons, a redeemable coupon and an active drip campaign', async () => {
    for (const uid of sb.fixtures.subscriptionAddOns) {
      const sa = await sb.record('SubscriptionAddOn', uid);
      expect(sa.EndDate).toBeNull();
    }
    const coupons = await sb.api('GET', '/billing/discountcoupons?isActive=true');
    expect(coupons.body.items.length).toBeGreaterThan(0);
    const drips = await Promise.all(sb.fixtures.dripCampaigns.map((uid) => sb.record('DripCampaign', uid)));
    expect(drips.some((d) => d.IsActive === true)).toBe(true);
  });
});

describe('GET /__sandbox/records/<Kind>/<Uid>', () => {
  it('returns the stored record with all fields', async () => {
    const plan = await sb.record('Plan', sb.fixtures.plans[0]!);
    expect(plan).toMatchObject({ Uid: sb.fixtures.plans[0], _objectType: 'Plan', Name: expect.any(String) });
  });

  it('answers 404 for an unknown Uid or kind', async () => {
    const r = await sb.raw('GET', '/__sandbox/records/Plan/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
    expect((await sb.raw('GET', '/__sandbox/records/Widget/x')).status).toBe(404);
  });
});

describe('GET /__sandbox/activity', () => {
  it('logs every /api/v1 request in order, reads included, but not donotlog=1 or /__sandbox', async () => {
    await sb.reset();
    await sb.api('GET', '/email/lists');
    await sb.api('GET', '/email/lists?donotlog=1');
    await sb.api('GET', '/crm/accounts', { authorization: null });
    await sb.raw('GET', '/__sandbox/outbox');
    const log = await sb.activity();
    expect(log.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/v1/email/lists', 200],
      ['GET', '/api/v1/crm/accounts', 401],
    ]);
    expect(log[0]!.who).toBe(`key:${sb.fixtures.apiKey.key}`);
    expect(log[1]!.who).toBeNull();
    expect(Date.parse(log[0]!.at)).not.toBeNaN();
  });
});

describe('POST /__sandbox/clock', () => {
  it('moves the sandbox clock: a trial account stops being "future"', async () => {
    await sb.reset();
    const before = await sb.raw('POST', '/__sandbox/clock', { body: { advanceSeconds: 0 } });
    const r = await sb.raw('POST', '/__sandbox/clock', { body: { advanceSeconds: 3600 } });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3600_000);
    expect(r.body.offsetSeconds).toBe(3600);
    // The clock drives server timestamps, e.g. an expired add-on's EndDate (D24).
    const uid = sb.fixtures.subscriptionAddOns[0]!;
    await sb.api('PUT', `/billing/subscriptionaddons/${uid}/expire`);
    const sa = await sb.record('SubscriptionAddOn', uid);
    expect(Date.parse(sa.EndDate)).toBeGreaterThanOrEqual(Date.now() + 3500_000);
  });

  it('the Date header of every answer follows the sandbox clock (D37)', async () => {
    await sb.reset();
    await sb.raw('POST', '/__sandbox/clock', { body: { advanceSeconds: 7200 } });
    const r = await sb.api('GET', '/crm/accounts?limit=1&donotlog=1');
    expect(r.status).toBe(200);
    // A whole hour at least ahead of this machine's clock, whatever the second it was sent in.
    expect(Date.parse(r.headers.get('date')!) - Date.now()).toBeGreaterThan(3600_000);
    await sb.reset();
    const back = await sb.raw('GET', '/.well-known/jwks.json');
    expect(Math.abs(Date.parse(back.headers.get('date')!) - Date.now())).toBeLessThan(3600_000);
  });

  it('rejects a non-number with a D6 validation error', async () => {
    const r = await sb.raw('POST', '/__sandbox/clock', { body: { advanceSeconds: 'soon' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_failed');
    expect(r.body.errors).toEqual([{ field: 'advanceSeconds', message: expect.any(String) }]);
  });
});

describe('POST /__sandbox/reset', () => {
  it('restores seeded records, clears outbox and activity, and resets the clock', async () => {
    const list = await sb.api('POST', '/email/lists', { body: { Name: 'Reset me' } });
    expect(list.status).toBe(201);
    await sb.advanceClock(86_400);
    await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: sb.fixtures.users[0]!.username }, authorization: null });
    expect((await sb.outbox()).length).toBe(1);
    await sb.reset();
    expect(await sb.record('EmailList', list.body.Uid)).toBeNull();
    expect(await sb.outbox()).toEqual([]);
    expect(await sb.activity()).toEqual([]);
    const clock = await sb.raw('POST', '/__sandbox/clock', { body: { advanceSeconds: 0 } });
    expect(clock.body.offsetSeconds).toBe(0);
    const again = await sb.raw('GET', '/__sandbox/fixtures');
    expect(again.body.accounts).toEqual(sb.fixtures.accounts);
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 not_found (D6)', async () => {
    const r = await sb.api('GET', '/crm/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', error_description: expect.stringContaining('/api/v1/crm/nothing-here') });
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const r = await sb.api('DELETE', '/crm/accounts');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    expect(r.body.error).toBe('method_not_allowed');
  });
});
