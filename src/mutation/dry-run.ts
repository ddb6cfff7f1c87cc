// --dry-run: what would be sent — method, full URL (under --sandbox its path alone: the
// embedded sandbox has no address), body — printed in the output form asked for. No
// credential is read.

import type { Context } from '../context.js';
import type { Query } from '../api/http-types.js';
import type { MutationRequest } from './types.js';
import { jsonText, neutralise } from '../api/neutralise.js';
import { buildUrl, validateBaseUrl } from '../api/base-url.js';
import { redactHeader, redactJson } from '../api/redact.js';
import { UsageError } from '../errors.js';
import { EMBEDDED_SANDBOX, profileInEffect } from './confirm.js';
import { jsonStream } from '../output/json-stream.js';
import { outputMode, printRecord, say } from '../output/print.js';
import { writeOut } from '../output/sink.js';

export interface Planned {
  /** In a batch: the target, and the line of stdin it came from, as the batch's outcomes name them. */
  uid?: string;
  line?: number;
  method: string;
  /**
   * The full URL; on the embedded sandbox its path and query only (`/api/v1/…`): it
   * answers in this process and has no address a request could be sent to.
   */
  url: string;
  /** Headers added by hand (`bo api -H`), secret-named values redacted; absent when none. */
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * The base URL in effect, resolved without reading any credential, and where requests
 * go as messages name it: the embedded sandbox by name (it has no address of its own:
 * a new port every run), as confirmations say, else the base URL.
 */
export async function plannedUrls(ctx: Context): Promise<{ baseUrl: string; where: string; plan: (req: PlannedRequest) => Planned }> {
  const client = await ctx.api({ credential: null });
  const base = validateBaseUrl(client.baseUrl);
  return {
    baseUrl: client.baseUrl,
    where: ctx.globals.sandbox ? EMBEDDED_SANDBOX : client.baseUrl,
    plan: (req) => {
      const headers = Object.entries(req.headers ?? {}).map(([name, value]) => [name, redactHeader(name, value)]);
      const url = buildUrl(base, req.path, { query: req.query, noLog: !ctx.globals.log });
      return {
        method: req.method,
        url: ctx.globals.sandbox ? `${url.pathname}${url.search}` : url.href,
        ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
        body: req.body ?? null,
      };
    },
  };
}

type PlannedRequest = MutationRequest & { query?: Query; headers?: Record<string, string> };

/**
 * A mutation's request as its dry run shows it: secret-named body fields redacted (a
 * payment token is never printed). `bo plan apply` compares what it sends with what it
 * showed through this too.
 */
export function shownAs(plan: (req: PlannedRequest) => Planned, req: PlannedRequest): Planned {
  return plan(req.body === undefined ? req : { ...req, body: redactJson(req.body) });
}

/**
 * Plans in the output form asked for: with --json or --jsonl one plan as a record
 * (printRecord), several as a list (jsonStream); as text `METHOD URL` and the body.
 */
export function dryRunWriter(ctx: Context, single: boolean) {
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') {
    if (single) return { write: (p: Planned) => printRecord(ctx, p), end: async () => {} };
    const out = jsonStream(ctx, mode);
    return { write: (p: Planned) => out.write(p), end: () => out.end() };
  }
  const out = (text: string) => writeOut(ctx.io.stdout, text, ctx.signal);
  return {
    write(p: Planned): Promise<void> {
      if (!single) return out(`${p.method} ${p.url}${p.body === null ? '' : `\t${jsonText(p.body)}`}\n`);
      const headers = Object.entries(p.headers ?? {}).map(([name, value]) => `${name}: ${neutralise(value)}\n`);
      return out(`${p.method} ${p.url}\n${headers.join('')}${p.body === null ? '' : `${jsonText(p.body, 2)}\n`}`);
    },
    end: async () => {},
  };
}

/** `bo api --dry-run`: one request, printed as a mutation's dry run is. */
export async function printDryRun(ctx: Context, req: PlannedRequest, paginate: boolean): Promise<void> {
  if (paginate) throw new UsageError('--dry-run prints one request; it does not go with --paginate');
  const { profile } = await profileInEffect(ctx);
  const { where, plan } = await plannedUrls(ctx);
  await dryRunWriter(ctx, true).write(plan(req));
  say(ctx, `Dry run on profile "${profile}" (${where}): nothing was sent.`);
}
