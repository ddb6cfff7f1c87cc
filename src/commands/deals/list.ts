// `bo deals list [--account <uid>]`: one row per deal with its account. The API shows deals
// only inside their account's `Deals` (D36), so this walks the accounts (paged as any
// list, a deal's fields asked for by path) and hands on each account's deals. Its columns
// are what `bo deals update -` reads back from a sheet: Uid, Name, Amount, DueDate and
// Stage (the stage's Uid: the --stage flag's name), then Account and AccountName, which
// that verb ignores, so an export edited in a spreadsheet is its input as it is.
import { defineCommand } from '../../command.js';
import { listAccounts } from '../../api/crm.js';
import { ArrayPage, paged, type RecordSource } from '../../api/record-source.js';
import type { HttpClient } from '../../api/http-types.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { option } from '../../input/declare.js';
import { DEFAULT_LIMIT } from '../../input/list-options.js';
import { checkUid } from '../../input/validate.js';
import { printList, say, type Column } from '../../output/print.js';

/** One deal as a row of its account. */
export interface DealRow {
  Uid: string;
  Name: unknown;
  Amount: unknown;
  DueDate: unknown;
  Stage: string | null;
  Account: string;
  AccountName: unknown;
}

const columns: Column<DealRow>[] = [
  { header: 'Uid', get: (d) => d.Uid, from: ['Uid'] },
  { header: 'Name', get: (d) => d.Name, from: ['Name'] },
  { header: 'Amount', get: (d) => d.Amount, from: ['Amount'] },
  { header: 'DueDate', get: (d) => d.DueDate, kind: 'date', from: ['DueDate'] },
  { header: 'Stage', get: (d) => d.Stage, from: ['Stage'], drop: 2 },
  { header: 'Account', get: (d) => d.Account, from: ['Account'], drop: 1 },
  { header: 'AccountName', get: (d) => d.AccountName, from: ['AccountName'], drop: 3 },
];

/** What is read of each account: its Uid and name, and its deals' fields by path. */
const FIELDS = 'Uid,Name,Deals.Uid,Deals.Name,Deals.Amount,Deals.DueDate,Deals.DealPipelineStage.Uid';

export default defineCommand({
  printsRecords: true,
  path: ['deals', 'list'],
  summary: "List deals with their account (read through the accounts' Deals)",
  description:
    "List deals, one row per deal: Uid, Name, Amount, DueDate, Stage (the pipeline stage's Uid), and its Account's Uid and " +
    "name. The API shows deals only inside their account, so this reads the accounts (all of them, page by page, or the " +
    "one --account names). The columns are what bo deals update - reads from a sheet: export with --csv, edit in a " +
    'spreadsheet, and feed the same file back (Account and AccountName are ignored there).',
  examples: [
    'bo deals list --account acc_lvsegbmzg',
    "bo deals list --all --csv --csv-separator ';' --bom > deals.csv",
    'bo deals update - --dry-run < deals.csv',
  ],
  options: [
    option.uid('--account <uid>', "only this account's deals (its Uid: bo accounts list)"),
    option.integer('--limit <n>', `most deals to print (default ${DEFAULT_LIMIT})`, 1, Number.MAX_SAFE_INTEGER, { must: 'a positive integer' }),
    option.switch('--all', 'every deal, streamed'),
  ] as const,
  run: async (ctx, _args, opts) => {
    if (opts.account !== undefined) checkUid('--account', opts.account);
    const max = opts.all ? Infinity : (opts.limit ?? DEFAULT_LIMIT);
    if (opts.all && opts.limit !== undefined) throw new UsageError('--limit cannot be combined with --all');
    const client = await ctx.api();
    const counted = { accounts: 0, deals: 0, more: false };
    const printed = await printList(ctx, dealRows(client, opts.account, max, counted), columns);
    if (opts.account !== undefined && counted.accounts === 0) throw new NotFoundError(`no account with Uid ${opts.account}`, { status: 404, code: 'not_found' });
    if (counted.more) say(ctx, `showing ${printed} deal(s); pass --all for every deal`);
  },
});

type Named = { Uid?: unknown; Name?: unknown; Deals?: unknown } | null;

/** The deals of the accounts walked page by page, at most `max`; `counted` says how many accounts matched and whether deals were left. */
function dealRows(client: HttpClient, account: string | undefined, max: number, counted: { accounts: number; deals: number; more: boolean }): RecordSource<DealRow> {
  return paged(async function* () {
    const accounts = listAccounts(client, account === undefined ? {} : { q: account }, { query: { fields: FIELDS }, max: Infinity, pageSize: 100 });
    for await (const page of accounts.pages()) {
      const rows: DealRow[] = [];
      for (const item of page) {
        const a = item as Named;
        if (!a || typeof a.Uid !== 'string' || (account !== undefined && a.Uid !== account)) continue;
        counted.accounts++;
        for (const d of Array.isArray(a.Deals) ? (a.Deals as Array<Record<string, unknown>>) : []) {
          if (counted.deals >= max) {
            counted.more = true;
            break;
          }
          counted.deals++;
          rows.push(dealRow(a.Uid, a.Name, d));
        }
      }
      if (rows.length > 0) yield new ArrayPage(rows);
      if (counted.more) return;
    }
  });
}

function dealRow(account: string, accountName: unknown, d: Record<string, unknown>): DealRow {
  const stage = d.DealPipelineStage as { Uid?: unknown } | null | undefined;
  return {
    Uid: String(d.Uid),
    Name: d.Name ?? null,
    Amount: d.Amount ?? null,
    DueDate: d.DueDate ?? null,
    Stage: typeof stage?.Uid === 'string' ? stage.Uid : null,
    Account: account,
    AccountName: accountName ?? null,
  };
}
