// `bo subscriptions list <accountUid>`: an account's subscriptions, read inside the
// account (D36: the API lists them nowhere else), one request.
import type { Subscription } from '../../api/types.js';
import { accountRecordsCommand, termColumns } from '../account-records.js';

type Named = { Uid?: string; Name?: string } | null | undefined;

export default accountRecordsCommand<Subscription>({
  path: ['subscriptions', 'list'],
  mcp: 'read',
  resource: 'Subscription',
  under: 'Subscriptions',
  summary: "List an account's subscriptions: plan, quantity, start, end, ended or running",
  description:
    "List an account's subscriptions: Uid, plan, quantity, start and end, and whether each has ended (its end or " +
    'expiration date has passed) or is running. The API shows subscriptions only inside their account, so this ' +
    'reads the account (one request, as bo accounts get does). --fields names the subscription\'s own paths ' +
    '(Plan.Name, RenewalDate); --json prints each subscription with its plan.',
  examples: [
    'bo subscriptions list acc_lvsegbmzg',
    'bo subscriptions list acc_lvsegbmzg --fields Plan.Name,RenewalDate,IsPlanUpgradeRequired',
    'bo subscriptions list acc_lvsegbmzg --jsonl --jq .Uid',
  ],
  columns: (ctx) => termColumns(ctx, { header: 'Plan', get: (s) => (s.Plan as Named)?.Name ?? (s.Plan as Named)?.Uid, from: ['Plan.Name'] }),
  json: ['*', 'Plan.*'],
});
