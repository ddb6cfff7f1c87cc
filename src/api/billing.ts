// Billing endpoints (SERVICE-API §4 "Billing"): reads are sending functions, each
// mutation one builder returning the request the mutation runner sends. References
// in bodies are {"Uid": …} (D29); property names are PascalCase as in §2.

import type { HttpClient, RequestOptions } from './http-types.js';
import type { DiscountCoupon, DiscountCouponSubscription, Invoice } from './types.js';
import { listRecords, type ListQuery, type ListSelection, type PageMeta } from './paginate.js';
import { apiPath } from './path.js';
import type { RecordSource } from './record-source.js';

/** One line of an invoice; a real tenant may name its fields differently. */
export interface InvoiceLine {
  Description?: string | null;
  Quantity?: number | null;
  UnitAmount?: number | null;
  Rate?: number | null;
  Amount?: number | null;
  [field: string]: unknown;
}

export interface InvoicePreview extends Invoice {
  AmountDiscount?: number | null;
  AmountOutstanding?: number | null;
  Currency?: string | null;
  InvoiceLineItems?: InvoiceLine[] | null;
}

/**
 * POST …/addsubscriptionaddonpreview (D23): what adding the add-on would invoice.
 * Nothing is saved. Quantity and StartDate are left to the server when absent.
 */
export async function previewAddOn(
  client: HttpClient,
  preview: { subscriptionUid: string; addOnUid: string; quantity?: number; startDate?: string },
): Promise<InvoicePreview> {
  const body: Record<string, unknown> = { Subscription: { Uid: preview.subscriptionUid }, AddOn: { Uid: preview.addOnUid } };
  if (preview.quantity !== undefined) body.Quantity = preview.quantity;
  if (preview.startDate !== undefined) body.StartDate = preview.startDate;
  const res = await client.request<InvoicePreview>({
    method: 'POST',
    path: '/billing/subscriptionaddons/addsubscriptionaddonpreview',
    body,
  });
  return res.body;
}

/** The payment fields `bo` sends (§2 Payment information); never a card number. */
export interface PaymentInformationInput {
  PaymentToken?: string;
  PaymentMethodType?: string;
  NameOnCard?: string;
  LastFourDigits?: string;
  ExpirationMonth?: string;
  ExpirationYear?: string;
  [field: string]: unknown;
}

/** GET /billing/discountcoupons: `isActive=true`, `q`, `planUid` (D15) and the list options. */
export function listCoupons(
  client: HttpClient,
  filters: { active?: boolean; q?: string; planUid?: string },
  selection: ListSelection,
  onPage?: (meta: PageMeta) => void,
): RecordSource<DiscountCoupon> {
  const query: ListQuery = { isActive: filters.active ? 'true' : undefined, q: filters.q, planUid: filters.planUid };
  return listRecords<DiscountCoupon>(client, { path: '/billing/discountcoupons', query }, selection, onPage);
}

/** GET /billing/discountcoupons/{uid}/redemptions: `q` and `isActive=true` (D15). */
export function listRedemptions(
  client: HttpClient,
  couponUid: string,
  filters: { active?: boolean; q?: string },
  selection: ListSelection,
  onPage?: (meta: PageMeta) => void,
): RecordSource<DiscountCouponSubscription> {
  const query: ListQuery = { isActive: filters.active ? 'true' : undefined, q: filters.q };
  return listRecords<DiscountCouponSubscription>(
    client,
    { path: apiPath`/billing/discountcoupons/${couponUid}/redemptions`, query },
    selection,
    onPage,
  );
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** POST /billing/paymentinformation: answers the saved record without its secrets (D17). */
export function updatePaymentInformationRequest(accountUid: string, info: PaymentInformationInput): RequestOptions {
  return { method: 'POST', path: '/billing/paymentinformation', body: { ...info, Account: { Uid: accountUid } } };
}

/** The upgrade flag of a subscription (§2); only the properties present change (D18). */
export interface UpgradeRequirement {
  IsPlanUpgradeRequired: boolean;
  NewRequiredQuantity?: number;
  PlanUpgradeRequiredMessage?: string;
}

/** PUT …/setsubscriptionupgraderequired: answers the subscription, or nothing. */
export function requireUpgradeRequest(subscriptionUid: string, changes: UpgradeRequirement): RequestOptions {
  return { method: 'PUT', path: apiPath`/billing/subscriptions/${subscriptionUid}/setsubscriptionupgraderequired`, body: changes };
}

/** PUT …/subscriptionaddons/{uid}/expire, no body: ends the add-on now; idempotent (D24). Answers a string. */
export function expireAddOnRequest(subscriptionAddOnUid: string): RequestOptions {
  return { method: 'PUT', path: apiPath`/billing/subscriptionaddons/${subscriptionAddOnUid}/expire` };
}
