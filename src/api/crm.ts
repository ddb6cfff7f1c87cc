// CRM endpoints (SERVICE-API §4 "CRM"): reads are sending functions; each mutation is
// one builder returning the request, which the mutation runner sends or prints.

import { ApiError } from '../errors.js';
import type { HttpClient, RequestOptions } from './http-types.js';
import type { Account, Ref } from './types.js';
import { listRecords, type ListQuery, type ListSelection, type PageMeta } from './paginate.js';
import { apiPath } from './path.js';
import type { RecordSource } from './record-source.js';

/** GET /crm/accounts with `q`, `segmentUid` and the list options. */
export function listAccounts(
  client: HttpClient,
  filters: { q?: string; segmentUid?: string },
  selection: ListSelection,
  onPage?: (meta: PageMeta) => void,
): RecordSource<Account> {
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

/** A read a mutation may make to see whether its change is in place (no body). */
export type ReadRequest = Pick<RequestOptions, 'method' | 'path' | 'query'>;

/** The items of a list answer that are records (an empty list for anything else). */
function itemsOf(answer: unknown): Array<Record<string, unknown>> {
  const items = answer && typeof answer === 'object' ? (answer as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? items.filter((i): i is Record<string, unknown> => !!i && typeof i === 'object' && !Array.isArray(i)) : [];
}

/** GET /crm/accounts?q=<uid> for the trial end alone: the current subscription's EndDate (D21). */
export function trialEndRequest(accountUid: string): ReadRequest {
  return { method: 'GET', path: '/crm/accounts', query: { q: accountUid, fields: 'CurrentSubscription.EndDate', limit: 100 } };
}

/** The trial end that answer holds for the account, as an instant (ms); undefined when it holds none. */
export function trialEndsAt(answer: unknown, accountUid: string): number | undefined {
  const account = itemsOf(answer).find((a) => a.Uid === accountUid);
  const subscription = account?.CurrentSubscription as { EndDate?: unknown } | null | undefined;
  const end = typeof subscription?.EndDate === 'string' ? Date.parse(subscription.EndDate) : Number.NaN;
  return Number.isNaN(end) ? undefined : end;
}

/** GET /crm/accounts?q=<uid> for the account's memberships (PersonAccount) and what a change sets in them. */
export function membershipRequest(accountUid: string): ReadRequest {
  return { method: 'GET', path: '/crm/accounts', query: { q: accountUid, fields: 'PersonAccount.IsPrimary,PersonAccount.ReceiveInvoices,PersonAccount.Role', limit: 100 } };
}

/** Whether that answer shows the account's membership with every field of `changes` as given. */
export function membershipIs(answer: unknown, accountUid: string, membershipUid: string, changes: Record<string, unknown>): boolean {
  const account = itemsOf(answer).find((a) => a.Uid === accountUid);
  const memberships = Array.isArray(account?.PersonAccount) ? (account.PersonAccount as Array<Record<string, unknown>>) : [];
  const membership = memberships.find((m) => !!m && typeof m === 'object' && m.Uid === membershipUid);
  return membership !== undefined && Object.entries(changes).every(([name, value]) => membership[name] === value);
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
  return [account.Name, stageOf(account)].filter((v) => v).join(', ') || undefined;
}

/** The stage an account is in now, `4 Cancelling`, read with one request; undefined when absent or not stated. */
export async function accountStage(client: HttpClient, uid: string): Promise<string | undefined> {
  const account = await findAccount(client, uid, 'Uid,AccountStage,AccountStageLabel');
  return (account && stageOf(account)) || undefined;
}

/** An account's stage code with the API's label beside it: `3 Subscribing`. */
function stageOf(account: Account): string {
  return [account.AccountStage, account.AccountStageLabel].filter((v) => v != null).join(' ');
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
