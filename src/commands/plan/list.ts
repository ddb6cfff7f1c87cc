import { defineCommand } from '../../command.js';
import { describeTarget, planAge, planClient } from '../../plan/describe.js';
import { listPlans, planState, type Plan, type PlanState } from '../../plan/store.js';
import { printList, warn, type Column } from '../../output/print.js';
import { listOf } from '../../api/record-source.js';
import { option } from '../../input/declare.js';

/** A plan as listed: its state now (D33) with it. */
type Listed = Omit<Plan, 'state'> & { state: PlanState; age: string };

const columns: Column<Listed>[] = [
  { header: 'Id', get: (p) => p.id },
  { header: 'Created', get: (p) => p.created, kind: 'date' },
  { header: 'Age', get: (p) => p.age },
  { header: 'State', get: (p) => p.state },
  { header: 'Profile', get: (p) => p.profile },
  { header: 'Client', get: (p) => planClient(p) },
  // What it changes: its Uid and what a confirmation names (plan/describe.ts), else its verb.
  { header: 'Target', get: (p) => describeTarget(p) },
  { header: 'Method', get: (p) => p.request.method },
  { header: 'URL', get: (p) => p.request.url },
];

export default defineCommand({
  printsRecords: true,
  path: ['plan', 'list'],
  summary: 'List the pending plans an agent prepared (bo mcp --writes plan), oldest first',
  description:
    'List the plans waiting for a person: pending, made less than 24 hours ago, each with what it changes (the Uid and what a ' +
    'confirmation names), its age and the MCP client that made it. --all lists also the plans applied, ' +
    'discarded or expired in the last 7 days, with their state.',
  examples: ['bo plan list', 'bo plan list --all', 'bo plan list --json'],
  options: [option.switch('--all', 'also the plans applied, discarded or expired in the last 7 days')] as const,
  run: async (ctx, _operands, opts) => {
    const now = ctx.clock.now();
    const plans = listPlans(ctx.io.env, (text) => warn(ctx, text))
      .map((plan): Listed => ({ ...plan, state: planState(plan, now), age: planAge(plan, now) }))
      .filter((plan) => opts.all || plan.state === 'pending');
    await printList(ctx, listOf(plans), columns);
  },
});
