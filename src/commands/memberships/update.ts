// `bo memberships update <accountUid> <membershipUid> [--primary|--no-primary]
// [--receive-invoices|--no-receive-invoices] [--role <n>]`: PUT merges (D18), so only
// the flags given are sent. One membership at a time.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { updateMembershipRequest, type MembershipChanges } from '../../api/crm.js';
import * as v from '../../input/validate.js';
import { UsageError } from '../../errors.js';

interface Opts extends MutationFlags {
  primary?: boolean;
  receiveInvoices?: boolean;
  role?: string;
}

export default defineCommand<Opts>({
  path: ['memberships', 'update'],
  summary: "Change a person's membership of an account",
  description:
    'Update the membership of a person in an account: whether it is the primary contact, whether it ' +
    'receives invoices, and its role number. Only the flags given change; at least one is needed.',
  examples: [
    'bo memberships update acc_0001 pa_0001 --primary --receive-invoices',
    'bo memberships update acc_0001 pa_0001 --no-receive-invoices --role 2 --dry-run',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<accountUid>', 'the account Uid')
        .argument('<membershipUid>', 'the membership Uid')
        .option('--primary', 'make it the primary contact')
        .option('--no-primary', 'make it not the primary contact')
        .option('--receive-invoices', 'send it the invoices')
        .option('--no-receive-invoices', 'stop sending it the invoices')
        .option('--role <n>', 'the role number'),
      { batch: false },
    ),
  run: async (ctx, [account, membership], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<accountUid>',
        noun: 'account',
        done: 'updated',
        single: true,
        action: (a) => `Update membership ${membership as string} of account ${a}`,
        prepare: () => {
          const membershipUid = v.checkUid('<membershipUid>', membership as string);
          const changes: MembershipChanges = {};
          if (opts.primary !== undefined) changes.IsPrimary = opts.primary;
          if (opts.receiveInvoices !== undefined) changes.ReceiveInvoices = opts.receiveInvoices;
          if (opts.role !== undefined) changes.Role = v.checkInteger('--role', opts.role, 0, 2_147_483_647);
          if (Object.keys(changes).length === 0) {
            throw new UsageError('nothing to change: give at least one of --primary, --no-primary, --receive-invoices, --no-receive-invoices, --role');
          }
          return { membershipUid, changes };
        },
        request: (a, p) => updateMembershipRequest(a, p.membershipUid, p.changes),
        notFound: (a, p) => `no membership with Uid ${p.membershipUid} in account ${a} (or no such account)`,
        kind: 'Membership',
        shownUid: (_a, p) => p.membershipUid,
        shown: (_a, p) => ({ ...p.changes }),
      },
      account as string,
      opts,
    );
  },
});
