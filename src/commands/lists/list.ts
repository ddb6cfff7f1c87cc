import type { PageMeta } from '../../api/paginate.js';
import { defineCommand } from '../../command.js';
import { listOptions, parseListOptions, listEndNote } from '../../input/list-options.js';
import type { EmailList } from '../../api/types.js';
import { printList, say, type Column } from '../../output/print.js';
import { listLists } from '../../api/email.js';
import { columnsFor, tableFields } from '../../output/columns.js';

export const emailListColumns: Column<EmailList>[] = [
  { header: 'Uid', get: (l) => l.Uid, from: ['Uid'] },
  { header: 'Name', get: (l) => l.Name, from: ['Name'] },
  { header: 'Active', get: (l) => l.CountSubscriptionsActive, kind: 'number', from: ['CountSubscriptionsActive'], drop: 5 },
  { header: 'Unconfirmed', get: (l) => l.CountSubscriptionsNotConfirmed, kind: 'number', from: ['CountSubscriptionsNotConfirmed'], drop: 4 },
  { header: 'Double opt-in', get: (l) => l.RequiresDoubleOptIn, from: ['RequiresDoubleOptIn'], drop: 2 },
  { header: 'Internal', get: (l) => l.IsInternal, from: ['IsInternal'], drop: 1 },
  { header: 'Created', get: (l) => l.Created, kind: 'date', from: ['Created'], drop: 3 },
];

export default defineCommand({
  printsRecords: true,
  resource: 'EmailList',
  path: ['lists', 'list'],
  mcp: 'read',
  summary: 'List email lists (GET /email/lists)',
  description: 'List email lists with their subscriber counts. The list options page through the API for you.',
  examples: ['bo lists list', 'bo lists list --filter RequiresDoubleOptIn=true --json', 'bo lists list --fields Name,Description'],
  options: listOptions(),
  run: async (ctx, _args, opts) => {
    const selection = parseListOptions(opts, tableFields(ctx, emailListColumns, opts.fields), ctx.sink?.page?.bind(ctx.sink));
    const client = await ctx.api();
    let last: PageMeta | undefined;
    const records = listLists(client, selection, (meta) => {
      last = meta;
    });
    const printed = await printList(ctx, records, columnsFor(ctx, emailListColumns, opts.fields));
    const note = listEndNote(printed, selection, last);
    if (note) say(ctx, note);
  },
});
