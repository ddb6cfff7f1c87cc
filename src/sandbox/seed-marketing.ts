// Seeded coupons and redemptions, email lists with subscribers, broadcasts in every
// status, drip campaigns with messages, and support articles with tags.

import { ref } from './db.js';
import { SUBSCRIBER_STATUS, type Rec } from './schema.js';
import type { Catalog } from './seed-catalog.js';
import type { World } from './seed-world.js';

export interface Marketing {
  coupons: Rec[];
  emailLists: Rec[];
  broadcasts: Rec[];
  drips: Rec[];
  articles: Rec[];
}

export function seedMarketing(w: World, catalog: Catalog, people: Rec[], subscriptions: Rec[]): Marketing {
  const coupons = seedCoupons(w, catalog, subscriptions);
  const emailLists = seedEmailLists(w, people);
  const broadcasts = seedBroadcasts(w, emailLists);
  const drips = seedDrips(w);
  const articles = seedArticles(w);
  return { coupons, emailLists, broadcasts, drips, articles };
}

function seedCoupons(w: World, catalog: Catalog, subscriptions: Rec[]): Rec[] {
  const [starter, growth] = catalog.plans;
  const specs = [
    { UniqueIdentifier: 'WELCOME10', Name: 'Welcome 10%', IsActive: true, PercentOff: 10, AmountOff: null, RedeemBy: w.iso(180), MaxRedemptions: null, plans: [] as Rec[] },
    { UniqueIdentifier: 'GROWTH50', Name: 'Growth launch $50 off', IsActive: true, PercentOff: null, AmountOff: 50, RedeemBy: w.iso(60), MaxRedemptions: 100, plans: [growth!] },
    { UniqueIdentifier: 'SPRING25', Name: 'Spring sale 25%', IsActive: true, PercentOff: 25, AmountOff: null, RedeemBy: w.iso(-20), MaxRedemptions: null, plans: [starter!, growth!] },
    { UniqueIdentifier: 'FOUNDERS', Name: 'Founders (fully redeemed)', IsActive: true, PercentOff: 50, AmountOff: null, RedeemBy: null, MaxRedemptions: 3, plans: [] as Rec[] },
    { UniqueIdentifier: 'LEGACY20', Name: 'Legacy partner 20%', IsActive: false, PercentOff: 20, AmountOff: null, RedeemBy: null, MaxRedemptions: null, plans: [starter!] },
  ];
  return specs.map((s, n) => {
    const redeemers = subscriptions.filter((_, k) => k % 5 === n).slice(0, n === 3 ? 3 : 4);
    const coupon = w.add('DiscountCoupon', 'coupon', {
      UniqueIdentifier: s.UniqueIdentifier, Name: s.Name, IsActive: s.IsActive, AmountOff: s.AmountOff, PercentOff: s.PercentOff,
      RedeemBy: s.RedeemBy, Duration: 2, DurationInMonths: 3, TimesRedeemed: redeemers.length, MaxRedemptions: s.MaxRedemptions,
      DiscountCouponPlans: s.plans.map((p) => ({ Plan: ref(p.Uid) })), ApplyToAddOns: false, IsInUse: redeemers.length > 0,
      PlanUids: s.plans.map((p) => p.Uid).join(','),
    }, 200);
    redeemers.forEach((sub, k) => {
      // Alternate: some redemptions still running, some expired (D15 isActive).
      w.add('DiscountCouponSubscription', 'redeem', {
        RedeemedDate: w.iso(-30 - k * 20), ExpireDate: k % 2 === 0 ? w.iso(60 + k) : w.iso(-k - 1),
        Subscription: ref(sub.Uid), DiscountCoupon: ref(coupon.Uid),
      }, 30 + k * 20);
    });
    return coupon;
  });
}

function seedEmailLists(w: World, people: Rec[]): Rec[] {
  const specs = [
    { Name: 'Newsletter', Description: 'Monthly product news', RequiresDoubleOptIn: false, IsInternal: false, WelcomeSubject: 'Welcome to the newsletter', WelcomeBody: 'Thanks for subscribing.' },
    { Name: 'Product updates', Description: 'Release notes (double opt-in)', RequiresDoubleOptIn: true, IsInternal: false, WelcomeSubject: 'You are in', WelcomeBody: 'Release notes will follow.' },
    { Name: 'Staff announcements', Description: 'Internal list', RequiresDoubleOptIn: false, IsInternal: true, WelcomeSubject: null, WelcomeBody: null },
  ];
  const statuses = [1, 1, 1, 2, 3, 4, 5, 6];
  return specs.map((s, n) => {
    const counts = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0 } as Record<number, number>;
    const list = w.add('EmailList', 'list', {
      ...s, WelcomeFromName: 'The Sandbox Team', WelcomeFromEmail: 'news@sandbox.example', FieldConfigurationDataJSON: '{}',
    }, 300);
    people.filter((_, k) => k % 3 === n).forEach((person, k) => {
      const status = statuses[k % statuses.length]!;
      counts[status]!++;
      w.add('EmailListPerson', 'elp', {
        EmailList: ref(list.Uid), Person: ref(person.Uid), EmailListSubscriberStatus: status,
        SubscribedDate: w.iso(-k - 10), ConfirmedDate: status === SUBSCRIBER_STATUS.NotConfirmed ? null : w.iso(-k - 9),
        UnsubscribedDate: status === SUBSCRIBER_STATUS.Unsubscribed ? w.iso(-2) : null,
        CleanedDate: status === SUBSCRIBER_STATUS.Cleaned ? w.iso(-1) : null, Source: 'import', SendWelcomeEmail: false,
      }, k + 10);
    });
    Object.assign(list, {
      CountSubscriptionsActive: counts[1], CountSubscriptionsNotConfirmed: counts[2], CountSubscriptionsUnsubscribed: counts[3],
      CountSubscriptionsBounce: counts[4], CountSubscriptionsSpam: counts[5], CountSubscriptionsIssues: counts[6],
    });
    return list;
  });
}

const STATUS_NAMES = ['Draft', 'Pending', 'Sent', 'Queuing', 'Queued', 'Sending', 'Error', 'WaitingToResume', 'QueuedEmails', 'Archived'];

function message(name: string, subject: string, sent: number): Record<string, unknown> {
  return {
    Template: null, Name: name, Subject: subject, PreviewText: subject, Body: `<p>${subject}</p>`, Design: null,
    CountSent: sent, CountDelivered: Math.floor(sent * 0.97), CountBounce: Math.ceil(sent * 0.03), CountSpam: 0,
    CountOpen: Math.floor(sent * 0.4), CountClick: Math.floor(sent * 0.1), CountUnsubscribed: 0,
    CountTotalOpen: Math.floor(sent * 0.5), CountTotalClick: Math.floor(sent * 0.12), IgnoredSpamBounce: 0,
    IsBounceRatePaused: false, IsSpamScorePaused: false, EmailLinks: [], SpamAssassinScore: 0.4, SpamStatus: 1, SpamReason: null,
  };
}

function seedBroadcasts(w: World, lists: Rec[]): Rec[] {
  return STATUS_NAMES.map((status, n) => {
    const sent = status === 'Sent' || status === 'Archived' ? 1200 + n * 10 : 0;
    return w.add('BroadcastCampaign', 'bcast', {
      SendDateTime: n < 2 ? null : w.iso(n === 2 ? -7 : -1), NextRunDateTime: status === 'WaitingToResume' ? w.iso(1) : null,
      Campaign: { Name: `${status} broadcast`, FromName: 'The Sandbox Team', FromEmail: 'news@sandbox.example', CampaignType: 1 },
      Message: message(`${status} broadcast`, `Our ${status.toLowerCase()} news`, sent), RecipientData: null,
      EmailListUids: [lists[n % lists.length]!.Uid], SegmentUids: [], TemplateUid: null, Status: n + 1,
      ErrorMessage: status === 'Error' ? 'Sending paused: bounce rate above threshold' : null,
      Tags: [{ Name: 'newsletter', SystemName: 'newsletter', SystemDescription: null, TagColor: 1, EntityType: 2 }],
    }, 20 - n);
  });
}

function seedDrips(w: World): Rec[] {
  const specs = [
    { Name: 'Onboarding', IsActive: true, TriggerId: 1, steps: ['Welcome aboard', 'Your first project', 'Tips from the team'] },
    { Name: 'Trial nurture', IsActive: true, TriggerId: 2, steps: ['Halfway through your trial', 'Your trial ends soon'] },
    { Name: 'Win-back', IsActive: false, TriggerId: 3, steps: ['We miss you', 'A gift to come back'] },
  ];
  return specs.map((s) => {
    const drip = w.add('DripCampaign', 'drip', {
      IsActive: s.IsActive, TriggerId: s.TriggerId, TriggerStartValue: null, TriggerStopValue: null,
      Campaign: { Name: s.Name, FromName: 'The Sandbox Team', FromEmail: 'hello@sandbox.example', CampaignType: 2 },
      AllowRepeatProcessing: false, StartDripToExistingMembers: false, MarkExistingRecipientsDone: true,
    }, 90);
    s.steps.forEach((subject, k) =>
      w.add('DripCampaignMessage', 'dripmsg', {
        DripCampaign: ref(drip.Uid), Message: message(subject, subject, 300 - k * 50), DelayFromPriorDay: k === 0 ? 0 : 2,
        DelayInHours: k * 48, Weight: k + 1,
      }, 90),
    );
    return drip;
  });
}

function seedArticles(w: World): Rec[] {
  const tags = ['billing', 'getting-started', 'security', 'email', 'troubleshooting'].map((name, k) =>
    w.add('Tag', 'tag', { Name: name, SystemName: name, SystemDescription: null, TagColor: k + 1, EntityType: 3 }, 300),
  );
  const specs: Array<[string, number[]]> = [
    ['Getting started with your account', [1, 2]], ['Updating your payment method', [0, 2]],
    ['Turning on two-factor login', [2, 1]], ['Why did my email bounce?', [3, 4]],
  ];
  return specs.map(([title, tagIdx]) =>
    w.add('Article', 'art', {
      Title: title, Body: `${title}: step by step.`, IsPublished: true, Tags: tagIdx.map((k) => ref(tags[k]!.Uid)),
    }, 100),
  );
}
