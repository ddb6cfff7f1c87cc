// Email endpoints (SERVICE-API §4 "Email"), one typed function each. References in
// bodies are {"Uid": …} (D29).

import type { HttpClient, RequestOptions } from './http-types.js';
import type { BroadcastCampaign, DripCampaignMessage, EmailList, EmailListPerson } from './types.js';
import { listRecords, type ListSelection, type PageMeta } from './paginate.js';

const seg = encodeURIComponent;

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

/** POST /email/lists: answers the created list (201, D17); a taken Name is 409. */
export async function createList(client: HttpClient, list: EmailListInput): Promise<EmailList> {
  const res = await client.request<EmailList>({ method: 'POST', path: '/email/lists', body: list });
  return res.body;
}

/** GET /email/lists with the list options. */
export function listLists(client: HttpClient, selection: ListSelection, onPage?: (meta: PageMeta) => void): AsyncIterable<EmailList> {
  return listRecords<EmailList>(client, { path: '/email/lists' }, selection, onPage);
}

/** GET /email/campaigns/broadcasts/{uid}. */
export async function getBroadcast(client: HttpClient, broadcastUid: string): Promise<BroadcastCampaign> {
  const res = await client.request<BroadcastCampaign>({ method: 'GET', path: `/email/campaigns/broadcasts/${seg(broadcastUid)}` });
  return res.body;
}

export interface DripMessageInput {
  Message: { Subject: string; Body?: string; Name?: string };
  DelayInHours?: number;
  DelayFromPriorDay?: number;
  Weight?: number;
}

/** POST …/drips/{uid}/messages: answers the created message; the campaign becomes inactive (§3, D25). */
export async function addDripMessage(client: HttpClient, dripUid: string, message: DripMessageInput): Promise<DripCampaignMessage> {
  const res = await client.request<DripCampaignMessage>({
    method: 'POST',
    path: `/email/campaigns/drips/${seg(dripUid)}/messages`,
    body: message,
  });
  return res.body;
}

/** DELETE /email/campaigns/drips/{uid}: removes it and its messages; a second delete is 404 (D25). */
export async function deleteDrip(client: HttpClient, dripUid: string): Promise<unknown> {
  const res = await client.request({ method: 'DELETE', path: `/email/campaigns/drips/${seg(dripUid)}` });
  return res.body;
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
export async function subscribeToList(client: HttpClient, listUid: string, subscription: ListSubscriptionInput): Promise<EmailListPerson> {
  const res = await client.request<EmailListPerson>({
    method: 'POST',
    path: `/public/email/lists/${seg(listUid)}/subscriptions`,
    body: { EmailList: { Uid: listUid }, ...subscription },
    anonymous: true,
  });
  return res.body;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** DELETE /email/campaigns/drips/{uid}: removes the campaign and its messages; a second delete is 404 (D25). */
export function deleteDripCampaign(dripCampaignUid: string): RequestOptions {
  return { method: 'DELETE', path: `/email/campaigns/drips/${encodeURIComponent(dripCampaignUid)}` };
}
