// Turning an answer into a value or a typed error. The client must not depend on the
// sandbox's error shape (D6): it shows the status plus the best message it can find in
// any JSON shape, an HTML page, a text body, or none.

import { ApiError, RateLimitedError } from '../errors.js';
import { redactText } from './redact.js';
import { neutralise } from './neutralise.js';
import { parseJson } from './json-parse.js';

export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  /** The content type promised JSON and the text did not parse. */
  | { kind: 'malformed'; text: string; reason?: string };

/** Deeper JSON is refused: printing or redacting it would exhaust the call stack. */
export const MAX_JSON_DEPTH = 512;

/** Whether brackets outside strings nest deeper than `limit`, without recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) opened++;
  }
  if (opened <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether a parsed value nests deeper than `limit` (the same depth as its JSON text's
 * brackets); recursion stops at `limit`. After JSON.parse (which does not recurse) this
 * visits each value once: ~1 ms for a page of 100 accounts, where scanning its 370 KB
 * of text took ~6 ms of every list command (measured, test/bench/run.mjs).
 */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return containerNestsDeeperThan(value, limit);
}

/** The walk itself, called only for objects and arrays: no call per string or number (~25 % less time). */
function containerNestsDeeperThan(value: object, limit: number): boolean {
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null && containerNestsDeeperThan(item, limit - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && containerNestsDeeperThan(item, limit - 1)) return true;
  }
  return false;
}

export function parseBody(status: number, headers: Record<string, string>, raw: Buffer): ParsedBody {
  if (status === 204 || raw.length === 0) return { kind: 'empty' };
  const text = raw.toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  const type = headers['content-type'] ?? '';
  const saysJson = /[/+]json\b/i.test(type);
  // Not a regular expression on the body: a successful match keeps its subject in the
  // realm's last-match record until the next match, so every page of an export would
  // outlive its parse (promoted, then collected only by a full collection).
  const first = text.trimStart().charCodeAt(0);
  const looksJson = (first === 0x5b || first === 0x7b || first === 0x22) && !/html/i.test(type);
  if (saysJson || looksJson) {
    const tooDeep = { kind: 'malformed', text, reason: `JSON nested more than ${MAX_JSON_DEPTH} levels deep` } as const;
    let value: unknown;
    try {
      value = parseJson(text);
    } catch {
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return tooDeep;
      if (saysJson) return { kind: 'malformed', text };
      return { kind: 'text', text };
    }
    if (valueNestsDeeperThan(value, MAX_JSON_DEPTH)) return tooDeep;
    return { kind: 'json', value };
  }
  return { kind: 'text', text };
}

export function bodyValue(body: ParsedBody): unknown {
  if (body.kind === 'json') return body.value;
  if (body.kind === 'text' || body.kind === 'malformed') return body.text;
  return undefined;
}

/** Control characters and escape sequences from a server never reach the terminal. */
export function sanitize(text: string, max = 200): string {
  // Line breaks and tabs become spaces first; then whole escape sequences go and the
  // other controls, bidirectional and invisible characters are shown escaped.
  const clean = neutralise(text.replace(/[\t\r\n]+/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `errors` as an array of {field, message} / strings, or an object of field → message(s). */
function listErrors(errors: unknown): string[] {
  const out: string[] = [];
  if (Array.isArray(errors)) {
    for (const e of errors) {
      if (str(e)) out.push(e as string);
      else if (e && typeof e === 'object') {
        const o = e as Record<string, unknown>;
        const field = str(o.field) ?? str(o.Field) ?? str(o.property) ?? str(o.PropertyName);
        const message = str(o.message) ?? str(o.Message) ?? str(o.ErrorMessage) ?? str(o.detail);
        if (message) out.push(field ? `${field}: ${message}` : message);
        else if (field) out.push(field);
      }
    }
  } else if (errors && typeof errors === 'object') {
    for (const [field, v] of Object.entries(errors as Record<string, unknown>)) {
      const messages = Array.isArray(v) ? v.filter((m): m is string => !!str(m)) : str(v) ? [v as string] : [];
      out.push(...messages.map((m) => `${field}: ${m}`));
    }
  }
  return out;
}

function jsonMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return str(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const nested = o.error && typeof o.error === 'object' ? jsonMessage(o.error) : undefined;
  const main =
    str(o.error_description) ??
    str(o.message) ??
    str(o.Message) ??
    str(o.ErrorMessage) ??
    str(o.title) ??
    str(o.detail) ??
    nested;
  // A field error the main message already says is not repeated.
  const details = listErrors(o.errors ?? o.Errors).filter((d) => !main?.includes(d));
  if (main && details.length > 0) return `${main} (${details.join('; ')})`;
  return main ?? (details.length > 0 ? details.join('; ') : str(o.error));
}

function htmlTitle(text: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text);
  if (!m?.[1]) return undefined;
  const decoded = m[1]
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return str(decoded);
}

export function isHtml(headers: Record<string, string>, text: string): boolean {
  return /html/i.test(headers['content-type'] ?? '') || /^\s*<(!doctype|html)/i.test(text);
}

/** The best human message in a body, sanitised; undefined when there is none. */
export function bestMessage(body: ParsedBody, headers: Record<string, string>): string | undefined {
  let found: string | undefined;
  if (body.kind === 'json') found = jsonMessage(body.value);
  else if (body.kind === 'text' || body.kind === 'malformed') {
    // Never raw HTML: a proxy's error page says what it is in its title.
    if (isHtml(headers, body.text)) found = htmlTitle(body.text);
    else found = body.text.split(/\r?\n/).find((line) => line.trim() !== '');
  }
  return found === undefined ? undefined : sanitize(found) || undefined;
}

export interface StatusContext {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: ParsedBody;
  /** The D1 scheme word when the request used an API key, for the 401 hint. */
  apiKeyScheme?: string;
  /** The 401 hint the caller built for this run's credential; else a generic one. */
  unauthorizedHint?: string;
  /** Seconds from Retry-After, for a 429. */
  retryAfter?: number;
  /** The same wait in words ("3 h 20 min"), shown in the message. */
  retryIn?: string;
}

function headline(status: number, statusText: string, message: string | undefined): string {
  const head = `${status}${statusText ? ` ${sanitize(statusText, 60)}` : ''}`;
  return message && message.toLowerCase() !== statusText.toLowerCase() ? `${head}: ${message}` : head;
}

/** A non-2xx, non-3xx answer (after the retries) as the error the user sees. */
export function statusError(ctx: StatusContext): ApiError | RateLimitedError {
  const found = bestMessage(ctx.body, ctx.headers);
  const message = found === undefined ? undefined : redactText(found);
  const value = bodyValue(ctx.body);
  const code =
    value && typeof value === 'object' && typeof (value as { error?: unknown }).error === 'string'
      ? sanitize((value as { error: string }).error, 60)
      : undefined;
  if (ctx.status === 429) {
    const wait = ctx.retryIn === undefined ? 'try again later' : `retry in ${ctx.retryIn}`;
    return new RateLimitedError(`${headline(429, ctx.statusText, message)}; ${wait}`, {
      status: 429,
      code: code ?? 'rate_limited',
      serverCode: code,
      retryAfter: ctx.retryAfter,
    });
  }
  const hint = ctx.status === 401 ? (ctx.unauthorizedHint ?? signInHint(ctx.apiKeyScheme)) : undefined;
  const later = ctx.retryIn !== undefined && ctx.status >= 500 ? `; retry in ${ctx.retryIn}` : '';
  return new ApiError(`${headline(ctx.status, ctx.statusText, message)}${later}`, {
    status: ctx.status,
    code,
    serverCode: code,
    ...(message && message.toLowerCase() !== ctx.statusText.toLowerCase() ? { serverMessage: message } : {}),
    hint,
    body: value,
    headers: ctx.headers,
  });
}

/** A 401: how to sign in again, interactively or in CI; with an API key, the scheme word too (D1). */
function signInHint(apiKeyScheme: string | undefined): string {
  const again = 'Sign in again with `bo login`, or for CI set BO_TOKEN, or BO_API_KEY and BO_API_SECRET.';
  if (apiKeyScheme === undefined) return again;
  return (
    `${again} The API key was sent with the scheme word "${apiKeyScheme}"; if the service uses another, ` +
    'set it with: bo config set api-key-scheme <word>'
  );
}
