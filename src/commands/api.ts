import { Option } from 'commander';
import { defineCommand } from '../command.js';
import { mutationFlags } from '../mutation/flags.js';

interface Opts {
  method?: string;
  field: string[];
  input?: string;
  paginate?: boolean;
  auth?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export default defineCommand<Opts>({
  path: ['api'],
  summary: 'Send a raw request under /api/v1 and print the JSON body',
  description:
    'Send a request to any endpoint under {base}/api/v1 and print the JSON answer, like `gh api`. ' +
    '-F key=value adds a field: a query parameter for GET and DELETE, a JSON body property otherwise. ' +
    'Values true, false, null and numbers are sent as JSON (a number a JSON double would round is refused); @file reads a file. The method defaults to ' +
    'GET, or POST when fields or --input are given. --paginate walks every page (the offset parameter counts ' +
    'pages of the size the server applied) and prints the items as one JSON array (or one per line with --jsonl). ' +
    'POST /crm/people/requestMagicLink and POST /public/email/lists/<uid>/subscriptions are sent without credentials, as if --no-auth. ' +
    'The path is sent as typed: one with an empty segment (// or a trailing /), a . or .. segment (also as %2e), ' +
    'an encoded / or \\, or a # is refused (exit 2), since it would reach another endpoint. ' +
    'On a protected profile every method but GET asks for confirmation, naming the profile and URL; ' +
    'without a terminal (or with --no-input) pass --yes. ' +
    '--dry-run prints the method, URL and body that would be sent (--json: {"method","url","body"}), sends nothing and never asks.',
  examples: [
    'bo api "/crm/accounts?q=acme&limit=10"',
    'bo api -X GET /crm/accounts -F q=acme -F limit=10',
    'bo api /email/lists -X POST -F Name=Partners -F RequiresDoubleOptIn=true',
    'bo api /billing/discountcoupons --paginate --jsonl',
    'echo \'{"Name":"Beta testers"}\' | bo api /email/lists --input -',
    'bo api /crm/people/requestMagicLink -X POST -F Email=a@example.com',
    'bo api -X DELETE /email/campaigns/drips/drip_llo22xbxil --dry-run',
    'bo -p production api -X DELETE /email/campaigns/drips/drip_lsdylrbgpp --yes',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<path>', 'path under /api/v1, e.g. /crm/accounts')
        // The choices feed help and completions; any case is accepted (raw-request.ts checks it).
        .addOption(new Option('-X, --method <method>', 'HTTP method, in any case').choices(['GET', 'POST', 'PUT', 'DELETE']).argParser((v) => v))
        .option('-F, --field <key=value>', 'a field (repeatable)', collect, [])
        .option('--input <file>', 'JSON body from a file, or - for stdin')
        .option('--paginate', 'walk every page of a list endpoint')
        .option('--no-auth', 'send no credentials (implied for the magic-link and public subscription endpoints)'),
      { batch: false },
    ),
  run: async (ctx, [rawPath], opts) => {
    const { buildApiRequest } = await import('../input/raw-request.js');
    const request = await buildApiRequest(ctx.io.stdin, rawPath as string, opts);
    if (opts.dryRun) {
      const { printDryRun } = await import('../mutation/dry-run.js');
      return printDryRun(ctx, request, Boolean(opts.paginate));
    }
    const client = await ctx.api(request.anonymous ? { anonymous: true } : undefined);
    if (request.method !== 'GET') {
      // A write through `bo api` confirms on a protected profile as every mutation does.
      const { confirmMutation, profileInEffect, whereOf } = await import('../mutation/confirm.js');
      const where = whereOf(ctx, await profileInEffect(ctx), client.baseUrl);
      await confirmMutation(ctx, `Send ${request.method} ${request.path}`, where, { destructive: false, yes: opts.yes === true, batch: false });
    }
    const { printList, printValue } = await import('../output/print.js');
    if (opts.paginate) {
      const { walkAll } = await import('../api/paginate.js');
      const query = Object.fromEntries([...request.query.keys()].map((k) => [k, request.query.getAll(k)]));
      // A `limit` the user gave is the page size of the walk; paginate owns limit/offset.
      const limit = Number(request.query.get('limit'));
      const pageSize = Number.isInteger(limit) && limit > 0 ? limit : undefined;
      const items = walkAll<unknown>(client, { path: request.path, query, pageSize, signal: ctx.signal });
      await printList(ctx, items, [{ header: 'JSON', get: (r) => JSON.stringify(r) }], { forceJson: !ctx.globals.jsonl });
      return;
    }
    const res = await client.request(request);
    await printValue(ctx, res.body, { asJson: true });
  },
});
