import type { PageMeta } from '../../api/paginate.js';
import { defineCommand } from '../../command.js';
import { listOptions, parseListOptions, listEndNote, checkSearch } from '../../input/list-options.js';
import type { Account } from '../../api/types.js';
import { printList, say, type Column } from '../../output/print.js';
import { listAccounts } from '../../api/crm.js';
import { columnsFor, tableFields, withLabel } from '../../output/columns.js';
import { checkUid } from '../../input/validate.js';
import { option } from '../../input/declare.js';

export const accountColumns: Column<Account>[] = [
  { header: 'Uid', get: (a) => a.Uid, from: ['Uid'] },
  { header: 'Name', get: (a) => a.Name, from: ['Name'] },
  // AccountStage is an integer; the label comes from the API, never from our lists.
  { header: 'Stage', get: (a) => withLabel(a.AccountStage, a.AccountStageLabel), from: ['AccountStage', 'AccountStageLabel'], drop: 3 },
  { header: 'Currency', get: (a) => a.Currency, from: ['Currency'], drop: 1 },
  { header: 'Created', get: (a) => a.Created, kind: 'date', from: ['Created'], drop: 2 },
];

export default defineCommand({
  printsRecords: true,
  resource: 'Account',
  path: ['accounts', 'list'],
  mcp: 'read',
  summary: 'List accounts (GET /crm/accounts)',
  description:
    'List accounts in the order the API returns them. --q matches part of a name or an exact Uid; ' +
    '--segment keeps the members of a segment. The list options page through the API for you.',
  examples: [
    'bo accounts list --q acme',
    'bo accounts list --segment seg_m4er31bx5w --all --jsonl > accounts.jsonl',
    'bo accounts list --filter AccountStage=2 --order-by "Created desc" --limit 20',
    'bo accounts list --fields Name,PrimaryContact.Email',
    ['bo accounts list --jq ".[].Name"', '. is the array --json prints'],
    ['bo accounts list --all --jsonl --jq "select(.AccountStage==2).Uid"', '. is each record'],
  ],
  options: [
    option.text('--q <text>', 'part of an account name, or an exact account Uid', { conflicts: ['search'] }),
    option.text('--search <text>', 'same as --q', { conflicts: ['q'] }),
    option.uid('--segment <uid>', 'only accounts in this segment'),
    ...listOptions(),
  ] as const,
  run: async (ctx, _args, opts) => {
    const selection = parseListOptions(opts, tableFields(ctx, accountColumns, opts.fields), ctx.sink?.page?.bind(ctx.sink));
    const q = checkSearch('--q', opts.q) ?? checkSearch('--search', opts.search);
    if (opts.segment !== undefined) checkUid('--segment', opts.segment);
    const client = await ctx.api();
    let last: PageMeta | undefined;
    const records = listAccounts(client, { q, segmentUid: opts.segment }, selection, (meta) => {
      last = meta;
    });
    const printed = await printList(ctx, records, columnsFor(ctx, accountColumns, opts.fields));
    const note = listEndNote(printed, selection, last);
    if (note) say(ctx, note);
  },
});
