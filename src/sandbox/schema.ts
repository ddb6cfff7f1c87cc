// The record kinds the sandbox stores and how they point at each other. Records are
// stored flat: a forward reference is `{Uid}` (D29 shape), and the arrays that point
// back (Account.Subscriptions, EmailList.EmailListPerson…) are not stored but derived
// from the child's forward reference, so the two sides can never disagree.

export type Kind =
  | 'Account' | 'Person' | 'PersonAccount' | 'Deal' | 'DealPipeline' | 'DealPipelineStage'
  | 'Subscription' | 'SubscriptionAddOn' | 'AddOn' | 'Plan' | 'PlanFamily' | 'Invoice'
  | 'DiscountCoupon' | 'DiscountCouponSubscription' | 'EmailList' | 'EmailListPerson'
  | 'BroadcastCampaign' | 'DripCampaign' | 'DripCampaignMessage' | 'Article' | 'Tag'
  | 'CancellationRequest' | 'PaymentInformation' | 'Segment';

export const KINDS: readonly Kind[] = [
  'Account', 'Person', 'PersonAccount', 'Deal', 'DealPipeline', 'DealPipelineStage',
  'Subscription', 'SubscriptionAddOn', 'AddOn', 'Plan', 'PlanFamily', 'Invoice',
  'DiscountCoupon', 'DiscountCouponSubscription', 'EmailList', 'EmailListPerson',
  'BroadcastCampaign', 'DripCampaign', 'DripCampaignMessage', 'Article', 'Tag',
  'CancellationRequest', 'PaymentInformation', 'Segment',
];

export function isKind(name: string): name is Kind {
  return (KINDS as readonly string[]).includes(name);
}

/** A stored record: JSON scalars, embedded objects, and `{Uid}` references. */
export type Rec = { Uid: string; _objectType: string; [field: string]: unknown };

export type Relation =
  /** A stored `{Uid}` reference to one record. */
  | { type: 'one'; kind: Kind }
  /** A stored array of `{Uid}` references. */
  | { type: 'refs'; kind: Kind }
  /** Derived: every `kind` record whose `via` field references this one. */
  | { type: 'many'; kind: Kind; via: string };

const one = (kind: Kind): Relation => ({ type: 'one', kind });
const refs = (kind: Kind): Relation => ({ type: 'refs', kind });
const many = (kind: Kind, via: string): Relation => ({ type: 'many', kind, via });

export const RELATIONS: Partial<Record<Kind, Record<string, Relation>>> = {
  Account: {
    PersonAccount: many('PersonAccount', 'Account'),
    Subscriptions: many('Subscription', 'Account'),
    Deals: many('Deal', 'Account'),
    CurrentSubscription: one('Subscription'),
    LatestSubscription: one('Subscription'),
    PrimarySubscription: one('Subscription'),
    PrimaryContact: one('Person'),
    PaymentInformation: one('PaymentInformation'),
  },
  Person: {
    PersonAccount: many('PersonAccount', 'Person'),
    EmailListPerson: many('EmailListPerson', 'Person'),
    Account: one('Account'),
  },
  PersonAccount: { Person: one('Person'), Account: one('Account') },
  Deal: { DealPipelineStage: one('DealPipelineStage'), Account: one('Account'), Owner: one('Person') },
  DealPipeline: { Stages: many('DealPipelineStage', 'DealPipeline') },
  DealPipelineStage: { DealPipeline: one('DealPipeline'), Deals: many('Deal', 'DealPipelineStage') },
  Subscription: {
    Account: one('Account'),
    Plan: one('Plan'),
    SubscriptionAddOns: many('SubscriptionAddOn', 'Subscription'),
    DiscountCouponSubscriptions: many('DiscountCouponSubscription', 'Subscription'),
    LatestInvoice: one('Invoice'),
  },
  SubscriptionAddOn: { Subscription: one('Subscription'), AddOn: one('AddOn') },
  Plan: { PlanFamily: one('PlanFamily') },
  PlanFamily: { Plans: many('Plan', 'PlanFamily') },
  Invoice: { Subscription: one('Subscription') },
  DiscountCouponSubscription: { Subscription: one('Subscription'), DiscountCoupon: one('DiscountCoupon') },
  EmailList: { EmailListPerson: many('EmailListPerson', 'EmailList') },
  EmailListPerson: { EmailList: one('EmailList'), Person: one('Person') },
  DripCampaign: { DripCampaignMessages: many('DripCampaignMessage', 'DripCampaign') },
  DripCampaignMessage: { DripCampaign: one('DripCampaign') },
  Article: { Tags: refs('Tag') },
  CancellationRequest: { Account: one('Account'), LastPlan: one('Plan') },
  PaymentInformation: { Account: one('Account') },
};

export function relationsOf(kind: Kind): Record<string, Relation> {
  return RELATIONS[kind] ?? {};
}

/**
 * Top-level scalar properties of the listed kinds (§2), for D14: a filter or orderBy
 * on anything else is 400. Stored records may omit some of these (null on the wire).
 */
const BASE = ['Uid', '_objectType', 'Created', 'Updated'];
export const SCALARS: Partial<Record<Kind, readonly string[]>> = {
  Account: [...BASE,
    'Name', 'ClientIdentifier', 'Currency', 'InvoiceNotes', 'IsDemo', 'HasLoggedIn', 'IsLivemode',
    'TaxIdIsInvalid', 'AccountStage', 'AccountStageLabel', 'TaxStatus', 'TaxId', 'TaxIdType',
    'DomainName', 'Nonce', 'SitebuilderSlug', 'GatewayId', 'GatewayDefaultPaymentMethodId',
    'GatewayPriceIds', 'GatewayPromotionCode', 'CurrentGatewayProducts', 'GatewayNextInvoiceSequence',
    'TenantBillingSystem', 'LifetimeRevenue', 'LastLoginDateTime', 'NextGatewayInvoiceDate',
    ...Array.from({ length: 10 }, (_, i) => `AccountSpecificPageUrl${i + 1}`),
    'PartnerReferralId1', 'PartnerReferralId2', 'CaptchaToken'],
  DiscountCoupon: [...BASE,
    'UniqueIdentifier', 'Name', 'IsActive', 'AmountOff', 'PercentOff', 'RedeemBy', 'Duration',
    'DurationInMonths', 'TimesRedeemed', 'MaxRedemptions', 'ApplyToAddOns', 'IsInUse', 'PlanUids'],
  DiscountCouponSubscription: [...BASE, 'RedeemedDate', 'ExpireDate'],
  EmailList: [...BASE,
    'Name', 'Description', 'WelcomeSubject', 'WelcomeBody', 'WelcomeFromName', 'WelcomeFromEmail',
    'RequiresDoubleOptIn', 'IsInternal', 'FieldConfigurationDataJSON', 'CountSubscriptionsActive',
    'CountSubscriptionsBounce', 'CountSubscriptionsIssues', 'CountSubscriptionsNotConfirmed',
    'CountSubscriptionsSpam', 'CountSubscriptionsUnsubscribed'],
};

/** Sandbox AccountStage values (DECISIONS "Integer codes"). */
export const ACCOUNT_STAGES: Record<number, string> = {
  1: 'Demo', 2: 'Trialing', 3: 'Subscribing', 4: 'Cancelling', 5: 'Expired', 6: 'PastDue',
};

/** Sandbox EmailListSubscriberStatus values. */
export const SUBSCRIBER_STATUS = {
  Active: 1, NotConfirmed: 2, Unsubscribed: 3, Bounce: 4, Spam: 5, Cleaned: 6,
} as const;
