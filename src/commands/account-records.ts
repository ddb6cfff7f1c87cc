// What `bo subscriptions list` and `bo addons list` share. The API shows an account's
// subscriptions and add-ons only inside the account (D36), so both read the account as
// `accounts get` does (GET /crm/accounts?q=<uid>&fields=…, one request) and print the
// records under it as every list prints: a table, TSV, CSV, --json, --jsonl. --fields
// names the record's own paths (Plan.Name), asked for under the account's
// (Subscriptions.Plan.Name); --limit, --all, --page and --page-size cut what was read.

import type { CommandDefinition } from '../command.js';
import type { Context } from '../context.js';
import { findAccount } from '../api/crm.js';
import type { PageMeta } from '../api/paginate.js';
import { listOf } from '../api/record-source.js';
import { NotFoundError } from '../errors.js';
import type { Example } from '../help/examples.js';
import { boCommand } from '../hints.js';
import { listEndNote, listOptions, parseListOptions } from '../input/list-options.js';
import { checkUid } from '../input/validate.js';
import { columnsFor, pick, tableFields } from '../output/columns.js';
import { outputMode, printList, say, type Column } from '../output/print.js';
import { operand } from '../input/declare.js';

export interface AccountRecords<R> {
  path: [group: string, verb: string];
  /** As a definition's: `'read'` offers it as a `bo mcp` read tool. */
  mcp?: 'read';
  /** The record kind (API reference §2) of what it lists, for --fields. */
  resource: string;
  /** Where the records are inside an account: `Subscriptions`, `Subscriptions.SubscriptionAddOns`. */
  under: string;
  summary: string;
  description: string;
  examples: Example[];
  /** The default columns, reading the record's own paths (`from`). */
  columns: (ctx: Context) => Column<R>[];
  /** What --json and --jsonl ask for: the record's own fields, and its plan's or add-on's (`Plan.*`). */
  json: string[];
}

/** `running`, or `ended` once its EndDate or ExpirationDate has passed (D24: expiring sets both to now). */
export function endedOrRunning(ctx: Context, record: { EndDate?: unknown; ExpirationDate?: unknown }): string {
  const now = ctx.clock.now().getTime();
  const past = (value: unknown) => typeof value === 'string' && Date.parse(value) <= now;
  return past(record.EndDate) || past(record.ExpirationDate) ? 'ended' : 'running';
}

/** A term's record, as a subscription and a subscription add-on both are. */
type Term = { Uid?: unknown; Quantity?: unknown; StartDate?: unknown; EndDate?: unknown; ExpirationDate?: unknown };

/** The columns of a subscription or an add-on: its Uid, what it is (`named`), quantity, start, end, ended or running. */
export function termColumns<R extends Term>(ctx: Context, named: Column<R>): Column<R>[] {
  return [
    { header: 'Uid', get: (r) => r.Uid, from: ['Uid'] },
    named,
    { header: 'Quantity', get: (r) => r.Quantity, kind: 'number', from: ['Quantity'], drop: 2 },
    { header: 'Start', get: (r) => r.StartDate, kind: 'date', from: ['StartDate'], drop: 1 },
    { header: 'End', get: (r) => r.EndDate, kind: 'date', from: ['EndDate'], drop: 3 },
    { header: 'Status', get: (r) => endedOrRunning(ctx, r), from: ['EndDate', 'ExpirationDate'] },
  ];
}

/** What both verbs take: the account, and the list options of a list read whole. */
const OPERANDS = [operand.uid('<accountUid>', 'the account Uid (bo accounts list --q <name> finds it)')] as const;
const OPTIONS = listOptions('whole');

export function accountRecordsCommand<R>(spec: AccountRecords<R>): CommandDefinition<typeof OPTIONS, typeof OPERANDS> {
  return {
    printsRecords: true,
    resource: spec.resource,
    path: spec.path,
    mcp: spec.mcp,
    summary: spec.summary,
    description: spec.description,
    examples: spec.examples,
    operands: OPERANDS,
    options: OPTIONS,
    run: async (ctx, [uid], opts) => {
      const accountUid = checkUid('<accountUid>', uid);
      const columns = spec.columns(ctx);
      const mode = outputMode(ctx);
      // The record's own paths: the columns', --fields', or for JSON the whole record.
      const own = tableFields(ctx, columns, opts.fields) ?? (opts.fields === undefined && (mode === 'json' || mode === 'jsonl') ? spec.json.join(',') : undefined);
      const selection = parseListOptions(opts, own);
      const paths = (selection.query.fields as string | undefined)?.split(',') ?? spec.json;
      const fields = ['Uid', ...paths.filter((p) => p !== 'Uid')].map((p) => `${spec.under}.${p}`).join(',');
      const account = await findAccount(await ctx.api(), accountUid, fields);
      if (!account) throw new NotFoundError(`no account with Uid ${accountUid}`, { hint: `${boCommand(ctx.globals, 'accounts list --q <name>')} finds accounts by name` });
      const all = [pick(account, spec.under)].flat().filter((r): r is R => r !== null && typeof r === 'object');
      const size = selection.pageSize;
      const shown = selection.page !== undefined ? all.slice(selection.page * size, (selection.page + 1) * size) : all.slice(0, selection.max);
      const meta: PageMeta = { limit: size, offset: selection.page ?? 0, total: all.length };
      ctx.sink?.page?.(meta);
      const printed = await printList(ctx, listOf(shown), columnsFor(ctx, columns, opts.fields));
      const note = listEndNote(printed, selection, meta);
      if (note) say(ctx, note);
    },
  };
}
