// --diff: each target read before its change is sent (D36: only as the API allows, through
// the verb's `current`), and what the change would replace shown as `Field: old → new`
// for the fields whose values differ. A record whose values already hold is not sent:
// its outcome is a success that changed nothing, reason `already-holds` (D32), which the
// outcomes file writes as `skipped`. A verb whose targets cannot be read says so once and
// shows the request instead; a target that cannot be read (a deal row that names no
// account) says why and is sent as it would be without --diff.

import { jsonText, neutralise } from '../api/neutralise.js';
import { redactJson } from '../api/redact.js';
import type { HttpClient } from '../api/http-types.js';
import { BoError } from '../errors.js';
import type { BoundMutation } from './types.js';

/** What a read showed: the fields that change (old, new), that every value holds, or why the target could not be read. */
export type Diff = { changes: Array<[field: string, old: unknown, now: unknown]> } | { holds: true } | { unreadable: string };

/** The old value of a field the read could not show. */
const NOT_READ = Symbol('not read');

/** Raised by a verb's `current` when its target cannot be read (not found, or not reachable as the API allows). */
export class CannotRead extends Error {}

/** Reads the target and compares what the request sets with what it holds. A failed read that is not the verb's own CannotRead is thrown (the batch reports it). */
export async function diffOf<Prep>(m: BoundMutation<Prep>, client: HttpClient, target: string, prep: Prep, context: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<Diff> {
  const current = m.def.current;
  if (!current) return { unreadable: 'cannot be read' };
  const body = m.def.request(target, prep, m.args).body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { unreadable: 'changes no field' };
  let held: Record<string, unknown>;
  try {
    held = await current(client, target, context, m.args, signal);
  } catch (err) {
    if (err instanceof CannotRead) return { unreadable: err.message };
    throw err instanceof BoError ? err : new BoError(String((err as Error)?.message ?? err));
  }
  // A field the read does not hold (not readable) is never taken to hold already.
  const changes = Object.entries(body as Record<string, unknown>)
    .filter(([field, value]) => value !== undefined && (!Object.hasOwn(held, field) || !same(held[field], value)))
    .map(([field, value]): [string, unknown, unknown] => [field, Object.hasOwn(held, field) ? (held[field] ?? null) : NOT_READ, value]);
  return changes.length === 0 ? { holds: true } : { changes };
}

/**
 * Whether a value held is the value sent: a reference by its Uid, an instant by its
 * time (`2027-01-31` sent as `2027-01-31T23:59:59.000Z`, held as `…+00:00`), numbers and
 * text as they are, records and lists by their JSON with keys in order.
 */
export function same(held: unknown, sent: unknown): boolean {
  const uid = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as { Uid?: unknown }).Uid : undefined);
  if (uid(sent) !== undefined) return uid(held) === uid(sent);
  if (typeof held === 'string' && typeof sent === 'string' && ISO.test(held) && ISO.test(sent)) return Date.parse(held) === Date.parse(sent);
  if (typeof held === 'number' && typeof sent === 'string') return String(held) === sent;
  return canonical(held ?? null) === canonical(sent ?? null);
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A value in a diff: text as it is, a reference by its Uid, anything else as JSON; secrets redacted. */
function shown(field: string, value: unknown): string {
  if (value === NOT_READ) return '(not read)';
  const safe = (redactJson({ [field]: value }) as Record<string, unknown>)[field];
  if (typeof safe === 'string') return neutralise(safe);
  const uid = safe !== null && typeof safe === 'object' && !Array.isArray(safe) ? (safe as { Uid?: unknown }).Uid : undefined;
  return neutralise(typeof uid === 'string' ? uid : jsonText(safe));
}

/** A record's diff as lines: `deal_1 (line 2)` then `  Amount: 17700 → 1200`; or one line when it holds or cannot be read. */
export function diffText(uid: string, line: number | undefined, diff: Diff, arrow = '→'): string {
  const head = `${neutralise(uid)}${line === undefined ? '' : ` (line ${line})`}`;
  if ('holds' in diff) return `${head}: already holds; not sent\n`;
  if ('unreadable' in diff) return `${head}: ${diff.unreadable}\n`;
  return `${head}\n${diff.changes.map(([field, old, now]) => `  ${field}: ${shown(field, old)} ${arrow} ${shown(field, now)}\n`).join('')}`;
}
