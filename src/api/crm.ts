// CRM endpoints (SERVICE-API §4 "CRM"), one typed function each.

import type { HttpClient, RequestOptions } from './http-types.js';
import type { Account } from './types.js';
import { listRecords, type ListQuery, type ListSelection, type PageMeta } from './paginate.js';

/** GET /crm/accounts with `q`, `segmentUid` and the list options. */
export function listAccounts(
  client: HttpClient,
  filters: { q?: string; segmentUid?: string },
  selection: ListSelection,
  onPage?: (meta: PageMeta) => void,
): AsyncIterable<Account> {
  return listRecords<Account>(client, { path: '/crm/accounts', query: filters as ListQuery }, selection, onPage);
}

/** GET /crm/accounts?q=<uid> matches the exact Uid (§4); null when absent. */
export async function findAccount(client: HttpClient, uid: string, fields?: string): Promise<Account | null> {
  const res = await client.request<{ items?: Account[] }>({
    method: 'GET',
    path: '/crm/accounts',
    query: { q: uid, fields, limit: 100 },
  });
  return res.body?.items?.find((a) => a.Uid === uid) ?? null;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** PUT …/extend-trial (D21): `ToDate` becomes the trial end, `ExpirationDate` defaults to it. PUT merges (D18). */
export function extendTrial(accountUid: string, body: { ToDate: string; ExpirationDate?: string }): RequestOptions {
  return { method: 'PUT', path: `/crm/accounts/${encodeURIComponent(accountUid)}/extend-trial`, body };
}

/** PUT …/cancel (D22): a cancellation request; the field is spelled `CancelationReason`. */
export function cancelAccount(accountUid: string, body: { CancelationReason: string; Comment?: string }): RequestOptions {
  return { method: 'PUT', path: `/crm/accounts/${encodeURIComponent(accountUid)}/cancel`, body };
}
