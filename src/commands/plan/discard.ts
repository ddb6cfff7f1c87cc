// `bo plan discard <id>` (or `all`): a person turns down a plan an agent prepared, so no
// later `bo plan apply --yes` can apply it. The plan is recorded as discarded, without
// its request's body, for 7 days (D33); a plan not pending is refused, saying its state.

import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { say } from '../../output/print.js';
import { listPlans, planState, readPlan, refuseUnlessPending, settlePlan } from '../../plan/store.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['plan', 'discard'],
  summary: 'Discard a plan an agent prepared, so it can no longer be applied',
  description:
    'Record a pending plan as discarded: bo plan apply refuses it from then on. all discards every pending plan. ' +
    'A plan already applied, discarded or expired is refused with exit 2, saying which. The record (without the ' +
    'request\'s body) is kept for 7 days, then removed with the journal\'s retention.',
  examples: [{ example: 'bo plan discard 5f0c3a9e2b7d4e61a8c9f0b1d2e3f4a5', needs: 'a plan made by bo mcp --writes plan' }, 'bo plan discard all'],
  operands: [operand.text('<planId>', 'the plan id (bo plan list), or all for every pending plan')],
  run: async (ctx, [id]) => {
    const now = ctx.clock.now();
    if (id === 'all') {
      const pending = listPlans(ctx.io.env, (text) => say(ctx, `warning: ${text}`)).filter((plan) => planState(plan, now) === 'pending');
      for (const plan of pending) settlePlan(ctx.io.env, plan, 'discarded', now);
      say(ctx, `Discarded ${pending.length} plan(s).`);
      return;
    }
    if (id === undefined) throw new UsageError('<planId> is missing');
    const plan = readPlan(ctx.io.env, id);
    refuseUnlessPending(plan, now, 'discarded');
    settlePlan(ctx.io.env, plan, 'discarded', now);
    say(ctx, `Discarded plan ${plan.id}.`);
  },
});
