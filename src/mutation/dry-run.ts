// --dry-run: what would be sent — method, full URL (under --sandbox its path alone: the
// embedded sandbox has no address), body — printed in the output form asked for, for one
// target or each record of a batch (its pipeline, pipeline.ts, into a printing sink), with
// --diff each target's read. No credential is read but for --diff's reads.

import type { Context } from '../context.js';
import type { Query } from '../api/http-types.js';
import type { BoundMutation, MutationRequest, ResumeOrder } from './types.js';
import { BoError } from '../errors.js';
import { symbols } from '../output/symbols.js';
import { diffOf, diffText, type Diff } from './diff.js';
import { readingNotice, recordFeed, type InputRules } from './feed.js';
import { runPipeline } from './pipeline.js';
import type { Preparation } from './prepare.js';
import { recordKey } from './target.js';
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

/**
 * --dry-run: the request(s) the change would send, nothing sent. A batch's records go
 * through the batch's own pipeline (pipeline.ts), into a sink that prints each plan.
 */
export async function dryRunMutation<Prep>(
  ctx: Context,
  m: BoundMutation<Prep>,
  preparation: Preparation<Prep>,
  target: string | undefined,
  profile: string,
  input: InputRules & { diff: boolean },
  resume?: ResumeOrder,
): Promise<void> {
  const { def, args } = m;
  const planned = await plannedUrls(ctx);
  // Secret-named fields (a payment token) are shown redacted: never printed.
  const plan = (req: MutationRequest) => shownAs(planned.plan, req);
  const writer = dryRunWriter(ctx, target !== undefined);
  const place = `profile "${profile}" (${planned.where})`;
  if (target !== undefined) {
    const planned = plan(def.request(target, preparation.once as Prep, args));
    const read = input.diff ? await diffReader(ctx, m) : undefined;
    const diff = read && (await read(target, preparation.once as Prep, {}));
    if (diff) await diffWrite(ctx, writer, { uid: target }, diff, 'holds' in diff ? undefined : planned);
    else await writer.write(planned);
    say(ctx, `Dry run on ${place}: ${diff && 'holds' in diff ? 'its values already hold, so nothing would be sent' : 'nothing was sent'}.`);
    return;
  }
  readingNotice(ctx, recordKey(def.target));
  let count = 0;
  let holding = 0;
  const invalid: string[] = [];
  // Resumed: the input is checked as the run read it; what the journal knows is not planned again.
  let notAgain = 0;
  const feed = recordFeed(ctx, def, ctx.signal, input);
  const diffing = input.diff ? await diffReader(ctx, m) : undefined;
  try {
    await runPipeline(feed, preparation, resume && { order: resume, resend: def.resend }, {
      invalid: async (r) => {
        invalid.push(r.message);
        say(ctx, `invalid: ${r.message}`);
      },
      known: () => void notAgain++,
      take: async (rec) => {
        if (rec.step === 'hold') return (notAgain++, true);
        // Named as a batch's outcomes are: the Uid and the line it came from.
        const planned = { uid: rec.target, line: rec.line, ...plan(def.request(rec.target, rec.prep, args)) };
        const diff = diffing && (await diffing(rec.target, rec.prep, rec.context));
        if (diff && 'holds' in diff) {
          holding++;
          await diffWrite(ctx, writer, { uid: rec.target, line: rec.line }, diff);
          return true;
        }
        count++;
        if (diff) await diffWrite(ctx, writer, { uid: rec.target, line: rec.line }, diff, planned);
        else await writer.write(planned);
        return true;
      },
    });
  } finally {
    feed.close();
    await writer.end();
  }
  const skipped = [
    holding ? `${holding} already held (not sent)` : '',
    invalid.length ? `${invalid.length} invalid line(s) skipped` : '',
    notAgain ? `${notAgain} not sent again` : '',
  ].filter(Boolean);
  say(ctx, `Dry run on ${place}: ${count} request(s) would be sent${skipped.map((s) => `, ${s}`).join('')}; nothing was sent.`);
  if (invalid.length > 0) throw new UsageError(`${invalid.length} invalid line(s) on stdin; the first: ${invalid[0]}`);
}

/**
 * --diff in a dry run: each record's read (diff.ts), or undefined when the verb's targets
 * cannot be read at all, which is said once. A read that fails shows why.
 */
async function diffReader<Prep>(ctx: Context, m: BoundMutation<Prep>): Promise<((target: string, prep: Prep, context: Readonly<Record<string, unknown>>) => Promise<Diff>) | undefined> {
  if (!m.def.current) {
    say(ctx, `--diff: a ${m.def.target.noun} cannot be read before a change, so the requests are shown instead`);
    return undefined;
  }
  const client = await ctx.api({ signal: ctx.signal });
  return async (target, prep, context) => {
    try {
      return await diffOf(m, client, target, prep, context, ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted || !(err instanceof BoError)) throw err;
      return { unreadable: err.message };
    }
  };
}

/** One record's diff in a dry run: as text, `Field: old → new` lines (the request after a target that could not be read); as JSON, its plan with `changes`. */
async function diffWrite(ctx: Context, writer: ReturnType<typeof dryRunWriter>, rec: { uid: string; line?: number }, diff: Diff, planned?: Planned): Promise<void> {
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') {
    const changes = 'changes' in diff ? Object.fromEntries(diff.changes.map(([f, old, now]) => [f, { ...(typeof old === 'symbol' ? {} : { old: redactJson(old) }), new: redactJson(now) }])) : null;
    const row = { uid: rec.uid, ...(rec.line === undefined ? {} : { line: rec.line }), ...(planned ?? {}), ...('holds' in diff ? { reason: 'already-holds' } : {}), changes, ...('unreadable' in diff ? { unreadable: diff.unreadable } : {}) };
    return writer.write(row as unknown as Planned);
  }
  const arrow = symbols(ctx.io.env).arrow;
  await writeOut(ctx.io.stdout, diffText(rec.uid, rec.line, diff, arrow), ctx.signal);
  if ('unreadable' in diff && planned) await writer.write(planned);
}
