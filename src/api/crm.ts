// CRM endpoints (SERVICE-API §4 "CRM"): reads are sending functions; each mutation is
// one builder returning the request, which the mutation runner sends or prints.

import { ApiError } from '../errors.js';
import type { HttpClient, RequestOptions } from './http-types.js';
import type { Account, Ref } from './types.js';
import { listRecords, type ListQuery, type ListSelection, type PageMeta } from './paginate.js';
import { apiPath } from './path.js';

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
      hint: `Is ${client.baseUrl} the tenant's API root? Set it with --base-url or: ${client.command?.('config set base-url <url>') ?? 'bo config set base-url <url>'}`,
    });
  }
  const found = items.find((a): a is Account => !!a && typeof a === 'object' && (a as Account).Uid === uid);
  return found ?? null;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** PUT …/extend-trial (D21): `ToDate` becomes the trial end, `ExpirationDate` defaults to it. PUT merges (D18). Answers a string. */
/**
 * What an account is, for a confirmation question: `Acme Inc, 3 Subscribing` (its Name
 * and stage), read with one request for those fields only; undefined when absent.
 */
export async function accountSummary(client: HttpClient, uid: string): Promise<string | undefined> {
  const account = await findAccount(client, uid, 'Uid,Name,AccountStage,AccountStageLabel');
  if (!account) return undefined;
  const stage = [account.AccountStage, account.AccountStageLabel].filter((v) => v != null).join(' ');
  return [account.Name, stage].filter((v) => v).join(', ') || undefined;
}

export function extendTrialRequest(accountUid: string, body: { ToDate: string; ExpirationDate?: string }): RequestOptions {
  return { method: 'PUT', path: apiPath`/crm/accounts/${accountUid}/extend-trial`, body };
}

/** What a cancellation request carries (§2); note the one-l `CancelationReason` (D22). */
export interface CancellationInput {
  CancelationReason?: string;
  Comment?: string;
  SubmittedDateTime?: string;
  SubscribingStartDate?: string;
  LastPlan?: Ref;
}

/** PUT …/cancel (D22): a cancellation request; answers the saved request (D17), or nothing. */
export function cancelAccountRequest(accountUid: string, body: CancellationInput): RequestOptions {
  return { method: 'PUT', path: apiPath`/crm/accounts/${accountUid}/cancel`, body };
}

/** The writable fields of a membership (§2); only the properties present change (D18). */
export interface MembershipChanges {
  IsPrimary?: boolean;
  ReceiveInvoices?: boolean;
  Role?: number;
  Person?: Ref;
}

/** PUT …/memberships/{uid}: answers the membership. */
export function updateMembershipRequest(accountUid: string, membershipUid: string, changes: MembershipChanges): RequestOptions {
  return { method: 'PUT', path: apiPath`/crm/accounts/${accountUid}/memberships/${membershipUid}`, body: changes };
}

export interface DealChanges {
  Name?: string;
  Amount?: number;
  DueDate?: string;
  Weight?: number;
  AssignedToPersonClientIdentifier?: string;
  DealPipelineStage?: Ref;
  SchemaLessData?: unknown;
}

/** PUT /crm/deals/{uid}: only the properties present change (D18); answers the deal. */
export function updateDealRequest(dealUid: string, changes: DealChanges): RequestOptions {
  return { method: 'PUT', path: apiPath`/crm/deals/${dealUid}`, body: changes };
}

/** POST /crm/people/requestMagicLink, sent with no Authorization header (D4); answers `{}` always (D19). */
export function magicLinkRequest(email: string): RequestOptions {
  return { method: 'POST', path: '/crm/people/requestMagicLink', body: { Email: email }, anonymous: true };
}
