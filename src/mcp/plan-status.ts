// `plan_status`: the read tool offered with every `--writes plan` session, so an agent
// learns what became of the plans it made (D33's states). With a planId: that plan's
// state and, once applied, its time, the journal's run id and the outcome the journal
// recorded of its change. Without: the plans made through this profile in the last 24
// hours, newest first, each with the MCP client that made it (its clientInfo.name) and
// when. A plan of another profile is no plan of this session's: refused as unknown.

import type { CommandDefinition } from '../command.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { journalFolder, readRun } from '../journal/read.js';
import { listPlans, planState, PLAN_LIFETIME_MS, readPlan, type Plan } from '../plan/store.js';
import type { JsonSchema } from './schema.js';
import { toolName, type Tool } from './tools.js';

export const PLAN_STATUS_TOOL = 'plan_status';

const STATE = { type: 'string', enum: ['pending', 'applied', 'discarded', 'expired'] };
const PLAN_FIELDS: Record<string, JsonSchema> = {
  planId: { type: 'string' },
  state: { ...STATE, description: 'pending until a person applies or discards it; expired 24 hours after it was made' },
  tool: { type: 'string', description: 'the plan tool that made it' },
  target: { type: ['string', 'null'], description: 'what the change acts on, as its confirmation names it' },
  client: { type: ['string', 'null'], description: 'the MCP client that made it (its clientInfo.name)' },
  created: { type: 'string', description: 'when it was made' },
  expires: { type: 'string', description: 'it cannot be applied after this time' },
  at: { type: ['string', 'null'], description: 'when it was applied or discarded' },
  runId: { type: ['string', 'null'], description: 'the journal run of its apply (bo history show <runId>)' },
};
const OUTCOME: JsonSchema = {
  type: ['object', 'null'],
  description: 'once applied: what the journal recorded of the change it sent (null when not recorded)',
  properties: {
    outcome: { type: 'string', enum: ['done', 'failed', 'unknown'] },
    changed: { type: ['boolean', 'null'], description: 'whether the answer showed a change; null when not known' },
    reason: { type: ['string', 'null'] },
    status: { type: ['integer', 'null'], description: 'the HTTP status of the answer' },
  },
};
const OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    ...PLAN_FIELDS,
    outcome: OUTCOME,
    items: { type: 'array', items: { type: 'object', properties: PLAN_FIELDS }, description: 'without planId: the plans made through this profile in the last 24 hours, newest first' },
  },
};

/** The tool (its verb is `bo plan show`'s, which says the same of a plan to a person). */
export function planStatusTool(defs: readonly CommandDefinition<any, any>[]): Tool | undefined {
  const def = defs.find((d) => d.path.join(' ') === 'plan show');
  if (!def) return undefined;
  return {
    name: PLAN_STATUS_TOOL,
    toolset: 'plan',
    kind: 'status',
    def,
    params: [],
    listing: {
      name: PLAN_STATUS_TOOL,
      description:
        'The state of a plan this session\'s tools made (pending, applied, discarded or expired) and, once applied, when, its run id and outcome; ' +
        'without planId, the plans made through this profile in the last 24 hours',
      inputSchema: {
        type: 'object',
        properties: { planId: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'the planId a plan tool returned' } },
        additionalProperties: false,
      },
      outputSchema: OUTPUT,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
  };
}

/** A plan as the tool tells it. */
function planFields(plan: Plan, now: Date): Record<string, unknown> {
  return {
    planId: plan.id,
    state: planState(plan, now),
    tool: toolName(plan.invocation.path),
    target: plan.target ?? null,
    client: plan.client ?? null,
    created: plan.created,
    expires: new Date(Date.parse(plan.created) + PLAN_LIFETIME_MS).toISOString(),
    at: plan.at ?? null,
    runId: plan.runId ?? null,
  };
}

/** What the journal recorded of an applied plan's change: null when its run is gone or holds none. */
function outcomeOf(ctx: Context, runId: string | undefined): Record<string, unknown> | null {
  const folder = journalFolder(ctx.io.env);
  if (!runId || !folder) return null;
  try {
    const change = readRun(folder, runId)?.changes[0];
    return change ? { outcome: change.outcome, changed: change.changed, reason: change.reason, status: change.status } : null;
  } catch {
    // A run file bo cannot read: the outcome is not known.
    return null;
  }
}

/** A call of plan_status in the session of `ctx` (its profile). */
export async function planStatus(ctx: Context, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { name: profile } = await ctx.profile();
  const now = ctx.clock.now();
  if (typeof args.planId === 'string') {
    const unknown = () => new UsageError(`no plan ${args.planId} for profile "${profile}"; plan_status without planId lists them`);
    let plan: Plan;
    try {
      plan = readPlan(ctx.io.env, args.planId);
    } catch (err) {
      if (err instanceof UsageError && err.message.startsWith('no plan ')) throw unknown();
      throw err;
    }
    if (plan.profile !== profile) throw unknown();
    const fields = planFields(plan, now);
    return { ...fields, outcome: fields.state === 'applied' ? outcomeOf(ctx, plan.runId) : null };
  }
  const since = now.getTime() - PLAN_LIFETIME_MS;
  const items = listPlans(ctx.io.env)
    .filter((plan) => plan.profile === profile && Date.parse(plan.created) >= since)
    .reverse()
    .map((plan) => planFields(plan, now));
  return { items };
}
