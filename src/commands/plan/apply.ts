// `bo plan apply <id>`: a person applies a change an agent prepared with `bo mcp
// --writes plan`. The plan is shown, asked about on a terminal (--yes without one),
// refused (exit 2) when older than 24 hours or when its profile now goes to another
// origin, then run as its command line: parsed and validated again by the verb, sent
// by the verb's own runner, with --yes for the verb's confirmation (this was it).

import type { CommandDefinition } from '../../command.js';
import { defineCommand } from '../../command.js';
import { DeclinedError, UsageError } from '../../errors.js';
import { neutralise } from '../../api/neutralise.js';
import { PLAN_LIFETIME_MS, readPlan, removePlan, type Plan } from '../../plan/store.js';
import { runArgv } from '../../run-verb.js';

function planText(plan: Plan): string {
  const { method, url, body } = plan.request;
  const lines = [`Plan ${plan.id}, made ${plan.created} for profile "${plan.profile}":`];
  if (plan.target) lines.push(`  on ${plan.target}`);
  lines.push(`  ${String(method)} ${String(url)}`);
  if (body !== undefined) lines.push(`  ${JSON.stringify(body)}`);
  return lines.map((line) => neutralise(line)).join('\n');
}

/** `bo plan apply` over `definitions()`: the verb a plan names is found in the command tree. */
export const planApplyCommand = (definitions: () => Promise<CommandDefinition<any>[]>) =>
  defineCommand({
    path: ['plan', 'apply'],
    summary: 'Apply a plan an agent prepared, after showing it (asks on a terminal)',
    description:
      'Show a plan made by bo mcp --writes plan, ask on a terminal (without one, pass --yes), then check it again as the command would and send it. ' +
      'A plan older than 24 hours, or whose profile now points at another origin, is refused (exit 2). An applied plan is removed.',
    examples: [{ example: 'bo plan apply 5f0c3a9e2b7d4e61a8c9f0b1d2e3f4a5', needs: 'a plan made by bo mcp --writes plan' }],
    operands: [{ name: '<planId>', help: 'the plan id (bo plan list)' }],
    configure: (cmd) => cmd.option('--yes', 'apply without asking (needed without a terminal)'),
    run: async (ctx, [id], opts: { yes?: boolean }) => {
      const plan = readPlan(ctx.io.env, id);
      const age = ctx.clock.now().getTime() - Date.parse(plan.created);
      if (!(age >= 0 && age <= PLAN_LIFETIME_MS)) throw new UsageError(`plan ${plan.id} has expired (made ${plan.created}; plans last 24 hours)`);
      const { name } = await ctx.profile();
      if (name !== plan.profile) throw new UsageError(`plan ${plan.id} was made for profile "${plan.profile}", not "${name}"`);
      const origin = new URL((await ctx.api()).baseUrl).origin;
      if (origin !== plan.origin) throw new UsageError(`plan ${plan.id} was made for ${plan.origin}; profile "${name}" now goes to ${origin}`);
      const def = (await definitions()).find((d) => d.mutation !== undefined && d.mutation.secrets.length === 0 && d.path.every((w, i) => plan.argv[i] === w));
      if (!def) throw new UsageError(`plan ${plan.id} names no command bo can apply`);
      ctx.io.stderr.write(`${planText(plan)}\n`);
      if (!opts.yes) {
        if (!ctx.globals.input) throw new UsageError(`applying plan ${plan.id} needs confirmation; pass --yes`);
        const ok = await (await ctx.prompter()).confirm(`Apply this plan on profile "${name}" (${origin})?`, { default: false });
        if (!ok) throw new DeclinedError();
      }
      const end = plan.argv.indexOf('--');
      await runArgv(ctx, def, [...plan.argv.slice(0, end), '--yes', ...plan.argv.slice(end)]);
      removePlan(ctx.io.env, plan.id);
    },
  });
