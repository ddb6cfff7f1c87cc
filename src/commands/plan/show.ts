import { defineCommand } from '../../command.js';
import { readPlan } from '../../plan/store.js';
import { printValue } from '../../output/print.js';

export default defineCommand({
  path: ['plan', 'show'],
  summary: 'Show a plan: the command it runs and the request its dry run made',
  examples: [{ example: 'bo plan show 5f0c3a9e2b7d4e61a8c9f0b1d2e3f4a5', needs: 'a plan made by bo mcp --writes plan' }],
  operands: [{ name: '<planId>', help: 'the plan id (bo plan list)' }],
  run: async (ctx, [id]) => {
    await printValue(ctx, readPlan(ctx.io.env, id), { asJson: true });
  },
});
