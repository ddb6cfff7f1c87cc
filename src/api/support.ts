// Support endpoints (SERVICE-API §4 "Support").

import type { HttpClient, RequestOptions } from './http-types.js';

/**
 * DELETE /support/articles/{uid}/tags/{tagUid}: takes the tag off the article; the tag
 * itself stays, and an article without it is not an error (D26). Answers a string.
 */
export async function untagArticle(client: HttpClient, articleUid: string, tagUid: string): Promise<unknown> {
  const res = await client.request({
    method: 'DELETE',
    path: `/support/articles/${encodeURIComponent(articleUid)}/tags/${encodeURIComponent(tagUid)}`,
  });
  return res.body;
}

// ---- Mutations: request descriptions the mutation runner sends or prints (--dry-run) ----

/** DELETE /support/articles/{uid}/tags/{tagUid}: a tag the article lacks still succeeds (D26). */
export function untagArticleRequest(articleUid: string, tagUid: string): RequestOptions {
  return { method: 'DELETE', path: `/support/articles/${encodeURIComponent(articleUid)}/tags/${encodeURIComponent(tagUid)}` };
}
