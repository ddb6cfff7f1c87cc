// Deterministic demo data from a seed number (DECISIONS "Sandbox-only endpoints",
// fixtures): the same seed gives the same Uids, names and amounts; dates are relative
// to the moment of seeding so trials end in the future.

import { createAuthSlice, type DemoLogin } from './auth-slice.js';
import { ref } from './db.js';
import { seededRandom } from './prng.js';
import type { Rec } from './schema.js';
import { seedAccounts, DEMO_ACCOUNTS, type SeededAccount } from './seed-accounts.js';
import { seedCatalog } from './seed-catalog.js';
import { seedMarketing } from './seed-marketing.js';
import { Records } from './records.js';
import { World } from './seed-world.js';
import type { SeedFixtures, SeedParams, State } from './state.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_ACCOUNTS = DEMO_ACCOUNTS;
/** Fewer accounts could not hold every stage and every demo login. */
export const MIN_ACCOUNTS = 20;
/** Fixture arrays list at most this many Uids of the big kinds. */
const FIXTURE_CAP = 1000;

const LOGIN_KINDS: Array<DemoLogin['kind']> = ['plain', 'totp', 'email', 'both', 'enroll'];

export function seedState(params: SeedParams, now: Date): State {
  const seedNow = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const w = new World(seededRandom(params.seed), seedNow);
  const catalog = seedCatalog(w);
  const accounts = seedAccounts(w, catalog, Math.max(params.accounts, MIN_ACCOUNTS));
  const logins = seedLogins(w, accounts.all);
  const demo = accounts.all.filter((a) => a.people.length > 0);
  const people = demo.flatMap((a) => a.people);
  const subscriptions = accounts.all.flatMap((a) => (a.subscription ? [a.subscription] : []));
  const marketing = seedMarketing(w, catalog, people, subscriptions.slice(0, 40));
  const segments = seedSegments(w, demo);

  const cap = <T>(xs: T[]) => xs.slice(0, FIXTURE_CAP);
  const fixtures: SeedFixtures = {
    accounts: cap(accounts.all.map((a) => a.account.Uid)),
    trialAccounts: cap(accounts.all.filter((a) => a.stage === 2).map((a) => a.account.Uid)),
    memberships: cap(demo.flatMap((a) => a.memberships.map((m) => ({ accountUid: a.account.Uid, uid: m.Uid })))),
    deals: accounts.deals.map((d) => d.Uid),
    plans: catalog.plans.map((p) => p.Uid),
    addOns: catalog.addOns.map((a) => a.Uid),
    subscriptions: cap(subscriptions.map((s) => s.Uid)),
    subscriptionAddOns: accounts.runningAddOns.map((s) => s.Uid),
    coupons: marketing.coupons.map((c) => c.Uid),
    emailLists: marketing.emailLists.map((l) => l.Uid),
    broadcasts: marketing.broadcasts.map((b) => b.Uid),
    dripCampaigns: marketing.drips.map((d) => d.Uid),
    articles: marketing.articles.map((a) => ({ uid: a.Uid, tagUids: (a.Tags as Array<{ Uid: string }>).map((t) => t.Uid) })),
    people: cap(people.map((p) => p.Uid)),
    pipelineStages: catalog.stages.map((s) => s.Uid),
    segments: segments.map((s) => s.Uid),
  };
  const r = w.rnd;
  return {
    format: 'bo-sandbox/1',
    version: 1,
    params: { seed: params.seed, accounts: params.accounts },
    clockOffsetMs: 0,
    apiKey: { key: `sbx_key_${r.id(16)}`, secret: `sbx_secret_${r.id(32)}` },
    fixtures,
    records: Records.of(w.records),
    outbox: [],
    activity: [],
    auth: createAuthSlice(logins, params.seed),
  };
}

/**
 * One person per login kind, each a member of a subscribing account, with an easy
 * address so people can type it: plain@sandbox.example and so on.
 */
function seedLogins(w: World, accounts: SeededAccount[]): DemoLogin[] {
  const hosts = accounts.filter((a) => a.stage === 3 && a.people.length > 0).slice(0, LOGIN_KINDS.length);
  return LOGIN_KINDS.map((kind, n) => {
    const host = hosts[n % hosts.length]!;
    const email = `${kind}@sandbox.example`;
    const first = kind[0]!.toUpperCase() + kind.slice(1);
    const person = w.add('Person', 'per', {
      Email: email, FirstName: first, LastName: 'Demo', FullName: `${first} Demo`, Title: 'Administrator',
      Timezone: 'UTC', Language: 'en', HasLoggedIn: true, OptInToEmailList: false, HasUnsubscribed: false,
      PasswordMustChange: false, Account: ref(host.account.Uid), SchemaLessData: {},
    }, 100);
    const membership = w.add('PersonAccount', 'mem', {
      Person: ref(person.Uid), Account: ref(host.account.Uid), IsPrimary: false, ReceiveInvoices: false, Role: 1,
    }, 100);
    host.people.push(person);
    host.memberships.push(membership);
    return {
      username: email,
      password: `sandbox-${kind}-password`,
      kind,
      personUid: person.Uid,
      accountUid: host.account.Uid,
      subscriptionUid: host.subscription?.Uid,
      planUid: (host.subscription?.Plan as { Uid: string } | undefined)?.Uid,
    };
  });
}

function seedSegments(w: World, demo: SeededAccount[]): Rec[] {
  const specs: Array<[string, (a: SeededAccount) => boolean]> = [
    ['Trialing accounts', (a) => a.stage === 2],
    ['High value', (a) => (a.account.LifetimeRevenue as number) >= 10000],
    ['Europe', (a) => a.account.Currency === 'EUR'],
  ];
  return specs.map(([name, test]) =>
    w.add('Segment', 'seg', { Name: name, AccountUids: demo.filter(test).map((a) => a.account.Uid) }, 100),
  );
}
