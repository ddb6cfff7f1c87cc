// Seeded customers: accounts in every stage, their people and memberships,
// subscriptions (some in trial), invoices, running and ended add-ons, payment
// information and deals. Accounts past the demo set (--accounts N) are lean — an
// account and its subscription — so 100,000 of them seed in a second or two.

import { ref } from './db.js';
import { ACCOUNT_STAGES, type Rec } from './schema.js';
import type { Catalog } from './seed-catalog.js';
import { addMonths, type World } from './seed-world.js';

export const DEMO_ACCOUNTS = 60;

const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne',
  'Soylent', 'Vandelay', 'Massive Dynamic', 'Aperture', 'Oscorp', 'Dunder Mifflin', 'Pied Piper', 'Gringotts',
  'Monarch', 'Nakatomi', 'Oceanic', 'Virtucon', 'Wernham Hogg', 'Bluth', 'Prestige', 'Krusty', 'Duff', 'Ollivander'];
const SUFFIXES = ['Inc', 'Ltd', 'GmbH', 'LLC', 'Labs', 'Group', 'Co', 'Studio'];
const FIRST = ['Ava', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Isla', 'Jonas', 'Keiko', 'Liam', 'Maya',
  'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Yara', 'Zoe'];
const LAST = ['Adams', 'Brown', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski',
  'Lopez', 'Müller', 'Nguyen', 'Okafor', 'Patel', 'Rossi', 'Silva', 'Tanaka', 'Usman', 'Varga', 'Weber'];
const CITIES = [['Berlin', 'DE', 'EUR'], ['London', 'GB', 'GBP'], ['Austin', 'US', 'USD'], ['Lyon', 'FR', 'EUR'],
  ['Toronto', 'CA', 'USD'], ['Osaka', 'JP', 'USD']] as const;
const TERM_MONTHS: Record<number, number> = { 1: 1, 2: 12, 3: 3 };

export interface SeededAccount {
  account: Rec;
  stage: number;
  people: Rec[];
  memberships: Rec[];
  subscription?: Rec;
}

export interface SeededAccounts {
  all: SeededAccount[];
  deals: Rec[];
  runningAddOns: Rec[];
}

export function seedAccounts(w: World, catalog: Catalog, count: number): SeededAccounts {
  const out: SeededAccounts = { all: [], deals: [], runningAddOns: [] };
  for (let i = 0; i < count; i++) {
    const demo = i < DEMO_ACCOUNTS;
    // Stages cycle so every stage is represented, Subscribing most often.
    const stage = [3, 2, 3, 4, 5, 6, 1, 3, 2][i % 9]!;
    const seeded = demo ? seedDemoAccount(w, catalog, i, stage, out) : seedLeanAccount(w, catalog, i, stage);
    out.all.push(seeded);
  }
  return out;
}

function accountName(i: number): string {
  const base = `${COMPANIES[i % COMPANIES.length]} ${SUFFIXES[Math.floor(i / COMPANIES.length) % SUFFIXES.length]}`;
  return i < COMPANIES.length * SUFFIXES.length ? base : `${base} ${i}`;
}

function seedLeanAccount(w: World, catalog: Catalog, i: number, stage: number): SeededAccount {
  const account = w.add('Account', 'acc', {
    Name: accountName(i), ClientIdentifier: `C-${10000 + i}`, Currency: 'USD',
    AccountStage: stage, AccountStageLabel: ACCOUNT_STAGES[stage], IsDemo: stage === 1, IsLivemode: true,
    LifetimeRevenue: 0,
  }, 200);
  const subscription = stage === 1 ? undefined : seedSubscription(w, catalog, account, stage);
  if (subscription) linkSubscription(account, subscription);
  return { account, stage, people: [], memberships: [], subscription };
}

function seedDemoAccount(w: World, catalog: Catalog, i: number, stage: number, out: SeededAccounts): SeededAccount {
  const r = w.rnd;
  const [city, country, currency] = CITIES[i % CITIES.length]!;
  const name = accountName(i);
  const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-+$/, '')}.example`;
  const account = w.add('Account', 'acc', {
    Name: name,
    ClientIdentifier: `C-${10000 + i}`,
    Currency: currency,
    InvoiceNotes: null,
    AccountStage: stage,
    AccountStageLabel: ACCOUNT_STAGES[stage],
    IsDemo: stage === 1,
    HasLoggedIn: stage !== 1,
    IsLivemode: true,
    TaxIdIsInvalid: false,
    TaxStatus: 'taxable',
    DomainName: domain,
    LifetimeRevenue: stage === 1 || stage === 2 ? 0 : r.int(5, 400) * 50,
    LastLoginDateTime: w.iso(-r.int(0, 30)),
    BillingAddress: { AddressLine1: `${r.int(1, 250)} Market Street`, AddressLine2: null, AddressLine3: null, City: city, State: null, PostalCode: String(r.int(10000, 99999)), Country: country, GeoLocation: null },
    MailingAddress: null,
    SchemaLessData: {},
  }, r.int(30, 700));

  const people: Rec[] = [];
  const memberships: Rec[] = [];
  const headcount = r.int(1, 3);
  for (let p = 0; p < headcount; p++) {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    const person = w.add('Person', 'per', {
      Email: `${first}.${last}.${i}${p}@${domain}`.toLowerCase(),
      FirstName: first, LastName: last, FullName: `${first} ${last}`,
      PhoneMobile: null, Title: p === 0 ? 'Owner' : r.pick(['Finance', 'Engineer', 'Marketing']),
      Timezone: 'UTC', Language: 'en', HasLoggedIn: stage !== 1, OptInToEmailList: r.chance(0.6), HasUnsubscribed: false,
      PasswordMustChange: false, Account: ref(account.Uid), SchemaLessData: {},
    }, 100);
    people.push(person);
    memberships.push(w.add('PersonAccount', 'mem', {
      Person: ref(person.Uid), Account: ref(account.Uid), IsPrimary: p === 0, ReceiveInvoices: p === 0, Role: p === 0 ? 1 : 2,
    }, 100));
  }
  account.PrimaryContact = ref(people[0]!.Uid);

  let subscription: Rec | undefined;
  if (stage !== 1) {
    subscription = seedSubscription(w, catalog, account, stage);
    linkSubscription(account, subscription);
    if (stage !== 2) seedInvoices(w, subscription);
    if ([3, 4, 6].includes(stage)) {
      const pay = w.add('PaymentInformation', 'pay', {
        Account: ref(account.Uid), PaymentMethodType: 'card', CardType: r.pick(['Visa', 'Mastercard', 'Amex']),
        LastFourDigits: String(r.int(1000, 9999)), ExpirationMonth: String(r.int(1, 12)), ExpirationYear: String(r.int(2027, 2031)),
        NameOnCard: String(people[0]!.FullName), NumberOfFailures: stage === 6 ? 2 : 0,
        LatestSuccessDateTime: w.iso(-r.int(1, 30)), LatestFailureDateTime: stage === 6 ? w.iso(-1) : null,
        LatestFailureDescription: stage === 6 ? 'card_declined' : null, Mode: 'live',
      }, 60);
      account.PaymentInformation = ref(pay.Uid);
      if (i % 2 === 0) out.runningAddOns.push(seedAddOn(w, catalog, subscription, i, true));
      if (i % 5 === 0) seedAddOn(w, catalog, subscription, i + 1, false);
    }
  }
  if (i % 2 === 0) {
    for (let d = 0; d < r.int(1, 2); d++) {
      out.deals.push(w.add('Deal', 'deal', {
        Name: `${name} ${r.pick(['expansion', 'renewal', 'upgrade', 'pilot'])}`,
        Amount: r.int(10, 500) * 100, DueDate: w.iso(r.int(5, 90)), AssignedToPersonClientIdentifier: `rep-${r.int(1, 4)}`,
        Weight: r.int(1, 100), DealPipelineStage: ref(r.pick(catalog.stages).Uid), Account: ref(account.Uid),
        DealPeople: [{ Person: ref(people[0]!.Uid), Deal: null }], Contacts: String(people[0]!.FullName),
        Owner: ref(people[0]!.Uid), PipelineUid: null, SchemaLessData: {},
      }, r.int(1, 60)));
    }
  }
  return { account, stage, people, memberships, subscription };
}

function linkSubscription(account: Rec, subscription: Rec): void {
  account.CurrentSubscription = ref(subscription.Uid);
  account.LatestSubscription = ref(subscription.Uid);
  account.PrimarySubscription = ref(subscription.Uid);
}

function seedSubscription(w: World, catalog: Catalog, account: Rec, stage: number): Rec {
  const r = w.rnd;
  const trial = stage === 2;
  const plan = trial ? r.pick(catalog.trialPlans) : r.pick(catalog.plans);
  const term = trial ? 1 : r.pick([1, 1, 2, 3]);
  const months = TERM_MONTHS[term]!;
  let start: string, renewal: string;
  let end: string | null = null;
  if (trial) {
    start = w.iso(-r.int(1, 10));
    renewal = w.iso(r.int(3, 20));
    end = renewal;
  } else {
    start = w.iso(-r.int(40, 700));
    renewal = start;
    while (renewal <= w.now.toISOString()) renewal = addMonths(renewal, months);
    if (stage === 4) end = renewal;
    if (stage === 5) { end = w.iso(-r.int(5, 90)); renewal = end; }
    if (stage === 6) renewal = w.iso(-r.int(1, 10));
  }
  const rate = (term === 2 ? plan.AnnualRate : term === 3 ? plan.QuarterlyRate : plan.MonthlyRate) as number;
  return w.add('Subscription', 'sub', {
    BillingRenewalTerm: term, Account: ref(account.Uid), Plan: ref(plan.Uid), Quantity: r.int(1, 10),
    StartDate: start, EndDate: end, ExpirationDate: end, RenewalDate: renewal,
    NewRequiredQuantity: null, IsPlanUpgradeRequired: false, PlanUpgradeRequiredMessage: null,
    DiscountCode: null, DiscountCouponExpirationDate: null, LatestInvoice: null, Rate: rate,
  }, 40);
}

function seedInvoices(w: World, subscription: Rec): void {
  const r = w.rnd;
  let latest: Rec | undefined;
  for (let n = 3; n >= 1; n--) {
    const amount = subscription.Rate as number;
    const paid = n > 1 || r.chance(0.8);
    latest = w.add('Invoice', 'inv', {
      InvoiceDate: w.iso(-30 * n), PaymentReminderSentDate: null, Number: r.int(1000, 99999), BillingInvoiceStatus: paid ? 2 : 1,
      Subscription: ref(subscription.Uid), Amount: amount, AmountOutstanding: paid ? 0 : amount, AmountCredit: 0,
      AmountDiscount: 0, AmountPaid: paid ? amount : 0, AmountRefunded: 0, AmountSubtotal: amount, AmountTax: 0,
      AmountTaxRefunded: 0, InvoiceLineItems: [{ Description: 'Subscription', Amount: amount, Quantity: 1 }],
      IsUserGenerated: false, IsTaxable: false, HasPaymentGatewayTransactions: paid,
    }, 30 * n);
  }
  subscription.LatestInvoice = ref(latest!.Uid);
}

function seedAddOn(w: World, catalog: Catalog, subscription: Rec, i: number, running: boolean): Rec {
  const addOn = catalog.addOns[i % 3]!; // the recurring ones
  const qty = Math.max(addOn.MinimumQuantity as number, w.rnd.int(1, 8));
  const ended = running ? null : w.iso(-w.rnd.int(3, 60));
  return w.add('SubscriptionAddOn', 'subaddon', {
    BillingRenewalTerm: subscription.BillingRenewalTerm, Subscription: ref(subscription.Uid), AddOn: ref(addOn.Uid),
    Quantity: qty, StartDate: w.iso(-w.rnd.int(60, 200)), EndDate: ended, ExpirationDate: ended,
    RenewalDate: subscription.RenewalDate, NewRequiredQuantity: null, Rate: addOn.MonthlyRate,
  }, 60);
}
