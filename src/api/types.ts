// Resource types of SERVICE-API.md §2, shared by the client and the sandbox. Only the
// fields code reads are named; the index signature keeps every other field of a
// record (the API sends many more, and a real tenant may add its own).

/** A reference inside a body (D29): the sandbox also accepts a bare Uid string. */
export interface Ref {
  Uid: string;
}

/** Base fields every record carries (§2). */
export interface BaseRecord {
  Uid: string;
  _objectType?: string;
  Created?: string | null;
  Updated?: string | null;
  ActivityEventData?: Record<string, unknown> | null;
  [field: string]: unknown;
}

/** The collection envelope (§2). `offset` is a page index, in units of `limit` (D13). */
export interface Collection<T = BaseRecord> {
  metadata: { limit: number; offset: number; total: number };
  items: T[];
}

export interface Address {
  AddressLine1?: string | null;
  City?: string | null;
  PostalCode?: string | null;
  Country?: string | null;
  [field: string]: unknown;
}

export interface Account extends BaseRecord {
  Name?: string | null;
  AccountStage?: number | null;
  AccountStageLabel?: string | null;
  Currency?: string | null;
  CurrentSubscription?: Subscription | Ref | null;
}

export interface Person extends BaseRecord {
  Email?: string | null;
  FirstName?: string | null;
  LastName?: string | null;
  FullName?: string | null;
}

export interface Membership extends BaseRecord {
  Person?: Person | Ref | null;
  Account?: Account | Ref | null;
  IsPrimary?: boolean | null;
  ReceiveInvoices?: boolean | null;
  Role?: number | null;
}

export interface Deal extends BaseRecord {
  Name?: string | null;
  Amount?: number | null;
  DueDate?: string | null;
  Weight?: number | null;
  DealPipelineStage?: BaseRecord | Ref | null;
}

export interface Subscription extends BaseRecord {
  BillingRenewalTerm?: number | null;
  Quantity?: number | null;
  StartDate?: string | null;
  EndDate?: string | null;
  ExpirationDate?: string | null;
  RenewalDate?: string | null;
  IsPlanUpgradeRequired?: boolean | null;
  NewRequiredQuantity?: number | null;
  PlanUpgradeRequiredMessage?: string | null;
  Rate?: number | null;
}

export interface SubscriptionAddOn extends BaseRecord {
  Quantity?: number | null;
  StartDate?: string | null;
  EndDate?: string | null;
  ExpirationDate?: string | null;
}

export interface AddOn extends BaseRecord {
  Name?: string | null;
  BillingAddOnType?: number | null;
  MinimumQuantity?: number | null;
  MonthlyRate?: number | null;
  AnnualRate?: number | null;
  QuarterlyRate?: number | null;
  OneTimeRate?: number | null;
  SetupFee?: number | null;
}

export interface Plan extends BaseRecord {
  Name?: string | null;
  TrialPeriodDays?: number | null;
}

export interface Invoice extends BaseRecord {
  Amount?: number | null;
  AmountSubtotal?: number | null;
  AmountTax?: number | null;
  InvoiceLineItems?: unknown[] | null;
}

export interface DiscountCoupon extends BaseRecord {
  UniqueIdentifier?: string | null;
  Name?: string | null;
  IsActive?: boolean | null;
  AmountOff?: number | null;
  PercentOff?: number | null;
  RedeemBy?: string | null;
  TimesRedeemed?: number | null;
  MaxRedemptions?: number | null;
}

export interface DiscountCouponSubscription extends BaseRecord {
  RedeemedDate?: string | null;
  ExpireDate?: string | null;
}

export interface EmailList extends BaseRecord {
  Name?: string | null;
  Description?: string | null;
  RequiresDoubleOptIn?: boolean | null;
  IsInternal?: boolean | null;
}

export interface EmailListPerson extends BaseRecord {
  EmailListSubscriberStatus?: number | null;
  SubscribedDate?: string | null;
  Source?: string | null;
}

export interface BroadcastCampaign extends BaseRecord {
  Status?: number | null;
  SendDateTime?: string | null;
  Campaign?: { Name?: string | null; [field: string]: unknown } | null;
}

export interface DripCampaignMessage extends BaseRecord {
  DelayInHours?: number | null;
  DelayFromPriorDay?: number | null;
  Message?: { Name?: string | null; Subject?: string | null; Body?: string | null; [field: string]: unknown } | null;
}

export interface CancellationRequest extends BaseRecord {
  SubmittedDateTime?: string | null;
  CancelationReason?: string | null;
  Comment?: string | null;
}

export interface PaymentInformation extends BaseRecord {
  PaymentMethodType?: string | null;
  LastFourDigits?: string | null;
  NameOnCard?: string | null;
}

/** §2 Token response. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  [field: string]: unknown;
}
