// `bo memberships update <accountUid> <membershipUid> [--primary|--no-primary]
// [--receive-invoices|--no-receive-invoices] [--role <n>]`: PUT merges (D18), so only
// the flags given are sent. One membership at a time.
import { defineMutation, arg, target, changedIfRecord, CannotRead } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { membershipRequest, membershipIs, updateMembershipRequest } from '../../api/crm.js';

export default defineMutation({
  path: ['memberships', 'update'],
  summary: "Change a person's membership of an account",
  description:
    'Update the membership of a person in an account: whether it is the primary contact, whether it ' +
    'receives invoices, and its role number. Only the flags given change; at least one is needed.',
  examples: [
    'bo memberships update acc_lvsegbmzg mem_noq5bd38l --primary --receive-invoices',
    'bo memberships update acc_lvsegbmzg mem_pjidm41zb --no-receive-invoices --role 2 --dry-run',
  ],
  target: target.uid('<accountUid>', 'the account Uid', { noun: 'account', single: true }),
  args: [arg.uid('<membershipUid>', 'the membership Uid')],
  fields: [
    field.toggle('--primary', 'IsPrimary', 'make it the primary contact', 'make it not the primary contact'),
    field.toggle('--receive-invoices', 'ReceiveInvoices', 'send it the invoices', 'stop sending it the invoices'),
    field.integer('--role <n>', 'Role', 'the role number', 0, 2_147_483_647),
  ],
  needsField: true,
  // D18: a PUT that merges; the account's PersonAccount shows whether it is in place.
  resend: 'check',
  readBack: { request: (a) => membershipRequest(a), inPlace: (a, changes, answer, [membership]) => membershipIs(answer, a, membership, changes) },
  // --diff: the membership inside its account's PersonAccount (D36).
  current: async (client, a, _context, [membership], signal) => {
    const body = (await client.request({ ...membershipRequest(a), ...(signal ? { signal } : {}) })).body as { items?: Array<Record<string, unknown>> } | null;
    const account = Array.isArray(body?.items) ? body.items.find((x) => x?.Uid === a) : undefined;
    const found = Array.isArray(account?.PersonAccount) ? (account.PersonAccount as Array<Record<string, unknown>>).find((x) => x?.Uid === membership) : undefined;
    if (!found) throw new CannotRead(account ? `account ${a} has no membership ${membership}` : `no account with Uid ${a}`);
    return found;
  },
  action: (a, [membership]) => `Update membership ${membership} of account ${a}`,
  request: (a, changes, [membership]) => updateMembershipRequest(a, membership, changes),
  done: 'updated',
  // D17: the answer is the updated membership (the merge applied); any other cannot tell.
  changed: changedIfRecord,
  kind: 'Membership',
  notFound: (a, _c, [membership]) => `no membership with Uid ${membership} in account ${a} (or no such account)`,
  shownUid: (_a, _c, _answer, [membership]) => membership,
});
