// The seeded world (seed.ts): every kind the fixtures promise, in the states the
// decisions name, and the scale of --accounts for benchmarks.
import { describe, expect, it } from 'vitest';
import { Db } from '../../src/sandbox/db.js';
import { seedState } from '../../src/sandbox/seed.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-06-15T12:00:00Z');

describe('demo data', () => {
  const db = new Db(seedState({ seed: 1, accounts: 60 }, NOW));
  const accounts = db.all('Account');

  it('has accounts in every stage, each demo account with people and a primary membership', () => {
    expect(new Set(accounts.map((a) => a.AccountStage))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    for (const a of accounts) {
      const members = db.children('PersonAccount', 'Account', a.Uid);
      expect(members.length, a.Name as string).toBeGreaterThan(0);
      expect(members.some((m) => m.IsPrimary === true)).toBe(true);
    }
  });

  it('puts trial accounts on a trial plan with the trial end in the future', () => {
    const trials = accounts.filter((a) => a.AccountStage === 2);
    expect(trials.length).toBeGreaterThan(0);
    for (const a of trials) {
      const sub = db.get('Subscription', (a.CurrentSubscription as { Uid: string }).Uid)!;
      expect(Date.parse(sub.EndDate as string)).toBeGreaterThan(NOW.getTime());
      const plan = db.get('Plan', (sub.Plan as { Uid: string }).Uid)!;
      expect(plan.TrialPeriodDays).toBeGreaterThan(0);
    }
  });

  it('has invoices, running and ended add-ons, deals in pipeline stages, plan families', () => {
    expect(db.all('Invoice').length).toBeGreaterThan(0);
    const addOns = db.all('SubscriptionAddOn');
    expect(addOns.some((s) => s.EndDate === null)).toBe(true);
    expect(addOns.some((s) => typeof s.EndDate === 'string' && Date.parse(s.EndDate) < NOW.getTime())).toBe(true);
    for (const d of db.all('Deal')) expect(db.get('DealPipelineStage', (d.DealPipelineStage as { Uid: string }).Uid)).toBeDefined();
    for (const p of db.all('Plan')) expect(db.get('PlanFamily', (p.PlanFamily as { Uid: string }).Uid)).toBeDefined();
  });

  it('has coupons with redemptions, lists with subscribers in several statuses, drips with messages, tagged articles', () => {
    expect(db.all('DiscountCoupon').some((c) => db.children('DiscountCouponSubscription', 'DiscountCoupon', c.Uid).length > 0)).toBe(true);
    for (const l of db.all('EmailList')) {
      const subs = db.children('EmailListPerson', 'EmailList', l.Uid);
      expect(subs.length).toBeGreaterThan(0);
      expect(l.CountSubscriptionsActive).toBe(subs.filter((s) => s.EmailListSubscriberStatus === 1).length);
    }
    expect(new Set(db.all('EmailListPerson').map((s) => s.EmailListSubscriberStatus)).size).toBeGreaterThan(3);
    for (const d of db.all('DripCampaign')) expect(db.children('DripCampaignMessage', 'DripCampaign', d.Uid).length).toBeGreaterThan(0);
    for (const a of db.all('Article')) expect((a.Tags as unknown[]).length).toBeGreaterThan(0);
  });

  it('gives every person a unique email', () => {
    const emails = db.all('Person').map((p) => String(p.Email).toLowerCase());
    expect(new Set(emails).size).toBe(emails.length);
  });
});

describe('--accounts for benchmarks', () => {
  it('seeds 100,000 accounts, pages them at the cap and past the end', async () => {
    const sb = await startTestSandbox({ accounts: 100_000 });
    try {
      const last = await sb.api('GET', '/crm/accounts?limit=100&offset=999&fields=Name');
      expect(last.body.metadata).toEqual({ limit: 100, offset: 999, total: 100_000 });
      expect(last.body.items).toHaveLength(100);
      const past = await sb.api('GET', '/crm/accounts?limit=100&offset=1000');
      expect(past.body.items).toEqual([]);
      expect(sb.fixtures.accounts).toHaveLength(1000); // fixture arrays are capped
    } finally {
      await sb.close();
    }
  });
});

describe('seeded secrets', () => {
  const users = (seed: number) => {
    const auth = seedState({ seed, accounts: 60 }, NOW).auth as { users: Array<{ kind: string; totpSecret: string | null; recoveryCodes: string[] }> };
    return auth.users;
  };

  it('are the same for the same seed, differ by seed and by user, and are well formed', () => {
    const a = users(1);
    expect(users(1)).toEqual(a);
    const secrets = a.filter((u) => u.totpSecret !== null).map((u) => u.totpSecret!);
    expect(secrets).toHaveLength(2); // totp and both
    for (const s of secrets) expect(s).toMatch(/^[A-Z2-7]{32}$/); // 160 bits in base32
    expect(new Set(secrets).size).toBe(2);
    const codes = a.flatMap((u) => u.recoveryCodes);
    expect(codes).toHaveLength(30); // totp, email, both: ten each
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    expect(new Set(codes).size).toBe(30);
    expect(users(2).map((u) => u.totpSecret)).not.toEqual(a.map((u) => u.totpSecret));
  });
});
