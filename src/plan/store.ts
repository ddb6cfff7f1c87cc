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

/** A plan is applied within this long of being made, never later. */
export const PLAN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface Plan {
  id: string;
  /** ISO time it was made. */
  created: string;
  profile: string;
  /** Where its requests go: the dry run's URL's origin, or `the embedded sandbox` (mcp/call.ts planOrigin). */
  origin: string;
  /** The verb's command line: its path, options as --name=value, `--`, operands. */
  argv: string[];
  /** The dry run: method, url, body. */
  request: Record<string, unknown>;
  /** What the change acts on as its confirmation names it (`Acme Inc, 2 Trial`), neutralised; absent when unknown. */
  target?: string;
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
  const saved = { id: randomBytes(16).toString('hex'), ...plan };
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
  if (!Array.isArray(value.argv) || !value.argv.every((word) => typeof word === 'string')) throw refuse('"argv" is not a list of strings');
  const { request } = value;
  if (!isObject(request)) throw refuse('"request" is not an object');
  if (typeof request.method !== 'string' || typeof request.url !== 'string') throw refuse('"request" has no method and url strings');
  if (value.target !== undefined && typeof value.target !== 'string') throw refuse('"target" is not a string');
  return value as unknown as Plan;
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

export function removePlan(env: Record<string, string | undefined>, id: string): void {
  rmSync(join(plansDir(env), `${id}.json`), { force: true });
}
