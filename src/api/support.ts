// Support endpoints (SERVICE-API §4 "Support").

import type { RequestOptions } from './http-types.js';

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** DELETE /support/articles/{uid}/tags/{tagUid}: a tag the article lacks still succeeds (D26). */
export function untagArticle(articleUid: string, tagUid: string): RequestOptions {
  return { method: 'DELETE', path: `/support/articles/${encodeURIComponent(articleUid)}/tags/${encodeURIComponent(tagUid)}` };
}
