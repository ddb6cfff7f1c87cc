// `bo addons list <accountUid>`: the add-ons of an account's subscriptions, read inside
// the account (D36: the API lists them nowhere else), one request.
import type { SubscriptionAddOn } from '../../api/types.js';
import { accountRecordsCommand, termColumns } from '../account-records.js';

type Named = { Uid?: string; Name?: string } | null | undefined;

export default accountRecordsCommand<SubscriptionAddOn>({
  path: ['addons', 'list'],
  mcp: 'read',
  resource: 'SubscriptionAddOn',
  under: 'Subscriptions.SubscriptionAddOns',
  summary: "List an account's add-ons: add-on, quantity, start, end, ended or running",
  description:
    "List the add-ons of an account's subscriptions: the subscription add-on Uid (what bo addons expire takes), " +
    'the add-on, quantity, start and end, and whether each has ended (its end or expiration date has passed) or is ' +
    'running. The API shows add-ons only inside their account, so this reads the account (one request, as bo ' +
    'accounts get does). --fields names the add-on\'s own paths (AddOn.Name, RenewalDate); --json prints each ' +
    'with its add-on.',
  examples: [
    'bo addons list acc_lvsegbmzg',
    'bo addons list acc_lvsegbmzg --fields AddOn.Name,Rate,RenewalDate',
    'bo addons list acc_lvsegbmzg --jsonl --jq "select(.EndDate == null) | .Uid"',
  ],
  columns: (ctx) => termColumns(ctx, { header: 'Add-on', get: (a) => (a.AddOn as Named)?.Name ?? (a.AddOn as Named)?.Uid, from: ['AddOn.Name'] }),
  json: ['*', 'AddOn.*'],
});
