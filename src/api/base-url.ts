// The base URL rules the HTTP core checks before anything is sent (D3), the one way a
// request URL is built from it (base URL + /api/v1 + path + query), and the one way a
// URL is echoed back in a message (user info hidden). config/settings.ts checks a saved
// base-url with the same rules.

import { UsageError } from '../errors.js';
import type { Query } from './http-types.js';
import { isDotSegment } from './path.js';
import { sanitize } from './response-errors.js';

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

const API_PREFIX = '/api/v1';

/** A loopback host: the only hosts http:// may name, and where a served sandbox listens. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** D3, checked before anything is sent: https, or http on a loopback host (the sandbox). */
export function validateBaseUrl(baseUrl: string): URL {
  const hint = 'Set it with --base-url <url> or: bo config set base-url <url>';
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new UsageError(`the base URL "${sanitize(redactUserInfo(baseUrl), 100)}" is not a URL (e.g. https://acme.example.com)`, { hint });
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new UsageError(`the base URL ${shown} must use https:// (only loopback hosts may use http://)`, { hint });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`the base URL ${shown} must not carry credentials, a query or a fragment`, { hint });
  }
  checkNotApiRoot(url, 'the base URL');
  return url;
}

export function buildUrl(base: URL, path: string, options: { query?: Query; root?: boolean; noLog?: boolean }): URL {
  // Setting the pathname resolves dot segments: a path carrying one would reach another
  // endpoint. Paths are built by apiPath, or checked by `bo api`; this is the last check.
  if (path.split('/').some(isDotSegment)) throw new UsageError(`the request path ${JSON.stringify(path)} has a "." or ".." segment`);
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${options.root ? '' : API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
  const params = url.searchParams;
  if (options.query instanceof URLSearchParams) {
    for (const [k, v] of options.query) params.append(k, v);
  } else if (options.query) {
    for (const [k, v] of Object.entries(options.query)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item !== undefined && item !== null) params.append(k, String(item));
      }
    }
  }
  if (options.noLog) params.set('donotlog', '1');
  return url;
}
