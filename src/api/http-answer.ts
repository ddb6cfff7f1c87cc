// The error mapping of answers, a layer of the HTTP core (http.ts): the body of an
// answer that is not retried, or the error it makes (D6): a refusal by its status
// (response-errors.ts), a redirect (D3), a 2xx that is not JSON. A server may echo a
// secret (in a Location, in its error_description), so an answer is scrubbed before
// any message is made of it.

import { ApiError } from '../errors.js';
import type { RawResponse } from './http-attempt.js';
import { apiKeyScheme } from './http-credentials.js';
import type { Outgoing } from './http-request.js';
import { humanWait } from './http-retry.js';
import type { HttpClientOptions } from './http-types.js';
import { REDACTED, redactText } from './redact.js';
import { bestMessage, bodyValue, isHtml, sanitize, statusError, type ParsedBody } from './response-errors.js';
import type { SecretValues } from './secret-values.js';

export interface AnswerContext {
  base: URL;
  /** The base URL as the hints name it, no trailing slash. */
  baseUrl: string;
  bo: (rest: string) => string;
  secrets: SecretValues;
  options: HttpClientOptions;
}

export function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The body of an answer that is not retried, or the error it makes. */
export function answerBody<T>(raw: RawResponse, parsed: ParsedBody, request: Outgoing, ctx: AnswerContext, retryAfterMs?: number): T {
  const { secrets, options } = ctx;
  const ok = isOk(raw.status);
  if (ok && parsed.kind !== 'malformed' && !(parsed.kind === 'text' && isHtml(raw.headers, parsed.text))) {
    if (request.secretAnswer) secrets.addFields(bodyValue(parsed));
    return bodyValue(parsed) as T;
  }
  // An error from here on: scrubbed first.
  const failed: RawResponse = {
    ...raw,
    statusText: secrets.scrub(raw.statusText),
    headers: Object.fromEntries(Object.entries(raw.headers).map(([k, v]) => [k, secrets.scrub(v)])),
  };
  const clean = scrubbed(parsed, secrets);
  if (ok && clean.kind === 'malformed') throw unexpected(failed, clean, clean.reason ?? `malformed JSON: ${sanitize(clean.text, 80)}`, ctx);
  if (ok) {
    const title = bestMessage(clean, failed.headers);
    throw unexpected(failed, clean, `an HTML page${title ? ` ("${title}")` : ''} instead of JSON`, ctx);
  }
  if (raw.status >= 300 && raw.status < 400) throw redirectError(failed, request.url, ctx);
  throw statusError({
    status: raw.status,
    statusText: failed.statusText,
    headers: failed.headers,
    body: clean,
    apiKeyScheme: request.credential?.kind === 'apiKey' ? apiKeyScheme(options) : undefined,
    unauthorizedHint: options.unauthorizedHint,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
    retryIn: retryAfterMs === undefined ? undefined : humanWait(retryAfterMs),
  });
}

function scrubbed(body: ParsedBody, secrets: SecretValues): ParsedBody {
  if (body.kind === 'json') return { kind: 'json', value: secrets.scrubValue(body.value) };
  if (body.kind === 'empty') return body;
  return { ...body, text: secrets.scrub(body.text) };
}

function unexpected(raw: RawResponse, body: ParsedBody, what: string, ctx: AnswerContext): ApiError {
  return new ApiError(`unexpected answer from the server (${raw.status} ${raw.statusText}): ${redactText(what)}`, {
    status: raw.status,
    code: 'unexpected',
    headers: raw.headers,
    body: bodyValue(body),
    hint: `Is ${ctx.baseUrl} the tenant's API root? Set it with --base-url or: ${ctx.bo('config set base-url <url>')}`,
  });
}

/**
 * No redirect is followed. The API only redirects http:// to https:// (§1), which D3
 * turns into an error naming the URL to configure; following anything else would
 * risk sending credentials elsewhere, or re-sending a write under another method.
 */
function redirectError(raw: RawResponse, url: URL, ctx: AnswerContext): ApiError {
  const { bo } = ctx;
  const location = raw.headers.location ?? '';
  let target: URL | undefined;
  try {
    target = new URL(location, url);
  } catch {
    target = undefined;
  }
  if (target && url.protocol === 'http:' && target.protocol === 'https:' && target.hostname === url.hostname) {
    const root = `https://${target.host}${ctx.base.pathname.replace(/\/+$/, '')}`;
    return new ApiError(`${raw.status} ${raw.statusText}: the server redirects to https; use the base URL ${root}`, {
      status: raw.status,
      code: 'redirect',
      headers: raw.headers,
      hint: `Set it with --base-url ${root} or: ${bo(`config set base-url ${root}`)}`,
    });
  }
  // A secret in the Location is already the marker; shown as such, not percent-encoded.
  const where = target ? sanitize(`${target.origin}${target.pathname}`.replaceAll(encodeURIComponent(REDACTED), REDACTED), 200) : 'nowhere';
  return new ApiError(`${raw.status} ${raw.statusText}: the server redirects to ${where}; bo does not follow redirects`, {
    status: raw.status,
    code: 'redirect',
    headers: raw.headers,
    hint: `Check the base URL (--base-url or ${bo('config set base-url')}).`,
  });
}
