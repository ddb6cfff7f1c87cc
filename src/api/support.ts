// Support endpoints (SERVICE-API §4 "Support"): each mutation is one builder returning
// the request the mutation runner sends or prints (--dry-run).

import type { RequestOptions } from './http-types.js';
import { apiPath } from './path.js';

/**
 * DELETE /support/articles/{uid}/tags/{tagUid}: takes the tag off the article; the tag
 * itself stays, and an article without it is not an error (D26). Answers a string.
 */
export function untagArticleRequest(articleUid: string, tagUid: string): RequestOptions {
  return { method: 'DELETE', path: apiPath`/support/articles/${articleUid}/tags/${tagUid}` };
}
