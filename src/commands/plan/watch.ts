// `bo plan watch`: a person's plan inbox. It waits on the terminal and offers each plan
// an agent makes (bo mcp --writes plan) for this profile and origin, one at a time,
// oldest first, showing exactly what `bo plan apply` shows (the plan made again from its
// command: commands/plan/apply.ts) and asking: skip (the default), apply or discard.
// Applying sends as `bo plan apply` sends and records the plan as applied; discarding
// records it as discarded (D33); a skipped plan stays pending and is not offered again
// by this watch. There is no --yes: every plan is answered by the person. Without a
// terminal it refuses to start (exit 2). Ctrl-C ends it.

import { defineCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { BoError, InterruptedError, UsageError } from '../../errors.js';
import { neutralise } from '../../api/neutralise.js';
import { planOrigin } from '../../mcp/call.js';
import { say, warn } from '../../output/print.js';
import { listPlans, planState, readPlan, settlePlan, type Plan } from '../../plan/store.js';
import { derive, planText, sendPlan } from './apply.js';

/** More pending plans than this are announced as a count before the first is offered. */
export const ANNOUNCE_OVER = 10;
/** How often the plans folder is read while waiting. */
const POLL_MS = 1000;

type Answer = 'skip' | 'apply' | 'discard';

/** A failure with one plan is told and the watch goes on; Ctrl-C ends it. */
function tell(ctx: Context, err: unknown): void {
  if (err instanceof InterruptedError || !(err instanceof BoError)) throw err;
  say(ctx, `error: ${neutralise(ctx.secrets.scrub(err.message))}`);
  if (err.hint) say(ctx, `hint: ${neutralise(ctx.secrets.scrub(err.hint))}`);
}

/** One plan offered: shown as bo plan apply shows it, then asked about. */
async function offer(ctx: Context, id: string, where: string): Promise<void> {
  let plan: Plan;
  try {
    plan = readPlan(ctx.io.env, id);
    // Applied or discarded elsewhere (another terminal) since it was listed: not offered.
    if (planState(plan, ctx.clock.now()) !== 'pending') return;
    const fresh = await derive(ctx, plan, await ctx.definitions());
    say(ctx, '');
    say(ctx, planText(plan, fresh));
    const answer = await (await ctx.prompter()).select<Answer>(`Apply this plan on profile "${plan.profile}" (${where})?`, [
      { name: 'Skip', value: 'skip', description: 'leave it pending (bo plan apply can apply it later)' },
      { name: 'Apply', value: 'apply', description: 'send it now' },
      { name: 'Discard', value: 'discard', description: 'it can no longer be applied' },
    ]);
    if (answer === 'apply') {
      await sendPlan(ctx, plan, fresh);
      say(ctx, `Applied plan ${plan.id}.`);
    } else if (answer === 'discard') {
      settlePlan(ctx.io.env, plan, 'discarded', ctx.clock.now());
      say(ctx, `Discarded plan ${plan.id}.`);
    } else {
      say(ctx, `Skipped plan ${plan.id}: it stays pending.`);
    }
  } catch (err) {
    tell(ctx, err);
  }
}

export default defineCommand({
  path: ['plan', 'watch'],
  summary: 'Wait for the plans an agent makes and offer each on the terminal: apply, discard or skip',
  description:
    'Wait on the terminal for the plans an agent makes with bo mcp --writes plan for this profile and origin, and offer each, ' +
    'one at a time, oldest first: shown exactly as bo plan apply shows it, then apply, discard or skip (the default: it stays pending ' +
    'and is not offered again by this watch). More than 10 pending plans are announced as a count first. There is no --yes: ' +
    'each plan is answered by you. It needs a terminal (exit 2 without one: use bo plan list and bo plan apply). Ctrl-C ends it.',
  examples: [{ example: ['bo plan watch', 'offer each plan of the default profile as it comes'], needs: 'a terminal' }],
  run: async (ctx) => {
    if (!ctx.globals.input || !ctx.io.stderrIsTTY) {
      throw new UsageError('bo plan watch needs a terminal: it asks about each plan', { hint: 'without one, bo plan list shows the plans and bo plan apply <id> --yes applies one' });
    }
    const { name: profile } = await ctx.profile();
    const origin = planOrigin(ctx, (await ctx.api({ credential: null })).baseUrl);
    say(ctx, `Watching for plans of profile "${profile}" (${origin}); Ctrl-C stops.`);
    const offered = new Set<string>();
    const warned = new Set<string>();
    let first = true;
    for (;;) {
      const now = ctx.clock.now();
      const waiting = listPlans(ctx.io.env, (text) => {
        if (!warned.has(text)) warn(ctx, text);
        warned.add(text);
      }).filter((plan) => !offered.has(plan.id) && plan.profile === profile && plan.origin === origin && planState(plan, now) === 'pending');
      if (first && waiting.length > ANNOUNCE_OVER) say(ctx, `${waiting.length} plans are pending: each is offered in turn, oldest first.`);
      first = false;
      for (const plan of waiting) {
        offered.add(plan.id);
        await offer(ctx, plan.id, origin);
      }
      if (waiting.length > 0) say(ctx, 'Waiting for plans…');
      await ctx.clock.sleep(POLL_MS, ctx.signal);
    }
  },
});
