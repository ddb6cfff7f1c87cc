// Seeded products and sales structure: plan families, plans, add-ons, deal pipelines.

import { ref } from './db.js';
import type { Rec } from './schema.js';
import type { World } from './seed-world.js';

export interface Catalog {
  plans: Rec[];
  /** Plans that start with a trial. */
  trialPlans: Rec[];
  addOns: Rec[];
  stages: Rec[];
}

const PLANS = [
  { Name: 'Starter', family: 0, MonthlyRate: 29, AnnualRate: 290, QuarterlyRate: 79, TrialPeriodDays: 14 },
  { Name: 'Growth', family: 0, MonthlyRate: 99, AnnualRate: 990, QuarterlyRate: 269, TrialPeriodDays: 14 },
  { Name: 'Pro', family: 0, MonthlyRate: 249, AnnualRate: 2490, QuarterlyRate: 679, TrialPeriodDays: 30 },
  { Name: 'Enterprise', family: 1, MonthlyRate: 999, AnnualRate: 9990, QuarterlyRate: 2799, TrialPeriodDays: 0 },
];

const ADDONS = [
  { Name: 'Extra seats', BillingAddOnType: 1, IsPerUser: true, MinimumQuantity: 1, MonthlyRate: 10, AnnualRate: 100, QuarterlyRate: 27, OneTimeRate: 0, SetupFee: 0, UnitOfMeasure: 'seat' },
  { Name: 'Priority support', BillingAddOnType: 1, IsPerUser: false, MinimumQuantity: 1, MonthlyRate: 49, AnnualRate: 490, QuarterlyRate: 135, OneTimeRate: 0, SetupFee: 99, UnitOfMeasure: 'plan' },
  { Name: 'Storage pack', BillingAddOnType: 1, IsPerUser: false, MinimumQuantity: 5, MonthlyRate: 2.5, AnnualRate: 25, QuarterlyRate: 7, OneTimeRate: 0, SetupFee: 0, UnitOfMeasure: 'GB' },
  // BillingAddOnType 2 is one-time in the sandbox (D23).
  { Name: 'Onboarding workshop', BillingAddOnType: 2, IsPerUser: false, MinimumQuantity: 1, MonthlyRate: 0, AnnualRate: 0, QuarterlyRate: 0, OneTimeRate: 1500, SetupFee: 0, UnitOfMeasure: 'session' },
];

const PIPELINES = [
  { Name: 'New business', stages: ['Qualified', 'Demo booked', 'Proposal', 'Negotiation', 'Won'] },
  { Name: 'Expansion', stages: ['Identified', 'Quoted', 'Closed'] },
];

export function seedCatalog(w: World): Catalog {
  const families = [
    w.add('PlanFamily', 'pfam', { Name: 'Self-serve', IsActive: true, IsDefault: true }, 400),
    w.add('PlanFamily', 'pfam', { Name: 'Sales-led', IsActive: true, IsDefault: false }, 400),
  ];
  const addOns = ADDONS.map((a) =>
    w.add('AddOn', 'addon', {
      ...a, IsQuantityEditable: true, IsTaxable: false, IsBilledDuringTrial: false,
      ExpiresAfterMonths: null, ExpirationDate: null, GatewayTaxCodeId: null,
    }, 400),
  );
  const plans = PLANS.map((p) =>
    w.add('Plan', 'plan', {
      Name: p.Name,
      Description: `${p.Name} plan`,
      PlanFamily: ref(families[p.family]!.Uid),
      AccountRegistrationMode: 1,
      IsQuantityEditable: true,
      MinimumQuantity: 1,
      MaximumPeople: p.family === 1 ? null : 25,
      MonthlyRate: p.MonthlyRate,
      AnnualRate: p.AnnualRate,
      QuarterlyRate: p.QuarterlyRate,
      OneTimeRate: 0,
      SetupFee: 0,
      IsTaxable: false,
      IsActive: true,
      IsPerUser: false,
      RequirePaymentInformation: p.TrialPeriodDays === 0,
      TrialPeriodDays: p.TrialPeriodDays,
      PostLoginPath: '/app',
      UnitOfMeasure: 'account',
      PlanAddOns: addOns.map((a) => ({ Plan: null, AddOn: ref(a.Uid), IsUserSelectable: true })),
    }, 400),
  );
  const stages: Rec[] = [];
  for (const p of PIPELINES) {
    const pipeline = w.add('DealPipeline', 'pipe', { Name: p.Name }, 400);
    p.stages.forEach((name, i) =>
      stages.push(w.add('DealPipelineStage', 'stage', { Name: name, Weight: (i + 1) * 10, DealPipeline: ref(pipeline.Uid) }, 400)),
    );
  }
  return { plans, trialPlans: plans.filter((p) => (p.TrialPeriodDays as number) > 0), addOns, stages };
}
