// The whole sandbox state as one JSON-serializable value: what the state file holds.

import type { Records } from './records.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The 6-digit code the email carries, or null. */
  code: string | null;
  sentAt: string;
}

export interface ActivityEntry {
  method: string;
  path: string;
  status: number;
  /** "key:<api key>" or "person:<PersonUid>"; null when unauthenticated. */
  who: string | null;
  at: string;
}

export interface SeedParams {
  seed: number;
  accounts: number;
}

/** GET /__sandbox/fixtures without `apiKey` and `users`, which are filled in live. */
export interface SeedFixtures {
  accounts: string[];
  trialAccounts: string[];
  memberships: Array<{ accountUid: string; uid: string }>;
  deals: string[];
  plans: string[];
  addOns: string[];
  subscriptions: string[];
  subscriptionAddOns: string[];
  coupons: string[];
  emailLists: string[];
  broadcasts: string[];
  dripCampaigns: string[];
  articles: Array<{ uid: string; tagUids: string[] }>;
  people: string[];
  pipelineStages: string[];
  segments: string[];
}

export interface State {
  format: 'bo-sandbox/1';
  /** Bumped by every committed write: how a process notices another one's write. */
  version: number;
  params: SeedParams;
  clockOffsetMs: number;
  apiKey: { key: string; secret: string };
  fixtures: SeedFixtures;
  /** By kind, each parsed when first read (records.ts). */
  records: Records;
  outbox: Mail[];
  activity: ActivityEntry[];
  /** The two-factor engine's slice (src/sandbox/auth), opaque here. */
  auth: unknown;
}

/** Oldest entries are dropped beyond these, so a long-running sandbox stays small. */
export const MAX_ACTIVITY = 5000;
export const MAX_OUTBOX = 1000;
