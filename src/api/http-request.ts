// A request as the layers of the HTTP core (http.ts) pass it on: the URL, the headers
// (bo's own, the user's `-H`, the credential's), the body as JSON bytes, the signals
// that stop it, and the retries it may take.

import { UsageError } from '../errors.js';
import { buildUrl } from './base-url.js';
import type { RawResponse } from './http-attempt.js';
import { isReservedHeader } from './headers.js';
import { apiKeyScheme, authorization, credentialFor } from './http-credentials.js';
import type { Credential, HttpClientOptions, Method, RequestOptions } from './http-types.js';
import { isSecretHeader } from './redact.js';
import type { ParsedBody } from './response-errors.js';
import type { SecretValues } from './secret-values.js';

export interface Outgoing {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  /** The body as sent; `value` as given, for the trace. */
  body?: Buffer;
  value: unknown;
  signal?: AbortSignal;
  credential: Credential | null;
  maxRetries: number;
  /** RequestOptions.secretAnswer. */
  secretAnswer?: boolean;
}

/** The request `req` asks for, its secrets (headers, body fields) added to the run's. */
export function outgoing(req: RequestOptions, base: URL, options: HttpClientOptions, secrets: SecretValues): Outgoing {
  const url = buildUrl(base, req.path, { query: req.query, root: req.root, noLog: options.noLog });
  const credential = credentialFor(req, options); // D4
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': options.userAgent,
  };
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    // parseHeader refused these already; the core never lets one through.
    if (isReservedHeader(name)) throw new UsageError(`the header ${name} is set by bo itself`);
    headers[name.toLowerCase()] = value;
    if (isSecretHeader(name)) secrets.add(value);
  }
  const auth = authorization(credential, apiKeyScheme(options));
  if (auth) headers.authorization = auth;
  let body: Buffer | undefined;
  // A password, code or payment token sent is a secret the run holds from now on.
  secrets.addFields(req.body);
  if (req.body !== undefined) {
    body = Buffer.from(JSON.stringify(req.body), 'utf8');
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(body.length);
  }
  const signals = [options.signal, req.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const maxRetries = req.maxRetries ?? options.maxRetries;
  return { method: req.method, url, headers, body, value: req.body, signal, credential, maxRetries, secretAnswer: req.secretAnswer };
}

/** One exchange of a request, its answer as it came (http-connection.ts), or a failure. */
export type Send = (request: Outgoing) => Promise<RawResponse>;

/** An answer as the layers above the exchange hand it on. */
export interface Received {
  raw: RawResponse;
  /** The body, parsed when a layer needed it (the trace's); else parsed when read. */
  parsed?: ParsedBody;
  /** The server's Retry-After, once the retry layer read it. */
  retryAfterMs?: number;
}

/** A request sent, and maybe sent again, up to its answer (http-trace.ts, http-retrying.ts). */
export type Attempt = (request: Outgoing) => Promise<Received>;
