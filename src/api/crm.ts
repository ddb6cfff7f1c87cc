// CRM endpoints (SERVICE-API §4 "CRM"), one typed function each.

import type { HttpClient, RequestOptions } from './http-types.js';
import type { Account, CancellationRequest, Deal, Membership, Ref } from './types.js';
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

const seg = encodeURIComponent;

/** PUT /crm/accounts/{uid}/extend-trial (D21): `ToDate` becomes the trial end. Answers a string. */
export async function extendTrial(
  client: HttpClient,
  accountUid: string,
  dates: { ToDate: string; ExpirationDate?: string },
): Promise<unknown> {
  const res = await client.request({ method: 'PUT', path: `/crm/accounts/${seg(accountUid)}/extend-trial`, body: dates });
  return res.body;
}

/** What a cancellation request carries (§2); note the one-l `CancelationReason` (D22). */
export interface CancellationInput {
  CancelationReason?: string;
  Comment?: string;
  SubmittedDateTime?: string;
  SubscribingStartDate?: string;
  LastPlan?: Ref;
}

/** PUT /crm/accounts/{uid}/cancel (D22): answers the saved request (D17), or nothing. */
export async function cancelAccount(client: HttpClient, accountUid: string, request: CancellationInput): Promise<CancellationRequest | unknown> {
  const res = await client.request({ method: 'PUT', path: `/crm/accounts/${seg(accountUid)}/cancel`, body: request });
  return res.body;
}

/** PUT …/memberships/{uid}: only the properties present change (D18). */
export async function updateMembership(
  client: HttpClient,
  accountUid: string,
  membershipUid: string,
  changes: { IsPrimary?: boolean; ReceiveInvoices?: boolean; Role?: number; Person?: Ref },
): Promise<Membership | unknown> {
  const res = await client.request({
    method: 'PUT',
    path: `/crm/accounts/${seg(accountUid)}/memberships/${seg(membershipUid)}`,
    body: changes,
  });
  return res.body;
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
export async function updateDeal(client: HttpClient, dealUid: string, changes: DealChanges): Promise<Deal | unknown> {
  const res = await client.request({ method: 'PUT', path: `/crm/deals/${seg(dealUid)}`, body: changes });
  return res.body;
}

/** POST /crm/people/requestMagicLink, sent with no Authorization header (D4); `{}` always (D19). */
export async function requestMagicLink(client: HttpClient, email: string): Promise<unknown> {
  const res = await client.request({ method: 'POST', path: '/crm/people/requestMagicLink', body: { Email: email }, anonymous: true });
  return res.body;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** PUT …/extend-trial (D21): `ToDate` becomes the trial end, `ExpirationDate` defaults to it. PUT merges (D18). */
export function extendTrialRequest(accountUid: string, body: { ToDate: string; ExpirationDate?: string }): RequestOptions {
  return { method: 'PUT', path: `/crm/accounts/${encodeURIComponent(accountUid)}/extend-trial`, body };
}

/** PUT …/cancel (D22): a cancellation request; the field is spelled `CancelationReason`. */
export function cancelAccountRequest(accountUid: string, body: { CancelationReason: string; Comment?: string }): RequestOptions {
  return { method: 'PUT', path: `/crm/accounts/${encodeURIComponent(accountUid)}/cancel`, body };
}
