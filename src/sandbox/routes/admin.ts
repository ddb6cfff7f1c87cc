// Sandbox-only endpoints under /__sandbox (DECISIONS "Sandbox-only endpoints"): never
// authenticated, never in the activity log.

import { fixtureUsersOf } from '../auth-slice.js';
import { HttpError, invalid, notFound } from '../http-error.js';
import { ok, type Route, type RouteRequest } from '../router.js';
import { isKind } from '../schema.js';
import type { Tx } from '../tx.js';
import { objectBody } from '../validate.js';

function outbox(_req: RouteRequest, tx: Tx) {
  return ok(tx.db.state.outbox);
}

function activity(_req: RouteRequest, tx: Tx) {
  return ok(tx.db.activity());
}

function clock(req: RouteRequest, tx: Tx) {
  const b = objectBody(req.body);
  const seconds = b.advanceSeconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw invalid('advanceSeconds', 'must be a number of seconds');
  tx.advanceClock(seconds * 1000);
  return ok({ now: tx.now().toISOString(), offsetSeconds: (tx.db.state.clockOffsetMs + seconds * 1000) / 1000 });
}

function reset(req: RouteRequest, tx: Tx) {
  tx.replaceState(req.server.reseed());
  return ok({ reset: true });
}

function fixtures(req: RouteRequest, tx: Tx) {
  const state = tx.db.state;
  return ok({
    apiKey: { scheme: req.server.apiKeyScheme, key: state.apiKey.key, secret: state.apiKey.secret },
    users: fixtureUsersOf(state.auth),
    ...state.fixtures,
  });
}

function record(req: RouteRequest, tx: Tx) {
  const kind = req.params.kind!;
  if (!isKind(kind)) throw new HttpError(404, 'not_found', `unknown record kind ${JSON.stringify(kind)}`);
  const rec = tx.get(kind, req.params.uid!);
  if (!rec) throw notFound(kind, req.params.uid!);
  return ok(rec);
}

export const adminRoutes: Route[] = [
  { method: 'GET', pattern: '/__sandbox/outbox', auth: 'admin', handler: outbox },
  { method: 'GET', pattern: '/__sandbox/activity', auth: 'admin', handler: activity },
  { method: 'POST', pattern: '/__sandbox/clock', auth: 'admin', handler: clock },
  { method: 'POST', pattern: '/__sandbox/reset', auth: 'admin', handler: reset },
  { method: 'GET', pattern: '/__sandbox/fixtures', auth: 'admin', handler: fixtures },
  { method: 'GET', pattern: '/__sandbox/records/:kind/:uid', auth: 'admin', handler: record },
];
