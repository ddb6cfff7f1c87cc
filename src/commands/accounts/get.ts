import { defineCommand } from '../../command.js';
import { checkUid } from '../../input/validate.js';
import { findAccount } from '../../api/crm.js';
import { printRecord } from '../../output/print.js';
import { NotFoundError } from '../../errors.js';
import { fieldPairs, labelledFields } from '../../output/columns.js';
import { boCommand } from '../../hints.js';
import { operand, option } from '../../input/declare.js';

export default defineCommand({
  printsRecords: true,
  resource: 'Account',
  path: ['accounts', 'get'],
  mcp: 'read',
  summary: 'Show one account by Uid (exit 3 when absent)',
  description: 'Show one account. The API has no single-account read, so this asks GET /crm/accounts?q=<uid> and keeps the exact Uid match. Exit 3 when there is none.',
  examples: ['bo accounts get acc_lvsegbmzg', 'bo accounts get acc_lvsegbmzg --json | jq .PrimaryContact', 'bo accounts get acc_lvsegbmzg --fields "Name,CurrentSubscription.Plan.Name"'],
  operands: [operand.uid('<accountUid>', 'the account Uid')],
  options: [
    option.text('--fields [paths]', 'comma-separated property paths, e.g. Name,PrimaryContact.Email (the API fields parameter); alone, lists the fields and their types'),
  ] as const,
  run: async (ctx, [uid], opts) => {
    const accountUid = checkUid('<accountUid>', uid);
    // On a terminal a code comes with its label (AccountStage: 2 Trialing), as in lists.
    const account = await findAccount(await ctx.api(), accountUid, opts.fields && (labelledFields(ctx, opts.fields) ?? opts.fields));
    if (!account) throw new NotFoundError(`no account with Uid ${accountUid}`, { hint: `${boCommand(ctx.globals, 'accounts list --q <name>')} finds accounts by name` });
    // --fields: each path its own row (Plan.Name shows the name, not the subscription).
    await printRecord(ctx, account, opts.fields ? fieldPairs(ctx, account, opts.fields) : undefined);
  },
});
