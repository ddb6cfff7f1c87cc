// The base URL rules the HTTP core checks before anything is sent, and the one way a
// URL is echoed back in a message (user info hidden). config/settings.ts checks a saved
// base-url with the same rules.

import { UsageError } from '../errors.js';

/**
 * `/api/v1` is added to every request, so a base URL that already carries it (the API
 * root, or an endpoint pasted whole) would send everything to …/api/v1/api/v1/…. A
 * tenant under another path prefix (https://host/tenant-x) is fine.
 */
export function checkNotApiRoot(url: URL, name: string): void {
  const at = url.pathname.search(/\/api\/v1(?=\/|$)/i);
  if (at < 0) return;
  const root = `${url.origin}${url.pathname.slice(0, at)}`;
  throw new UsageError(`${name} must be the tenant's URL without /api/v1 (bo adds it to every request), got "${url.origin}${url.pathname.replace(/\/+$/, '')}"`, {
    hint: `drop /api/v1 and what follows: ${root}`,
  });
}

/**
 * A URL as typed, with any user name and password replaced: "https://u:pw@host" becomes
 * "https://[redacted]@host". Works on text that does not parse as a URL too, so every
 * message that echoes a URL back can pass it through this first.
 */
export function redactUserInfo(text: string): string {
  return text.replace(/(\/\/|^)([^/?#\s@]*)@/g, (all, lead: string, info: string) =>
    lead === '' && !/[:]/.test(info) ? all : `${lead}[redacted]@`,
  );
}
