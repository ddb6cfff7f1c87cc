// Billing endpoints (SERVICE-API §4 "Billing").

import type { RequestOptions } from './http-types.js';

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** PUT …/subscriptionaddons/{uid}/expire, no body; idempotent (D24). */
export function expireSubscriptionAddOn(subscriptionAddOnUid: string): RequestOptions {
  return { method: 'PUT', path: `/billing/subscriptionaddons/${encodeURIComponent(subscriptionAddOnUid)}/expire` };
}
