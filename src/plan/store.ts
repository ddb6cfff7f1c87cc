// Plans: a change an agent prepared with `bo mcp --writes plan`, kept until a person
// applies it with `bo plan apply <id>`. One file per plan in <state folder>/plans/,
// 0600 in a 0700 folder, written atomically. A plan holds the command line that makes
// the change (made into a plan again when applied, and the dry run must be the same:
// commands/plan/apply.ts), the dry run the agent saw, the profile and
// origin it was made for, and when; never a secret (verbs with secret fields have no
// plan tool).

import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../api/json-parse.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { readStateFile, StateFolderError, statePart } from '../files/state.js';
import { RUN_ID } from '../journal/journal.js';

/** A plan is applied within this long of being made, never later. */
export const PLAN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The record of an applied, discarded or expired plan is kept this long, then removed with the journal's retention (D33). */
export const PLAN_RECORD_MS = 7 * 24 * 60 * 60 * 1000;

/** A client's name is kept to this many characters. */
export const MAX_CLIENT_NAME = 100;

/** What a plan file says of its state (D33); `expired` is not written: a pending plan is expired 24 h after it was made. */
export type StoredState = 'pending' | 'applied' | 'discarded';
export type PlanState = StoredState | 'expired';
const STORED_STATES: readonly string[] = ['pending', 'applied', 'discarded'];

export interface Plan {
  id: string;
  /** ISO time it was made. */
  created: string;
  profile: string;
  /** Where its requests go: the dry run's URL's origin, or `the embedded sandbox` (mcp/call.ts planOrigin). */
  origin: string;
  /** The invocation the plan stands for (invocation.ts): the verb's path, its plan tool's parameters by name. */
  invocation: { path: string[]; values: Record<string, string | number | boolean | string[]> };
  /** The dry run: method, url, body. */
  request: Record<string, unknown>;
  /** What the change acts on as its confirmation names it (`Acme Inc, 2 Trial`), neutralised; absent when unknown. */
  target?: string;
  /** The MCP client that made it (its initialize's clientInfo.name, neutralised); absent when it gave none. */
  client?: string;
  /** Pending until applied or discarded (a file without it, made before states, is pending). */
  state?: StoredState;
  /** ISO time it was applied or discarded. */
  at?: string;
  /** The journal's run of the apply (`bo history show <runId>`), when the change was journaled. */
  runId?: string;
}

/** A plan's state now: a pending plan 24 hours old is expired. */
export function planState(plan: Plan, now: Date): PlanState {
  const state = plan.state ?? 'pending';
  if (state !== 'pending') return state;
  const age = now.getTime() - Date.parse(plan.created);
  return age >= 0 && age <= PLAN_LIFETIME_MS ? 'pending' : 'expired';
}

/** The state as a person reads it: `was applied at … (run …)`, `was discarded at …`, `has expired (made …; plans last 24 hours)`. */
function stateText(plan: Plan, now: Date): string {
  const state = planState(plan, now);
  if (state === 'applied') return `was applied at ${plan.at}${plan.runId ? ` (run ${plan.runId})` : ''}`;
  if (state === 'discarded') return `was discarded at ${plan.at}`;
  if (state === 'expired') return `has expired (made ${plan.created}; plans last 24 hours)`;
  return 'is pending';
}

/** A plan that is not pending refused, saying its state (exit 2, D33). */
export function refuseUnlessPending(plan: Plan, now: Date, doing: 'applied' | 'discarded'): void {
  const state = planState(plan, now);
  if (state === 'pending') return;
  const hint = state === 'applied' && plan.runId ? `bo history show ${plan.runId} shows what it did` : state === 'expired' ? 'ask the agent to make the plan again' : undefined;
  throw new UsageError(`plan ${plan.id} ${stateText(plan, now)}: it cannot be ${doing}`, hint ? { hint } : {});
}

/** 128 random bits, as 32 hex digits. */
const PLAN_ID = /^[0-9a-f]{32}$/;

/** <state folder>/plans, made if missing; refused (exit 2) when it fails the state folder's rule (D34). */
function plansDir(env: Record<string, string | undefined>): string {
  const dir = statePart(env, 'plans');
  if (!dir) throw new UsageError('no state folder for plans: set BO_STATE_DIR (or XDG_STATE_HOME, or HOME)');
  return dir;
}

export function savePlan(env: Record<string, string | undefined>, plan: Omit<Plan, 'id'>): Plan {
  const saved: Plan = { id: randomBytes(16).toString('hex'), ...plan, state: 'pending' };
  writeFileAtomic(join(plansDir(env), `${saved.id}.json`), `${JSON.stringify(saved, null, 2)}\n`);
  return saved;
}

export function readPlan(env: Record<string, string | undefined>, id: string): Plan {
  if (!PLAN_ID.test(id)) throw new UsageError(`<planId> must be 32 hex digits, not ${JSON.stringify(id)}`);
  const text = readStateFile(join(plansDir(env), `${id}.json`), 'the plan file');
  if (text === undefined) throw new UsageError(`no plan ${id}: bo plan list shows the plans`);
  return checkPlan(id, text);
}

/**
 * A plan file's text as a Plan, each field of its type, or a UsageError naming the field
 * (the file may have been edited): never a plan bo half understands.
 */
export function checkPlan(id: string, text: string): Plan {
  const refuse = (what: string) => new UsageError(`plan ${id} is not a plan bo can read: ${what}`, { hint: 'ask the agent to make the plan again' });
  let value: unknown;
  try {
    // A plan's bodies hold record keys (SchemaLessData's): read as a server's text is.
    value = parseJson(text);
  } catch {
    throw refuse('its file is not JSON');
  }
  if (!isObject(value)) throw refuse('its file holds no JSON object');
  for (const key of ['id', 'created', 'profile', 'origin'] as const) {
    if (typeof value[key] !== 'string') throw refuse(`"${key}" is not a string`);
  }
  if (value.id !== id) throw refuse('"id" is not its file\'s name');
  if (Number.isNaN(Date.parse(value.created as string))) throw refuse('"created" is not a time');
  // A plan made before plans stored an invocation holds a command line instead.
  if (value.invocation === undefined && value.argv !== undefined) {
    throw new UsageError(`plan ${id} was made by an older bo: ask the agent to make it again`);
  }
  if (!isInvocation(value.invocation)) throw refuse('"invocation" is not a verb\'s path and values');
  const { request } = value;
  if (!isObject(request)) throw refuse('"request" is not an object');
  if (typeof request.method !== 'string' || typeof request.url !== 'string') throw refuse('"request" has no method and url strings');
  if (value.target !== undefined && typeof value.target !== 'string') throw refuse('"target" is not a string');
  if (value.client !== undefined && (typeof value.client !== 'string' || value.client.length > MAX_CLIENT_NAME)) throw refuse(`"client" is not a string of at most ${MAX_CLIENT_NAME} characters`);
  const { state } = value;
  if (state !== undefined && !(typeof state === 'string' && STORED_STATES.includes(state))) throw refuse('"state" is not pending, applied or discarded');
  if (value.at !== undefined && (typeof value.at !== 'string' || Number.isNaN(Date.parse(value.at)))) throw refuse('"at" is not a time');
  if ((state === 'applied' || state === 'discarded') && value.at === undefined) throw refuse(`"at" is missing for a plan ${state}`);
  if (value.runId !== undefined && (typeof value.runId !== 'string' || !RUN_ID.test(value.runId))) throw refuse('"runId" is not a run id');
  return value as unknown as Plan;
}

/** A verb's path (words) and values that are text, numbers, true or false, or lists of text. */
function isInvocation(value: unknown): value is Plan['invocation'] {
  if (!isObject(value) || !Array.isArray(value.path) || value.path.length === 0 || !value.path.every((w) => typeof w === 'string')) return false;
  if (!isObject(value.values)) return false;
  return Object.values(value.values).every((v) => ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((w) => typeof w === 'string')));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The plans, oldest first; a plan file bo cannot read is skipped, `warn` told why. */
export function listPlans(env: Record<string, string | undefined>, warn: (text: string) => void = () => {}): Plan[] {
  const dir = plansDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).filter((id) => PLAN_ID.test(id));
  const plans = ids.flatMap((id) => {
    try {
      return [readPlan(env, id)];
    } catch (err) {
      // A plan file bo cannot read is skipped; one it must not read (D34) refuses the list.
      if (!(err instanceof UsageError) || err instanceof StateFolderError) throw err;
      warn(`${err.message}; skipped`);
      return [];
    }
  });
  return plans.sort((a, b) => a.created.localeCompare(b.created));
}

/**
 * The plan recorded as applied or discarded, now: its request's body is dropped (the
 * record says what it was, not what it sent), kept 7 days (D33).
 */
export function settlePlan(env: Record<string, string | undefined>, plan: Plan, state: 'applied' | 'discarded', at: Date, runId?: string): Plan {
  const { body: _body, ...request } = plan.request;
  const settled: Plan = { ...plan, request, state, at: at.toISOString(), ...(runId === undefined ? {} : { runId }) };
  writeFileAtomic(join(plansDir(env), `${plan.id}.json`), `${JSON.stringify(settled, null, 2)}\n`);
  return settled;
}

/** When a plan's record goes: 7 days after it was applied or discarded, or after it expired. */
function recordEnds(plan: Plan): number {
  const from = plan.state === 'applied' || plan.state === 'discarded' ? Date.parse(plan.at!) : Date.parse(plan.created) + PLAN_LIFETIME_MS;
  return from + PLAN_RECORD_MS;
}

/**
 * The journal's retention for plans (journal/retention.ts calls it as a run's journal
 * opens, at most once an hour): the record of a plan applied, discarded or expired 7
 * days ago is removed. A file bo cannot read is left alone. Never throws.
 */
export function retainPlans(dir: string, now: Date): void {
  try {
    for (const name of readdirSync(dir)) {
      const id = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || !PLAN_ID.test(id)) continue;
      try {
        const file = join(dir, name);
        const text = readStateFile(file, 'the plan file');
        if (text === undefined) continue;
        const plan = checkPlan(id, text);
        if (planState(plan, now) !== 'pending' && recordEnds(plan) < now.getTime()) rmSync(file, { force: true });
      } catch {
        // A file bo cannot read is not bo's to remove.
      }
    }
  } catch {
    // Housekeeping never stops a run.
  }
}
