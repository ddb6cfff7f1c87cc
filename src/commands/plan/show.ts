import { defineCommand } from '../../command.js';
import { planState, readPlan } from '../../plan/store.js';
import { printValue } from '../../output/print.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['plan', 'show'],
  summary: 'Show a plan: its state, the command it runs and the request its dry run made',
  description:
    'Show a plan as JSON: its state (pending; applied, with the time and the journal run; discarded, with the time; ' +
    'or expired, 24 hours after it was made), the command it runs and the request its dry run made.',
  examples: [{ example: 'bo plan show 5f0c3a9e2b7d4e61a8c9f0b1d2e3f4a5', needs: 'a plan made by bo mcp --writes plan' }],
  operands: [operand.text('<planId>', 'the plan id (bo plan list)')],
  run: async (ctx, [id]) => {
    const plan = readPlan(ctx.io.env, id);
    await printValue(ctx, { ...plan, state: planState(plan, ctx.clock.now()) }, { asJson: true });
  },
});
