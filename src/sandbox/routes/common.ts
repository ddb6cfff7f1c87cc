// Shared by the data routes: the API prefix and the record-update stamp.

import type { Rec } from '../schema.js';
import type { Tx } from '../tx.js';

export const V1 = '/api/v1';

/** A new version of `rec` with `changes` merged (D18) and Updated set. */
export function merged(tx: Tx, rec: Rec, changes: Record<string, unknown>): Rec {
  return { ...rec, ...changes, Uid: rec.Uid, _objectType: rec._objectType, Updated: tx.now().toISOString() };
}

/** A new record with the base fields of §2. */
export function newRecord(tx: Tx, kind: string, uid: string, fields: Record<string, unknown>): Rec {
  const now = tx.now().toISOString();
  return { Uid: uid, _objectType: kind, Created: now, Updated: now, ActivityEventData: {}, ...fields };
}
