import { defineCommand } from '../../command.js';

export default defineCommand<{ fields?: string }>({
  printsRecords: true,
  resource: 'Account',
  path: ['accounts', 'get'],
  summary: 'Show one account by Uid (exit 3 when absent)',
  description: 'Show one account. The API has no single-account read, so this asks GET /crm/accounts?q=<uid> and keeps the exact Uid match. Exit 3 when there is none.',
  examples: ['bo accounts get acc_0001', 'bo accounts get acc_0001 --json | jq .PrimaryContact', 'bo accounts get acc_0001 --fields "Name,CurrentSubscription.Plan.Name"'],
  configure: (cmd) =>
    cmd.argument('<accountUid>', 'the account Uid').option('--fields [paths]', 'comma-separated property paths, e.g. Name,PrimaryContact.Email (the API fields parameter); alone, lists the fields and their types'),
  run: async (ctx, [uid], opts) => {
    const [{ checkUid }, { findAccount }, { printRecord }, { NotFoundError }, { fieldPairs }] = await Promise.all([
      import('../../input/validate.js'),
      import('../../api/crm.js'),
      import('../../output/print.js'),
      import('../../errors.js'),
      import('../../output/columns.js'),
    ]);
    const accountUid = checkUid('<accountUid>', uid as string);
    const account = await findAccount(await ctx.api(), accountUid, opts.fields);
    if (!account) throw new NotFoundError(`no account with Uid ${accountUid}`, { hint: `${(await import('../../hints.js')).boCommand(ctx.globals, 'accounts list --q <name>')} finds accounts by name` });
    // --fields: each path its own row (Plan.Name shows the name, not the subscription).
    await printRecord(ctx, account, opts.fields ? fieldPairs(account, opts.fields) : undefined);
  },
});
