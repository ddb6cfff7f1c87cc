// Support endpoint (§4): removing a tag from an article (D26).

import { refUid } from '../db.js';
import { ok, type Route, type RouteRequest } from '../router.js';
import type { Tx } from '../tx.js';
import { merged, V1 } from './common.js';

function untag(req: RouteRequest, tx: Tx) {
  const article = tx.need('Article', req.params.entityUid!, 'article');
  const tagUid = req.params.tagUid!;
  const tags = Array.isArray(article.Tags) ? (article.Tags as unknown[]) : [];
  const kept = tags.filter((t) => refUid(t) !== tagUid);
  // D26: a tag the article lacks is not an error; the tag record itself always stays.
  if (kept.length === tags.length) return ok(`Article ${article.Uid} has no tag ${tagUid}; nothing changed`);
  tx.put('Article', merged(tx, article, { Tags: kept }));
  return ok(`Tag ${tagUid} removed from article ${article.Uid}`);
}

export const supportRoutes: Route[] = [
  { method: 'DELETE', pattern: `${V1}/support/articles/:entityUid/tags/:tagUid`, auth: 'required', handler: untag },
];
