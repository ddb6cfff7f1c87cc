// CRM endpoints (SERVICE-API §4 "CRM"), one typed function each.

import { ApiError } from '../output/errors.js';
import type { HttpClient } from './http-types.js';
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
  const res = await client.request<unknown>({
    method: 'GET',
    path: '/crm/accounts',
    query: { q: uid, fields, limit: 100 },
  });
  // Only a list answers the question; null, a missing or non-array `items` is not "absent".
  const items = res.body && typeof res.body === 'object' ? (res.body as { items?: unknown }).items : undefined;
  if (!Array.isArray(items)) {
    throw new ApiError(`unexpected answer from the server (${res.status}): not a list (no "items" array)`, {
      status: res.status,
      code: 'unexpected',
      body: res.body,
      headers: res.headers,
      hint: `Is ${client.baseUrl} the tenant's API root? Set it with --base-url or: bo config set base-url <url>`,
    });
  }
  const found = items.find((a): a is Account => !!a && typeof a === 'object' && (a as Account).Uid === uid);
  return found ?? null;
}
