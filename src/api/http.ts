// The HTTP core: base URL + /api/v1, JSON in and out, the auth header (D1, D2) or none
// (D4), donotlog=1, timeouts, retries (D30), the https and redirect policy (D3), the
// redacted --verbose trace and one error type for refusals (D6). Loaded only through a
// dynamic import, on node:http(s) rather than undici, which costs ~135 ms at import.

import * as http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, AuthError, BoError, InterruptedError, UsageError } from '../errors.js';
import { AbortFailure, ConnectionFailure, DecodeFailure, TimeoutFailure, TooLargeFailure, exchange, type RawResponse } from './http-attempt.js';
import { humanWait, isRetryableFailure, isRetryableStatus, nextAttempt, parseRetryAfter, waitMs } from './http-retry.js';
import type { ApiResponse, BytesResponse, Credential, HttpClient, HttpClientOptions, Method, Query, RequestOptions } from './http-types.js';
import { bestMessage, bodyValue, isHtml, parseBody, sanitize, statusError, type ParsedBody } from './response-errors.js';
import { REDACTED, isSecretHeader, redactText } from './redact.js';
import { buildUrl, redactUserInfo, validateBaseUrl } from './base-url.js';
import { SecretValues } from './secret-values.js';
import { createTracer, type TracedBody } from './trace.js';
import { describeFailure, failureHint } from './network-errors.js';
import { peerOf, verifiedAgent } from './verified-tls.js';
import { DEFAULT_MAX_RESPONSE_MB, MAX_RESPONSE_SETTING } from './response-cap.js';
import { PROXY_AUTH, ProxyFailure, proxyFor, proxyUserInfo } from './proxy-env.js';
import { isReservedHeader } from './headers.js';
import { createProxyAgent } from './proxy.js';
import { handshake } from './handshake.js';

function authorization(credential: Credential | null, scheme: string): string | undefined {
  if (!credential) return undefined;
  if (credential.kind === 'token') return `bearer ${credential.token}`; // D2
  return `${scheme} ${credential.key}:${credential.secret}`; // D1
}

/**
 * The credential's values, scrubbed wherever they appear, beyond what field names
 * reveal. An API key's id alone is not secret: `bo auth status` names it.
 */
function secretsOf(credential: Credential | null): string[] {
  if (!credential) return [];
  return credential.kind === 'token' ? [credential.token] : [credential.secret, `${credential.key}:${credential.secret}`];
}

function scrubbed(body: ParsedBody, secrets: SecretValues): ParsedBody {
  if (body.kind === 'json') return { kind: 'json', value: secrets.scrubValue(body.value) };
  if (body.kind === 'empty') return body;
  return { ...body, text: secrets.scrub(body.text) };
}

function traced(body: ParsedBody): TracedBody {
  if (body.kind === 'json') return { json: body.value };
  if (body.kind === 'empty') return undefined;
  return { text: body.text };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}`;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = validateBaseUrl(options.baseUrl);
  const bo = options.command ?? ((rest: string) => `bo ${rest}`);
  const secure = base.protocol === 'https:';
  // Certificates are always verified: stated here, NODE_TLS_REJECT_UNAUTHORIZED=0 in the
  // environment cannot switch it off. Extra CAs come from NODE_EXTRA_CA_CERTS and the
  // profile's ca-file (options.secureContext).
  // Through a proxy when HTTPS_PROXY/HTTP_PROXY applies to the base URL (proxy-env.ts):
  // the tunnelling agent is loaded then, on the first request, and not otherwise. A
  // transport passed in (the embedded sandbox's, in this process) needs no connection.
  const send = options.transport ?? exchange;
  const proxy = options.transport ? undefined : proxyFor(base, options.env);
  // A profile's CA file adds its authorities to Node's (ca-file.ts); verification stays on.
  const secureContext = options.secureContext;
  let agent: http.Agent | undefined = options.transport || proxy
    ? undefined
    : secure
      ? verifiedAgent({ keepAlive: true, ...(secureContext ? { secureContext } : {}) })
      : new http.Agent({ keepAlive: true });
  let closed = false;
  let noted = false;
  async function agentFor(): Promise<http.Agent | undefined> {
    if (agent || !proxy) return agent;
    if (!agent) {
      agent = createProxyAgent(proxy, base, secureContext, bo);
      if (closed) agent.destroy();
    }
    return agent;
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  // The run's registry (the context's), else the client's own: what it sends is added to it.
  const secrets = options.secrets ?? new SecretValues();
  secrets.add(...secretsOf(options.credential));
  const proxyUser = proxy && proxyUserInfo(proxy.url);
  if (proxyUser) secrets.add(proxyUser.password, `${proxyUser.user}:${proxyUser.password}`, proxy.url.password);
  const tracer = options.trace ? createTracer(options.trace, secrets) : undefined;
  const userAgent = options.userAgent;
  const baseUrl = base.href.replace(/\/+$/, '');

  async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted || err instanceof InterruptedError) throw new InterruptedError();
      throw err;
    }
  }

  function unexpected(raw: RawResponse, body: ParsedBody, what: string): ApiError {
    return new ApiError(`unexpected answer from the server (${raw.status} ${raw.statusText}): ${redactText(what)}`, {
      status: raw.status,
      code: 'unexpected',
      headers: raw.headers,
      body: bodyValue(body),
      hint: `Is ${baseUrl} the tenant's API root? Set it with --base-url or: ${bo('config set base-url <url>')}`,
    });
  }

  /**
   * No redirect is followed. The API only redirects http:// to https:// (§1), which D3
   * turns into an error naming the URL to configure; following anything else would
   * risk sending credentials elsewhere, or re-sending a write under another method.
   */
  function redirectError(raw: RawResponse, url: URL): ApiError {
    const location = raw.headers.location ?? '';
    let target: URL | undefined;
    try {
      target = new URL(location, url);
    } catch {
      target = undefined;
    }
    if (target && url.protocol === 'http:' && target.protocol === 'https:' && target.hostname === url.hostname) {
      const root = `https://${target.host}${base.pathname.replace(/\/+$/, '')}`;
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

  function connectionText(err: ConnectionFailure, method: Method, url: URL): string {
    return err.cause instanceof ProxyFailure ? err.cause.message : describeFailure(err, method, url);
  }

  /** Said once, before the first connection: the proxy and the CA file in use. */
  function noteConnection(): void {
    if (noted) return;
    noted = true;
    if (proxy) tracer?.note(`through the proxy ${proxy.shown} (${proxy.variable})`);
    if (options.caFile) tracer?.note(`trusting the certificate authorities of ${options.caFile} as well as Node's`);
  }

  /** A connection that failed for good, as the error a user sees (exit 1 `network`, or 4 for a proxy's login). */
  function connectionError(err: ConnectionFailure, method: Method, url: URL): BoError {
    const viaProxy = err.cause instanceof ProxyFailure ? err.cause : undefined;
    const text = connectionText(err, method, url);
    tracer?.note(text);
    const peer = peerOf(err.cause);
    if (peer) tracer?.note(`the server's certificate: ${peer}`);
    if (viaProxy?.code === PROXY_AUTH) return new AuthError(text, { code: 'auth', cause: err.cause, hint: viaProxy.hint });
    // `network`, never Node's name for it (ENOTFOUND…): scripts get one stable code.
    // The cause is the proxy's refusal, or the failure itself (what callers may reword).
    return new BoError(text, { code: 'network', cause: viaProxy ?? err, hint: viaProxy?.hint ?? failureHint(err, method, bo) });
  }

  /** HttpClient.handshake: TLS with the server, nothing sent (handshake.ts). */
  async function handshakeOnly(): Promise<void> {
    if (!secure || options.transport) return;
    noteConnection();
    const tunnel = proxy ? await agentFor() : undefined;
    try {
      await handshake(base, { secureContext, tunnel, timeoutMs: options.timeoutMs, signal: options.signal });
    } catch (err) {
      if (err instanceof AbortFailure) throw new InterruptedError();
      if (!(err instanceof ConnectionFailure)) throw err;
      throw connectionError(err, 'GET', base);
    }
  }

  /** A request's answer: parsed, or with `keepBytes` a 2xx kept as its bytes (unless traced). */
  function answered<T>(req: RequestOptions, keepBytes: false): Promise<ApiResponse<T>>;
  function answered(req: RequestOptions, keepBytes: true): Promise<ApiResponse<unknown> | BytesResponse>;
  async function answered<T>(req: RequestOptions, keepBytes: boolean): Promise<ApiResponse<T> | BytesResponse> {
    const method: Method = req.method;
    const url = buildUrl(base, req.path, { query: req.query, root: req.root, noLog: options.noLog });
    const credential = req.anonymous ? null : options.credential; // D4
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': userAgent,
    };
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      // parseHeader refused these already; the core never lets one through.
      if (isReservedHeader(name)) throw new UsageError(`the header ${name} is set by bo itself`);
      headers[name.toLowerCase()] = value;
      if (isSecretHeader(name)) secrets.add(value);
    }
    const auth = authorization(credential, options.apiKeyScheme || 'bo');
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
    const where = `${url.origin}${url.pathname}`;
    const maxRetries = req.maxRetries ?? options.maxRetries;

    for (let retry = 0; ; retry++) {
      const canRetry = retry < maxRetries;
      tracer?.request(method, url, headers, req.body === undefined ? undefined : { json: req.body });
      // Not performance.now(): its first use loads perf_hooks, ~1 ms of every command (Node 20).
      const started = process.hrtime.bigint();
      let raw: RawResponse;
      try {
        noteConnection();
        raw = await send(url, { method, headers, body, agent: await agentFor(), timeoutMs: options.timeoutMs, signal, maxBytes });
      } catch (err) {
        if (err instanceof AbortFailure) throw new InterruptedError();
        if (err instanceof TimeoutFailure) {
          tracer?.note(`timed out after ${seconds(options.timeoutMs)} s`);
          throw new BoError(`${method} ${where}: request timed out after ${seconds(options.timeoutMs)} s (--timeout)`, {
            code: 'timeout',
            hint: method === 'GET' ? undefined : `The server may have carried out the ${method}; check before repeating it.`,
          });
        }
        if ((err as NodeJS.ErrnoException).code === 'ERR_INVALID_CHAR') {
          // Node refuses a header value with control characters; its message names only the header.
          throw new BoError(`${method} ${where}: the credential or a header value contains characters that cannot be sent`, {
            code: 'invalid_header',
            hint: `Check the stored token or API key (${bo('auth status')}).`,
          });
        }
        if (err instanceof TooLargeFailure) {
          const mb = Math.round((maxBytes / 1024 / 1024) * 10) / 10;
          tracer?.note(`the answer passed ${mb} MB; request dropped`);
          throw new BoError(`${method} ${where}: the answer is larger than ${mb} MB, more than bo accepts for one response`, {
            code: 'too_large',
            hint: `Ask for less (fewer records or fields), or raise the cap: BO_MAX_RESPONSE_MB=<n> or ${bo(`config set ${MAX_RESPONSE_SETTING} <n>`)}`,
          });
        }
        if (err instanceof DecodeFailure) {
          const head = `${err.status} ${http.STATUS_CODES[err.status] ?? ''}`.trim();
          throw new ApiError(`unexpected answer from the server (${head}): a body that could not be decoded (content-encoding ${sanitize(err.encoding, 30)})`, {
            status: err.status,
            code: 'unexpected',
            hint: `Is ${baseUrl} the tenant's API root? Set it with --base-url or: ${bo('config set base-url <url>')}`,
          });
        }
        if (!(err instanceof ConnectionFailure)) throw err;
        if (canRetry && isRetryableFailure(method, err)) {
          const ms = waitMs(retry, undefined);
          tracer?.note(`${connectionText(err, method, url)}; retrying in ${seconds(ms)} s (retry ${retry + 1} of ${maxRetries})`);
          await wait(ms, signal);
          continue;
        }
        throw connectionError(err, method, url);
      }

      const ok = raw.status >= 200 && raw.status < 300;
      // Kept as bytes, parsed when read (requestBytes); a 2xx is never retried.
      if (ok && keepBytes && !tracer) {
        const held = raw;
        return { status: held.status, headers: held.headers, bytes: held.body, read: () => answer(held, parseBody(held.status, held.headers, held.body)) };
      }
      const parsed = parseBody(raw.status, raw.headers, raw.body);
      tracer?.response(raw.status, raw.statusText, Number(process.hrtime.bigint() - started) / 1e6, raw.headers, traced(parsed));
      const retryAfterMs = parseRetryAfter(raw.headers['retry-after']);
      // A wait longer than the cap is not waited for, nor shortened: the answer stands.
      const ms = isRetryableStatus(method, raw.status) ? nextAttempt(retry, maxRetries, retryAfterMs).waitMs : undefined;
      if (ms !== undefined) {
        tracer?.note(`${raw.status} ${raw.statusText}; retrying in ${seconds(ms)} s (retry ${retry + 1} of ${maxRetries})`);
        await wait(ms, signal);
        continue;
      }
      const value = answer(raw, parsed, retryAfterMs);
      return { status: raw.status, statusText: raw.statusText, httpVersion: raw.httpVersion, headers: raw.headers, body: value };
    }

    /** The body of an answer that is not retried, or the error it makes. */
    function answer(raw: RawResponse, parsed: ParsedBody, retryAfterMs?: number): T {
      const ok = raw.status >= 200 && raw.status < 300;
      if (ok && parsed.kind !== 'malformed' && !(parsed.kind === 'text' && isHtml(raw.headers, parsed.text))) {
        if (req.secretAnswer) secrets.addFields(bodyValue(parsed));
        return bodyValue(parsed) as T;
      }
      // An error from here on: a server may echo a secret (in a Location, in its
      // error_description), so the answer is scrubbed before any message is made of it.
      const failed: RawResponse = {
        ...raw,
        statusText: secrets.scrub(raw.statusText),
        headers: Object.fromEntries(Object.entries(raw.headers).map(([k, v]) => [k, secrets.scrub(v)])),
      };
      const clean = scrubbed(parsed, secrets);
      if (ok && clean.kind === 'malformed') throw unexpected(failed, clean, clean.reason ?? `malformed JSON: ${sanitize(clean.text, 80)}`);
      if (ok) {
        const title = bestMessage(clean, failed.headers);
        throw unexpected(failed, clean, `an HTML page${title ? ` ("${title}")` : ''} instead of JSON`);
      }
      if (raw.status >= 300 && raw.status < 400) throw redirectError(failed, url);
      throw statusError({
        status: raw.status,
        statusText: failed.statusText,
        headers: failed.headers,
        body: clean,
        apiKeyScheme: credential?.kind === 'apiKey' ? options.apiKeyScheme || 'bo' : undefined,
        unauthorizedHint: options.unauthorizedHint,
        retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
        retryIn: retryAfterMs === undefined ? undefined : humanWait(retryAfterMs),
      });
    }
  }

  return {
    baseUrl,
    command: bo,
    request: <T>(req: RequestOptions) => answered<T>(req, false),
    async requestBytes(req) {
      const res = await answered(req, true);
      if ('read' in res) return res;
      return { status: res.status, headers: res.headers, read: () => res.body };
    },
    handshake: handshakeOnly,
    close() {
      closed = true;
      agent?.destroy();
    },
  };
}
