// `bo plan apply <id>`: a person applies a change an agent prepared with `bo mcp
// --writes plan`. Refused (exit 2, nothing sent) when older than 24 hours, made for
// another profile, or for another origin (a plan of the embedded sandbox is applied with
// `bo --sandbox` only, and only such a plan is). The plan file is not trusted: its
// command line is made into a plan again under the plan tool's rules (mcp/call.ts
// planOf) — a dry run, nothing sent — and that fresh request must be the file's, and
// what it acts on as the plan named it. The fresh request is shown, asked about on a
// terminal (--yes without one), then sent by the verb's own runner with --yes (this was
// its confirmation), through a client that sends that request and nothing else; the
// plan is then recorded as applied, with its time and the journal's run id (D33).

import { isDeepStrictEqual } from 'node:util';
import { PassThrough, Readable } from 'node:stream';
import type { CommandDefinition } from '../../command.js';
import { defineCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { DeclinedError, UsageError } from '../../errors.js';
import { jsonText, neutralise } from '../../api/neutralise.js';
import { EMBEDDED_SANDBOX } from '../../mutation/confirm.js';
import { plannedUrls, shownAs } from '../../mutation/dry-run.js';
import { planOfInvocation, planOrigin } from '../../mcp/call.js';
import { checkedClient, planSession } from '../../mcp/run.js';
import { readPlan, refuseUnlessPending, settlePlan, type Plan } from '../../plan/store.js';
import { replay } from '../../invocation.js';
import { operand, option } from '../../input/declare.js';

type Fresh = Awaited<ReturnType<typeof planOfInvocation>>;

/** A request as one line: `METHOD URL {body}`. */
function requestText(request: Record<string, unknown>): string {
  const { method, url, body } = request;
  return neutralise(`${String(method)} ${String(url)}${body === undefined || body === null ? '' : ` ${jsonText(body)}`}`);
}

/** What the person is shown: the plan's id, time and profile, and the request derived afresh, with what it acts on now. */
export function planText(plan: Plan, fresh: Fresh): string {
  const { method, url, body } = fresh.request;
  const lines = [`Plan ${plan.id}, made ${plan.created} for profile "${plan.profile}":`];
  if (fresh.target) lines.push(`  on ${fresh.target}`);
  lines.push(`  ${String(method)} ${String(url)}`);
  if (body !== undefined && body !== null) lines.push(`  ${JSON.stringify(body)}`);
  return lines.map((line) => neutralise(line)).join('\n');
}

/** Where the plan may go: the profile it was made for, and its origin (the embedded sandbox only under --sandbox). */
export async function checkWhere(ctx: Context, plan: Plan): Promise<void> {
  const made = plan.origin === EMBEDDED_SANDBOX;
  if (made && !ctx.globals.sandbox) throw new UsageError(`plan ${plan.id} was made on the embedded sandbox: apply it with bo --sandbox plan apply ${plan.id}`);
  if (!made && ctx.globals.sandbox) throw new UsageError(`plan ${plan.id} was made for ${plan.origin}, not the embedded sandbox: apply it without --sandbox`);
  const { name } = await ctx.profile();
  if (name !== plan.profile) {
    throw new UsageError(`plan ${plan.id} was made for profile "${plan.profile}", not "${name}"`, { hint: `pass -p ${plan.profile}: bo -p ${plan.profile} plan apply ${plan.id}` });
  }
  const origin = planOrigin(ctx, (await ctx.api({ credential: null })).baseUrl);
  if (origin !== plan.origin) throw new UsageError(`plan ${plan.id} was made for ${plan.origin}; profile "${name}" now goes to ${origin}`);
}

/**
 * The plan file's invocation made into a plan again, as the plan tool makes one; refused by
 * name when the plan tool would refuse it, when its request is not the file's, or when
 * what it acts on is no longer what the plan named.
 */
export async function derive(ctx: Context, plan: Plan, defs: CommandDefinition<any>[]): Promise<Fresh> {
  // The dry run's own notes ("Dry run on …: nothing was sent") are not for the person applying.
  const quiet: Context = { ...ctx, io: { ...ctx.io, stderr: new PassThrough().resume() } };
  let fresh: Fresh;
  try {
    fresh = await planOfInvocation(planSession(quiet, defs), plan.invocation, ctx.signal);
  } catch (err) {
    if (err instanceof UsageError) {
      throw new UsageError(`plan ${plan.id} is refused: ${err.message.replace(/^error: /, '')}`, { hint: 'ask the agent to make the plan again' });
    }
    throw err;
  }
  if (!isDeepStrictEqual(fresh.request, plan.request)) {
    throw new UsageError(
      `plan ${plan.id} is refused: the plan file's request is not what its command sends: the file says ${requestText(plan.request)}; its command sends ${requestText(fresh.request)}`,
      { hint: 'the plan file was changed since it was made: ask the agent to make the plan again' },
    );
  }
  if (plan.target !== undefined && fresh.target !== plan.target) {
    const now = fresh.target === undefined ? 'can no longer be read' : `is now ${JSON.stringify(fresh.target)}`;
    throw new UsageError(`plan ${plan.id} is refused: the ${fresh.noun ?? 'target'} ${now}; the plan was made when it was ${JSON.stringify(plan.target)}`, {
      hint: 'ask the agent to make the plan again',
    });
  }
  return fresh;
}

/**
 * `ctx` for sending the plan: no stdin, and a client that sends the request shown — as a
 * dry run shows it: method, URL, body — once, and refuses anything else (nothing sent).
 */
async function sendingOnly(ctx: Context, plan: Plan, shown: Record<string, unknown>): Promise<Context> {
  const planned = await plannedUrls(ctx);
  let sent = false;
  const io = { ...ctx.io, stdin: Readable.from([]), stdinIsTTY: false };
  return {
    ...ctx,
    io,
    api: async (options) =>
      checkedClient(await ctx.api(options), (request) => {
        const asShown: unknown = JSON.parse(JSON.stringify(shownAs(planned.plan, request)));
        if (sent || !isDeepStrictEqual(asShown, shown)) {
          throw new UsageError(`plan ${plan.id}: bo was about to send ${requestText(asShown as Record<string, unknown>)}, which is not the request shown; it was not sent`);
        }
        sent = true;
        return request;
      }),
  };
}

/** Sends the plan as derived (`derive`), exactly its request, and records it as applied with its time and journal run (D33). */
export async function sendPlan(ctx: Context, plan: Plan, fresh: Fresh): Promise<void> {
  let runId: string | undefined;
  const sending = { ...(await sendingOnly(ctx, plan, fresh.request)), journalOpened: (run: string) => (runId = run) };
  await replay(sending, fresh.invocation, { yes: true });
  settlePlan(ctx.io.env, plan, 'applied', ctx.clock.now(), runId);
}

/** `bo plan apply`: the verb a plan names is found in the command tree, which the context hands over. */
const planApplyCommand =
  defineCommand({
    path: ['plan', 'apply'],
    summary: 'Apply a plan an agent prepared, after showing it (asks on a terminal)',
    description:
      'Make a plan of bo mcp --writes plan again from its command, as the agent\'s tool made it (a dry run: nothing sent), show that request, ' +
      'ask on a terminal (without one, pass --yes), and send exactly it. Refused with exit 2 and nothing sent: a plan older than 24 hours, ' +
      'made for another profile or origin, an edited plan file (its request is not what its command sends), or one whose target changed since ' +
      '(ask the agent to make it again), or a plan already applied or discarded (it says which). A plan made for a profile is applied with that ' +
      'profile (bo -p <profile> plan apply); one made on the embedded sandbox with bo --sandbox plan apply. An applied plan is recorded as applied, ' +
      'with its time and journal run, for 7 days; answered no, it stays pending.',
    examples: [{ example: 'bo plan apply 5f0c3a9e2b7d4e61a8c9f0b1d2e3f4a5', needs: 'a plan made by bo mcp --writes plan' }],
    operands: [operand.text('<planId>', 'the plan id (bo plan list)')],
    options: [option.switch('--yes', 'apply without asking (needed without a terminal)')] as const,
    run: async (ctx, [id], opts) => {
      const plan = readPlan(ctx.io.env, id);
      // Applied, discarded or expired: refused, saying which (D33). Answered "n", it stays pending.
      refuseUnlessPending(plan, ctx.clock.now(), 'applied');
      await checkWhere(ctx, plan);
      const fresh = await derive(ctx, plan, await ctx.definitions());
      ctx.io.stderr.write(`${planText(plan, fresh)}\n`);
      if (!opts.yes) {
        if (!ctx.globals.input) throw new UsageError(`applying plan ${plan.id} needs confirmation; pass --yes`);
        const where = ctx.globals.sandbox ? EMBEDDED_SANDBOX : plan.origin;
        const ok = await (await ctx.prompter()).confirm(`Apply this plan on profile "${plan.profile}" (${where})?`, { default: false });
        if (!ok) throw new DeclinedError();
      }
      await sendPlan(ctx, plan, fresh);
    },
  });
export default planApplyCommand;
