import { defineCommand } from '../command.js';
import type { Context } from '../context.js';
import type { ApiResponse } from '../api/http-types.js';
import { ApiError, UsageError } from '../errors.js';
import { mutationOptions } from '../mutation/flags.js';
import { buildApiRequest, type ApiRequest } from '../input/raw-request.js';
import { boCommand } from '../hints.js';
import { STATUS_CODES } from 'node:http';
import { neutralise } from '../api/neutralise.js';
import { writeOut } from '../output/sink.js';
import { printDryRun } from '../mutation/dry-run.js';
import { confirmMutation, profileInEffect, whereOf } from '../mutation/confirm.js';
import { printList, printValue, warn } from '../output/print.js';
import { walkAll } from '../api/paginate.js';
import type { HttpClient } from '../api/http-types.js';
import { journaled, type RunJournal } from '../journal/open.js';
import { startJournal } from '../mutation/journal-run.js';
import { operand, option, type OptionValues } from '../input/declare.js';

const API_OPTIONS = [
  // The choices feed help and completions; any case is accepted (raw-request.ts checks it).
  option.choice('-X, --method <method>', 'HTTP method, in any case', ['GET', 'POST', 'PUT', 'DELETE'], { anyCase: true }),
  option.list('-F, --field <key=value>', 'a typed field: number, true, false, null, @file, @- (repeatable; key[sub], key[])', { default: [] }),
  option.list('-f, --raw-field <key=value>', 'a text field, sent as typed (repeatable; key[sub], key[])', { default: [] }),
  option.list('-H, --header <name: value>', 'a request header (repeatable)', { default: [] }),
  option.switch('-i, --include', 'print the status line and response headers before the body'),
  option.switch('--silent', 'print no response body'),
  option.text('--input <file>', 'JSON body from a file, or - for stdin'),
  option.switch('--paginate', 'walk every page of a list endpoint'),
  option.switch('--no-auth', 'send no credentials (implied for the magic-link and public subscription endpoints)'),
  ...mutationOptions({ batch: false }),
] as const;

type ApiOpts = OptionValues<typeof API_OPTIONS>;

export default defineCommand({
  path: ['api'],
  mcp: 'read',
  paged: true,
  summary: 'Send a raw request under /api/v1 and print the JSON body',
  description:
    'Send a request to any endpoint under {base}/api/v1 and print the JSON answer, like `gh api`. ' +
    '-F key=value adds a typed field, -f key=value a text one: a query parameter for GET and DELETE (and beside --input), a JSON body property otherwise. ' +
    'With -F, true, false, null and numbers are sent as JSON (a number a JSON double would round is refused), @file sends a file\'s text and @- stdin\'s; ' +
    'with -f the value is always text. Nested keys make objects and lists: -F \'Account[Uid]=acc_1\' sends {"Account":{"Uid":"acc_1"}}, ' +
    'repeated -F \'Uids[]=a\' -F \'Uids[]=b\' send {"Uids":["a","b"]}, -F \'Uids[]\' an empty list; in a query they read Account[Uid]=acc_1 and Uids[]=a. ' +
    'A key given twice, or as both a value and an object, is refused. ' +
    '-H \'Name: value\' adds a request header (repeatable); Authorization, Host, Content-Length and the other headers bo sets itself are refused, ' +
    'and --verbose redacts the value of a header whose name looks secret (token, secret, key, cookie, auth…). ' +
    '-i prints the status line and response headers before the body; --silent prints no body. The method defaults to ' +
    'GET, or POST when fields or --input are given. --paginate walks every page (the offset parameter counts ' +
    'pages of the size the server applied) and prints the items as one JSON array (or one per line with --jsonl). ' +
    '--jq <expression> filters what would be printed with jq: . is the answer\'s JSON, the merged array with --paginate, or each item with --paginate --jsonl. ' +
    'POST /crm/people/requestMagicLink and POST /public/email/lists/<uid>/subscriptions are sent without credentials, as if --no-auth. ' +
    'The path is sent as typed: one with an empty segment (// or a trailing /), a . or .. segment (also as %2e), ' +
    'an encoded / or \\, or a # is refused (exit 2), since it would reach another endpoint. ' +
    'On a protected profile every method but GET asks for confirmation, naming the profile and URL; ' +
    'without a terminal (or with --no-input) pass --yes. ' +
    '--dry-run prints the method, URL, -H headers and body that would be sent (--json: {"method","url","headers","body"}, headers only when -H is given), ' +
    'sends nothing and never asks. On a terminal a long answer goes through the pager (bo help environment).',
  examples: [
    'bo api "/crm/accounts?q=acme&limit=10"',
    'bo api -X GET /crm/accounts -F q=acme -F limit=10',
    'bo api /email/lists -X POST -F Name=Partners -F RequiresDoubleOptIn=true',
    'bo --sandbox api /email/lists -f Name=2027 -F RequiresDoubleOptIn=false',
    'bo --sandbox api -X GET /crm/accounts -f q=Acme -F limit=2',
    "bo --sandbox api -X PUT /crm/deals/deal_z9w6mp246 -F 'Account[Uid]=acc_lvsegbmzg' -F 'DealPeople[][Person][Uid]=per_mh1o02orz' -F Amount=1200 --dry-run",
    "bo --sandbox api -i /crm/accounts -F limit=1 -X GET -H 'Accept-Language: de'",
    'bo --sandbox api -X POST /email/lists -F Name=Quiet --silent',
    'bo api /billing/discountcoupons --paginate --jsonl',
    'bo api /crm/accounts --paginate --jq "map(select(.AccountStage==2).Uid)"',
    'echo \'{"Name":"Beta testers"}\' | bo api /email/lists --input -',
    'bo api /crm/people/requestMagicLink -X POST -F Email=a@example.com',
    'bo api -X DELETE /email/campaigns/drips/drip_llo22xbxil --dry-run',
    'bo -p production api -X DELETE /email/campaigns/drips/drip_lsdylrbgpp --yes',
  ],
  operands: [operand.text('<path>', 'path under /api/v1, e.g. /crm/accounts')],
  options: API_OPTIONS,
  run: async (ctx, [rawPath], opts) => {
    if (opts.include && opts.paginate) throw new UsageError('-i/--include prints the headers of one answer; it does not go with --paginate');
    const request = await buildApiRequest(ctx.io.stdin, rawPath, opts, (rest) => boCommand(ctx.globals, rest));
    if (opts.dryRun) {
      return printDryRun(ctx, request, Boolean(opts.paginate));
    }
    const client = await ctx.api(request.anonymous ? { anonymous: true } : undefined);
    let journal: RunJournal | undefined;
    if (request.method !== 'GET') {
      // A write through `bo api` confirms on a protected profile as every mutation does.
      const where = whereOf(ctx, await profileInEffect(ctx), client.baseUrl);
      await confirmMutation(ctx, `Send ${request.method} ${request.path}`, where, { destructive: false, yes: opts.yes === true, batch: false });
      // …and is journaled as one: the field names and a digest, never a value.
      if (!opts.paginate) journal = await startJournal(ctx, where, { command: `api -X ${request.method} ${request.path}`, batch: false });
    }
    try {
      await send(ctx, client, request, opts, journal);
    } finally {
      journal?.close(ctx.signal.aborted);
    }
  },
});

/** Sends the request (through the journal for a write) and prints the answer, or every page's items. */
async function send(ctx: Context, client: HttpClient, request: ApiRequest, opts: ApiOpts, journal: RunJournal | undefined): Promise<void> {
  if (opts.paginate) {
    const query = Object.fromEntries([...request.query.keys()].map((k) => [k, request.query.getAll(k)]));
    // A `limit` the user gave is the page size of the walk; paginate owns limit/offset.
    const limit = Number(request.query.get('limit'));
    const pageSize = Number.isInteger(limit) && limit > 0 ? limit : undefined;
    // The server's items as they are: a repeat is printed again, but a page of repeats still ends the walk.
    const items = walkAll<unknown>(client, { path: request.path, query, pageSize, headers: request.headers, signal: ctx.signal, keepRepeats: true });
    if (opts.silent) {
      try {
        for await (const _ of items);
      } finally {
        for (const note of items.notes()) warn(ctx, note);
      }
    } else await printList(ctx, items, [{ header: 'JSON', get: (r) => JSON.stringify(r) }], { forceJson: !ctx.globals.jsonl });
    return;
  }
  let res: ApiResponse;
  try {
    res = await journaled(journal, request, () => client.request(request));
  } catch (err) {
    // As gh: -i shows the status and headers of a refusal too; the error follows on stderr.
    if (opts.include && err instanceof ApiError && err.status) await printHead(ctx, { status: err.status, headers: err.headers });
    throw err;
  }
  if (opts.include) await printHead(ctx, res);
  if (!opts.silent) await printValue(ctx, res.body, { asJson: true });
}

/**
 * `-i`: the status line and the response headers, then a blank line, as `gh api -i`
 * and curl print them. Header text is the server's: neutralised, and any secret the run
 * holds scrubbed, as in every other text bo shows.
 */
async function printHead(ctx: Context, res: Pick<ApiResponse, 'status' | 'statusText' | 'httpVersion' | 'headers'>): Promise<void> {
  const clean = (text: string) => neutralise(ctx.secrets.scrub(text));
  const reason = res.statusText || STATUS_CODES[res.status] || '';
  let text = `HTTP/${res.httpVersion ?? '1.1'} ${res.status}${reason ? ` ${clean(reason)}` : ''}\n`;
  for (const [name, value] of Object.entries(res.headers)) text += `${clean(name)}: ${clean(value)}\n`;
  await writeOut(ctx.io.stdout, `${text}\n`, ctx.signal);
}
