// Email endpoints (SERVICE-API §4 "Email"): reads are sending functions, each mutation
// one builder returning the request the mutation runner sends. References in bodies
// are {"Uid": …} (D29).

import type { HttpClient, RequestOptions } from './http-types.js';
import type { BroadcastCampaign, EmailList } from './types.js';
import { listRecords, type ListSelection, type PageMeta } from './paginate.js';
import { apiPath } from './path.js';
import type { RecordSource } from './record-source.js';

/** The writable fields of an email list (§2); Name is required and unique (1-100 characters). */
export interface EmailListInput {
  Name: string;
  Description?: string;
  WelcomeSubject?: string;
  WelcomeBody?: string;
  WelcomeFromName?: string;
  WelcomeFromEmail?: string;
  RequiresDoubleOptIn?: boolean;
  IsInternal?: boolean;
}

/** GET /email/lists with the list options. */
export function listLists(client: HttpClient, selection: ListSelection, onPage?: (meta: PageMeta) => void): RecordSource<EmailList> {
  return listRecords<EmailList>(client, { path: '/email/lists' }, selection, onPage);
}

/** GET /email/campaigns/broadcasts/{uid}. */
export async function getBroadcast(client: HttpClient, broadcastUid: string): Promise<BroadcastCampaign> {
  const res = await client.request<BroadcastCampaign>({ method: 'GET', path: apiPath`/email/campaigns/broadcasts/${broadcastUid}` });
  return res.body;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** POST /email/lists: answers the created list (201, D17); a taken Name is 409. */
export function createListRequest(list: EmailListInput): RequestOptions {
  return { method: 'POST', path: '/email/lists', body: list };
}

/** GET /email/lists?Name=<name> (D14: a filter on a top-level field): the list of that name, if there is one. */
export function listNamedRequest(name: string): Pick<RequestOptions, 'method' | 'path' | 'query'> {
  return { method: 'GET', path: '/email/lists', query: { Name: name, limit: 1 } };
}

/** Whether that answer holds a list of exactly that name (names are unique). */
export function listNamed(answer: unknown, name: string): boolean {
  const items = answer && typeof answer === 'object' ? (answer as { items?: unknown }).items : undefined;
  return Array.isArray(items) && items.some((l) => !!l && typeof l === 'object' && (l as { Name?: unknown }).Name === name);
}

export interface DripMessageInput {
  Message: { Subject: string; Body?: string; Name?: string };
  DelayInHours?: number;
  DelayFromPriorDay?: number;
  Weight?: number;
}

/** POST …/drips/{uid}/messages: answers the created message; the campaign becomes inactive (§3, D25). */
export function addDripMessageRequest(dripUid: string, message: DripMessageInput): RequestOptions {
  return { method: 'POST', path: apiPath`/email/campaigns/drips/${dripUid}/messages`, body: message };
}

/** DELETE /email/campaigns/drips/{uid}: removes the campaign and its messages; a second delete is 404 (D25). */
export function deleteDripRequest(dripUid: string): RequestOptions {
  return { method: 'DELETE', path: apiPath`/email/campaigns/drips/${dripUid}` };
}

export interface ListSubscriptionInput {
  Person: { Email: string; FirstName?: string; LastName?: string };
  SendWelcomeEmail?: boolean;
  Source?: string;
}

/**
 * POST /public/email/lists/{uid}/subscriptions, sent with no Authorization header (D4).
 * Answers the subscription: 201 when new, 200 when the address was already on the list (D20).
 */
export function subscribeToListRequest(listUid: string, subscription: ListSubscriptionInput): RequestOptions {
  return {
    method: 'POST',
    path: apiPath`/public/email/lists/${listUid}/subscriptions`,
    body: { EmailList: { Uid: listUid }, ...subscription },
    anonymous: true,
  };
}
