// The thin adapter between HTTP and the two-factor engine (src/sandbox/auth): the
// engine's state lives in the store, so its changes (attempt counts, used codes)
// commit with the request even when the answer is an error.

import { handleTokensOf, jwksOf } from '../auth-slice.js';
import { ok, type Route, type RouteRequest } from '../router.js';
import type { Tx } from '../tx.js';
import { V1 } from './common.js';

function tokens(req: RouteRequest, tx: Tx) {
  const rest = req.params['*'];
  const subpath = rest === undefined ? '' : `/${rest}`;
  const result = handleTokensOf(tx.auth(), {
    now: () => tx.now(),
    baseUrl: req.server.issuer,
    clientKey: req.clientKey,
    sendEmail: (mail) => tx.sendEmail(mail),
  }, subpath, req.body);
  return { status: result.status, body: result.body, headers: result.headers };
}

function jwks(_req: RouteRequest, tx: Tx) {
  return ok(jwksOf(tx.db.state.auth));
}

export const tokenRoutes: Route[] = [
  { method: 'POST', pattern: `${V1}/tokens`, auth: 'ignored', handler: tokens },
  { method: 'POST', pattern: `${V1}/tokens/*`, auth: 'ignored', handler: tokens },
  { method: 'GET', pattern: '/.well-known/jwks.json', auth: 'ignored', handler: jwks },
];
