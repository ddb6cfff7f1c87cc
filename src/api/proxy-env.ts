// Which proxy, if any, a request to the base URL goes through: HTTPS_PROXY for https,
// HTTP_PROXY for http (loopback only, D3), both skipped for hosts NO_PROXY lists. Read
// as curl reads them: the lower-case name wins over the upper-case one, and NO_PROXY
// alone decides, so a loopback host goes through the proxy unless NO_PROXY lists it
// (the embedded sandbox is never given the proxy variables: see connect.ts). Pure and
// light; the tunnelling agent (proxy.ts) is loaded only when a proxy applies.

import { UsageError } from '../errors.js';
import type { Env } from '../env.js';

export interface ProxyChoice {
  /** The proxy, user and password included (they make the Proxy-Authorization header). */
  url: URL;
  /** The variable it came from, as the user spelled it: HTTPS_PROXY, https_proxy… */
  variable: string;
  /** The proxy for messages and traces: scheme, host and port, never its user or password. */
  shown: string;
}

/** The first non-empty of the lower-case and upper-case forms, lower-case first (curl). */
function lookup(env: Env, name: string): { variable: string; value: string } | undefined {
  for (const variable of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** A host name for comparing: lower case, no brackets around IPv6, no trailing dot. */
function bare(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** One NO_PROXY entry split into host and optional port: "host", "host:port", "[::1]:8080", "::1". */
function parseEntry(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1]!, port: withPort[2] };
  return { host: entry };
}

function cidrMatch(host: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const ip4 = (text: string) => {
    const parts = text.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
    return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  };
  const a = ip4(host);
  const b = ip4(network ?? '');
  const n = Number(bits);
  if (a === undefined || b === undefined || !Number.isInteger(n) || n < 0 || n > 32) return false;
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  return (a & mask) === (b & mask);
}

/**
 * NO_PROXY: comma- (or space-) separated entries; `*` matches every host; `example.com`,
 * `.example.com` and `*.example.com` match the domain and every host under it; an IP
 * matches itself, `10.0.0.0/8` an IPv4 range; `host:port` matches that port only.
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = bare(target.hostname);
  const port = target.port || defaultPort(target.protocol);
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const { host: listed, port: listedPort } = parseEntry(entry);
    if (listedPort !== undefined && listedPort !== port) continue;
    if (listed.includes('/')) {
      if (cidrMatch(host, listed)) return true;
      continue;
    }
    const domain = bare(listed.replace(/^\*?\.+/, ''));
    if (!domain) continue;
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy for requests to `target`, or undefined; a proxy variable that is not a usable URL is a usage error. */
export function proxyFor(target: URL, env: Env | undefined): ProxyChoice | undefined {
  if (!env) return undefined;
  const found = lookup(env, target.protocol === 'https:' ? 'https_proxy' : 'http_proxy');
  if (!found) return undefined;
  const noProxy = lookup(env, 'no_proxy');
  if (noProxy && bypassesProxy(target, noProxy.value)) return undefined;

  const { variable, value } = found;
  const hint = `Set ${variable} to http://host:port (or http://user:password@host:port), or list the host in NO_PROXY.`;
  let url: URL | undefined;
  try {
    // Like curl, a bare host:port means an http:// proxy.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    url = undefined;
  }
  if (!url || !url.hostname) throw new UsageError(`${variable} is not a proxy URL`, { hint });
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${variable}: ${shown} is not supported; bo uses http:// and https:// proxies`, { hint });
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new UsageError(`${variable}: the proxy URL ${shown} must not have a path, query or fragment`, { hint });
  }
  return { url, variable, shown };
}

/** The user and password a proxy URL carries, percent-decoded; undefined when it has none. */
export function proxyUserInfo(url: URL): { user: string; password: string } | undefined {
  if (!url.username && !url.password) return undefined;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { user: decode(url.username), password: decode(url.password) };
}

/**
 * The proxy refused its own user and password, or wants them (407, or 401 from
 * tinyproxy): final on the first answer, since a proxy that checks them against a
 * directory may count each try as a failed login (http-retry.ts), and an
 * authentication failure (exit 4, code `auth`).
 */
export const PROXY_AUTH = 'EPROXYAUTH';
/** The proxy refused the tunnel (403): final too, trying again cannot help. */
export const PROXY_DENIED = 'EPROXYDENIED';

/**
 * The proxy could not be reached, or refused the tunnel. Its message names the proxy
 * (never its user or password) and is shown as is; http.ts wraps it like any other
 * connection failure (exit 1, code `network`), or as an authentication failure when
 * its code is PROXY_AUTH.
 */
export class ProxyFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly hint: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}
