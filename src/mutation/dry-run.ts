// --dry-run: what would be sent — method, full URL (under --sandbox the embedded
// sandbox's), body — printed in the output form asked for. No credential is read.

import type { Context } from '../context.js';
import type { Query } from '../api/http-types.js';
import type { MutationRequest } from './types.js';
import { jsonText } from '../api/neutralise.js';
import { writeOut } from '../output/sink.js';

export interface Planned {
  method: string;
  url: string;
  body: unknown;
}

/** The base URL in effect, resolved without reading any credential. */
export async function plannedUrls(ctx: Context): Promise<{ baseUrl: string; plan: (req: MutationRequest & { query?: Query }) => Planned }> {
  const [{ buildUrl, validateBaseUrl }, client] = await Promise.all([
    import('../api/http.js'),
    ctx.api({ credential: null }),
  ]);
  const base = validateBaseUrl(client.baseUrl);
  return {
    baseUrl: client.baseUrl,
    plan: (req) => ({
      method: req.method,
      url: buildUrl(base, req.path, { query: req.query, noLog: !ctx.globals.log }).href,
      body: req.body ?? null,
    }),
  };
}

export function dryRunWriter(ctx: Context, single: boolean) {
  const { json, jsonl } = ctx.globals;
  let count = 0;
  const out = (text: string) => writeOut(ctx.io.stdout, text, ctx.signal);
  return {
    async write(p: Planned): Promise<void> {
      count++;
      if (jsonl) return out(`${jsonText(p)}\n`);
      if (json && single) return out(`${jsonText(p, 2)}\n`);
      if (json) return out(`${count === 1 ? '[\n' : ',\n'}${jsonText(p)}`);
      if (!single) return out(`${p.method} ${p.url}${p.body === null ? '' : `\t${jsonText(p.body)}`}\n`);
      return out(`${p.method} ${p.url}\n${p.body === null ? '' : `${jsonText(p.body, 2)}\n`}`);
    },
    async end(): Promise<void> {
      if (json && !single) await out(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

/** `bo api --dry-run`: one request, printed as a mutation's dry run is. */
export async function printDryRun(ctx: Context, req: MutationRequest & { query?: Query }, paginate: boolean): Promise<void> {
  const [{ UsageError }, { profileInEffect }, { say }] = await Promise.all([
    import('../output/errors.js'),
    import('./confirm.js'),
    import('../output/print.js'),
  ]);
  if (paginate) throw new UsageError('--dry-run prints one request; it does not go with --paginate');
  const { profile } = await profileInEffect(ctx);
  const { baseUrl, plan } = await plannedUrls(ctx);
  await dryRunWriter(ctx, true).write(plan(req));
  say(ctx, `Dry run on profile "${profile}" (${baseUrl}): nothing was sent.`);
}
