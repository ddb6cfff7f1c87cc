// A plan as a person scanning a list reads it (`bo plan list`, `bo plan watch`): what it
// changes — the Uid it acts on with what its confirmation named (`acc_… (Acme Inc, 2
// Trialing)`), else its verb —, how long ago it was made, and the client that made it.

import { neutralise } from '../api/neutralise.js';
import { duration } from '../output/progress.js';
import type { Plan } from './store.js';

/** The Uid the plan acts on: the first of its values named `…Uid` (the verb's operand), if any. */
function targetUid(plan: Pick<Plan, 'invocation'>): string | undefined {
  const found = Object.entries(plan.invocation.values).find(([key, value]) => /Uid$/.test(key) && typeof value === 'string');
  return found?.[1] as string | undefined;
}

/** `acc_… (Acme Inc, 2 Trialing)`; the Uid or the name alone when only one is known; else the verb (`lists create`). */
export function describeTarget(plan: Pick<Plan, 'invocation' | 'target'>): string {
  const uid = targetUid(plan);
  const text = uid !== undefined && plan.target !== undefined ? `${uid} (${plan.target})` : (uid ?? plan.target ?? plan.invocation.path.join(' '));
  return neutralise(text);
}

/** How long ago it was made: `42s`, `5m02s`, `3h10m`; `0s` for a time ahead of `now`. */
export function planAge(plan: Pick<Plan, 'created'>, now: Date): string {
  return duration((now.getTime() - Date.parse(plan.created)) / 1000);
}

/** The client that made it, as it named itself; `` when it gave no name (a plan made before names were kept). */
export function planClient(plan: Pick<Plan, 'client'>): string {
  return plan.client === undefined ? '' : neutralise(plan.client);
}
