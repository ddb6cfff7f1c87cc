// The list options every list command takes (COMMANDS.md "List options"), checked
// before any request (exit 2 naming the flag) and turned into the API's query (D13,
// D14, D16).

import { UsageError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, groupDigits, moreRecordsNote, type ListQuery, type ListSelection, type PageMeta } from '../api/paginate.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../api/concurrency.js';
import { option, type OptionValues } from './declare.js';

/** The list options as a verb receives them (listOptions' declarations), the paged kind having every one. */
export type RawListOptions = OptionValues<ReturnType<typeof listOptions<'paged'>>>;

/** The list options checked, as the walk takes them (paginate.ts ListSelection). */
export type ListOptions = ListSelection;

export const DEFAULT_LIMIT = 100;
export const MAX_PAGE_SIZE = 100;

/** Query names the list options own; a --filter must not set them behind their back. */
const reserved: Record<string, string> = {
  limit: '--limit or --page-size',
  offset: '--page',
  fields: '--fields',
  orderby: '--order-by',
  donotlog: '--no-log',
};

const propertyName = /^[A-Za-z0-9_.]+$/;

/** One path of --fields: property names, dots, `*`. */
export const FIELD_PATH = /^[A-Za-z0-9_.*]+$/;

/** --fields of every list and get: paths, or alone the list of fields (main.ts, output/field-list.ts). */
export const FIELDS_HELP = 'comma-separated property paths, e.g. Name,Created (table columns follow); alone, lists the fields and their types';

/**
 * The list options. `whole`: a list read in one request (an account's subscriptions,
 * D36), which the API neither pages, filters nor sorts: --limit, --all, --page and
 * --page-size cut what was read (`bo mcp` pages with them), --fields as every list.
 */
export function listOptions<const R extends 'paged' | 'whole' = 'paged'>(read?: R) {
  const whole = read === 'whole';
  const cut = [
    option.integer('--limit <n>', `most records to print (default ${DEFAULT_LIMIT})${whole ? '' : '; pages as needed'}`, 1, Number.MAX_SAFE_INTEGER, { must: 'a positive integer' }),
    option.switch('--all', whole ? 'every record' : 'every record, streamed'),
    option.integer('--page <index>', whole ? 'one page of --page-size records, zero-based' : 'one raw page, zero-based (the API offset)', 0, Number.MAX_SAFE_INTEGER, {
      must: 'a non-negative integer',
    }),
    option.integer('--page-size <n>', `records per page, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`, 1, MAX_PAGE_SIZE),
    option.text('--fields [paths]', FIELDS_HELP),
  ] as const;
  const paged = [
    option.list('--filter <Property=value>', 'only records whose property equals the value (repeatable)'),
    option.text('--order-by <spec>', 'sort: Property, or "Property desc"'),
    option.integer('--concurrency <n>', `pages in flight when paging, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY}); output stays in order`, 1, MAX_CONCURRENCY),
  ] as const;
  return (whole ? cut : [...cut, ...paged]) as R extends 'whole' ? typeof cut : readonly [...typeof cut, ...typeof paged];
}

/** One --filter: the property and the value it must equal (D14). */
export interface FilterSpec {
  name: string;
  value: string;
}

/** The --filter specs as property and value; a malformed one, or one naming a list option's own query name, is exit 2. */
export function filterSpecs(specs: string[] | undefined): FilterSpec[] {
  return (specs ?? []).map((spec) => {
    const eq = spec.indexOf('=');
    const name = eq < 0 ? '' : spec.slice(0, eq).trim();
    if (!propertyName.test(name)) {
      throw new UsageError(`--filter must be Property=value with a property name of letters, digits, dots or underscores, not "${spec}"`);
    }
    const owner = reserved[name.toLowerCase()];
    if (owner) throw new UsageError(`--filter cannot set "${name}"; use ${owner}`);
    return { name, value: spec.slice(eq + 1) };
  });
}

/** --order-by as its property and direction; undefined when not given, exit 2 when malformed. */
export function orderBySpec(spec: string | undefined): { name: string; desc: boolean } | undefined {
  if (spec === undefined) return undefined;
  const m = /^\s*([A-Za-z0-9_.]+)(?:\s+(asc|desc))?\s*$/i.exec(spec);
  if (!m) throw new UsageError(`--order-by must be Property, "Property asc" or "Property desc", not "${spec}"`);
  return { name: m[1]!, desc: m[2]?.toLowerCase() === 'desc' };
}

/**
 * `tableFields`: the `fields` to ask for in place of --fields as typed (output/columns.ts):
 * the default columns' properties, or on a terminal --fields with the labels it shows.
 */
export function parseListOptions(opts: RawListOptions, tableFields?: string, observePage?: (meta: PageMeta) => void): ListOptions {
  const query: ListQuery = {};
  if (tableFields !== undefined) query.fields = tableFields;
  const { page, pageSize, limit, concurrency } = opts;
  if (page !== undefined && opts.all) throw new UsageError('--page cannot be combined with --all');
  if (page !== undefined && limit !== undefined) throw new UsageError('--page cannot be combined with --limit (use --page-size)');
  if (opts.all && limit !== undefined) throw new UsageError('--limit cannot be combined with --all');

  if (opts.fields !== undefined) {
    const paths = opts.fields.split(',').map((p) => p.trim());
    if (paths.some((p) => !FIELD_PATH.test(p))) {
      throw new UsageError(`--fields must be comma-separated property paths (letters, digits, _, . and *), not "${opts.fields}"`);
    }
    query.fields = tableFields ?? paths.join(',');
  }

  for (const { name, value } of filterSpecs(opts.filter)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }

  const order = orderBySpec(opts.orderBy);
  // D14: a bare property sorts ascending; only descending needs the word.
  if (order) query.orderBy = order.desc ? `${order.name} desc` : order.name;

  if (page !== undefined) return { query, max: pageSize ?? DEFAULT_PAGE_SIZE, pageSize: pageSize ?? DEFAULT_PAGE_SIZE, page, concurrency, observePage };
  const max = opts.all ? Infinity : (limit ?? DEFAULT_LIMIT);
  // Ask for no more than needed: --limit 5 fetches one page of 5.
  return { query, max, pageSize: pageSize ?? Math.min(max, DEFAULT_PAGE_SIZE), concurrency, observePage };
}

/**
 * The stderr note when --page asked past the end: the page is empty, and how many
 * records (and pages of this size) there are. undefined when the page had records or
 * the server sent no total.
 */
export function emptyPageNote(printed: number, selection: ListOptions, total: number | undefined): string | undefined {
  if (selection.page === undefined || printed > 0) return undefined;
  const n = groupDigits;
  if (total === undefined) return `page ${n(selection.page)} is empty`;
  if (total === 0) return `page ${n(selection.page)} is empty: there are no records`;
  const pages = Math.ceil(total / selection.pageSize);
  const range = pages === 1 ? 'page 0 only' : `pages 0 to ${n(pages - 1)}`;
  return `page ${n(selection.page)} is empty: there are ${n(total)} record${total === 1 ? '' : 's'} (${range} with --page-size ${selection.pageSize})`;
}

/** A search text that is empty or only spaces would match everything: refuse it. */
export function checkSearch(flag: string, text: string | undefined): string | undefined {
  if (text !== undefined && text.trim() === '') {
    throw new UsageError(`${flag} needs some text to search for; leave ${flag} out to list everything`);
  }
  return text;
}

/**
 * The stderr note after a list: how many there are when --limit cut it short (and
 * whether a page came back short), or that a --page past the end is empty. `last`: the
 * metadata of the last page read. undefined when there is nothing to say.
 */
export function listEndNote(printed: number, selection: ListOptions, last: PageMeta | undefined): string | undefined {
  if (selection.page !== undefined) return emptyPageNote(printed, selection, last?.total);
  return Number.isFinite(selection.max) ? moreRecordsNote(printed, last?.total, last?.short) : undefined;
}
