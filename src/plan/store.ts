// Plans: a change an agent prepared with `bo mcp --writes plan`, kept until a person
// applies it with `bo plan apply <id>`. One file per plan in <state folder>/plans/,
// 0600 in a 0700 folder, written atomically. A plan holds the command line that makes
// the change (re-validated when applied), the dry run the agent saw, the profile and
// origin it was made for, and when; never a secret (verbs with secret fields have no
// plan tool).

import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { readStateFile, statePart } from '../files/state.js';

/** A plan is applied within this long of being made, never later. */
export const PLAN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface Plan {
  id: string;
  /** ISO time it was made. */
  created: string;
  profile: string;
  /** The origin its requests go to (the dry run's URL's). */
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
  return JSON.parse(text) as Plan;
}

export function listPlans(env: Record<string, string | undefined>): Plan[] {
  const dir = plansDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).filter((id) => PLAN_ID.test(id));
  return ids.map((id) => readPlan(env, id)).sort((a, b) => a.created.localeCompare(b.created));
}

export function removePlan(env: Record<string, string | undefined>, id: string): void {
  rmSync(join(plansDir(env), `${id}.json`), { force: true });
}
