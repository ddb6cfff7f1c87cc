// Email endpoints (SERVICE-API §4 "Email").

import type { RequestOptions } from './http-types.js';

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** DELETE /email/campaigns/drips/{uid}: removes the campaign and its messages; a second delete is 404 (D25). */
export function deleteDripCampaign(dripCampaignUid: string): RequestOptions {
  return { method: 'DELETE', path: `/email/campaigns/drips/${encodeURIComponent(dripCampaignUid)}` };
}
