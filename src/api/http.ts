// The HTTP core: base URL + /api/v1, JSON in and out, the auth header (D1, D2) or none
// (D4), donotlog=1, timeouts, retries (D30), the https and redirect policy (D3), the
// redacted --verbose trace and one error type for refusals (D6). Loaded only through a
// dynamic import, on node:http(s) rather than undici, which costs ~135 ms at import.
//
// Composed of layers, as gh composes its HTTP transports, each wrapping the one below:
//   http-request.ts      the request as sent: URL, headers, body; http-credentials.ts its Authorization
//   http-retrying.ts     tries again what D30 allows, after a wait
//   http-trace.ts        the --verbose lines of each attempt
//   http-failures.ts     a failed exchange as the error a user sees
//   http-connection.ts   the exchange itself: agent, proxy, the transport passed in
// and http-answer.ts makes the answer's body, or the error it is.

import type { ApiResponse, BytesResponse, HttpClient, HttpClientOptions, RequestOptions } from './http-types.js';
import { answerBody, isOk, type AnswerContext } from './http-answer.js';
import { openConnection } from './http-connection.js';
import { holdSecrets } from './http-credentials.js';
import { mappingFailures } from './http-failures.js';
import { outgoing } from './http-request.js';
import { retrying } from './http-retrying.js';
import { tracing } from './http-trace.js';
import { parseBody } from './response-errors.js';
import { validateBaseUrl } from './base-url.js';
import { SecretValues } from './secret-values.js';
import { createTracer } from './trace.js';
import { DEFAULT_MAX_RESPONSE_MB } from './response-cap.js';
import { proxyFor } from './proxy-env.js';

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = validateBaseUrl(options.baseUrl);
  const bo = options.command ?? ((rest: string) => `bo ${rest}`);
  const baseUrl = base.href.replace(/\/+$/, '');
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
  const proxy = options.transport ? undefined : proxyFor(base, options.env);
  // The run's registry (the context's), else the client's own: what it sends is added to it.
  const secrets = options.secrets ?? new SecretValues();
  holdSecrets(secrets, options.credential, proxy);
  const tracer = options.trace ? createTracer(options.trace, secrets) : undefined;
  const connection = openConnection(base, proxy, options, { tracer, bo, maxBytes });
  const failures = { timeoutMs: options.timeoutMs, maxBytes, baseUrl, bo, tracer };
  const send = retrying(tracing(mappingFailures(connection.send, failures), tracer), { sleep: options.sleep, tracer, bo });
  const answers: AnswerContext = { base, baseUrl, bo, secrets, options };

  /** A request's answer: parsed, or with `keepBytes` a 2xx kept as its bytes (unless traced). */
  function answered<T>(req: RequestOptions, keepBytes: false): Promise<ApiResponse<T>>;
  function answered(req: RequestOptions, keepBytes: true): Promise<ApiResponse<unknown> | BytesResponse>;
  async function answered<T>(req: RequestOptions, keepBytes: boolean): Promise<ApiResponse<T> | BytesResponse> {
    const request = outgoing(req, base, options, secrets);
    const { raw, parsed, retryAfterMs } = await send(request);
    // Kept as bytes, parsed when read (requestBytes); a 2xx is never retried.
    if (isOk(raw.status) && keepBytes && !tracer) {
      return { status: raw.status, headers: raw.headers, bytes: raw.body, read: () => answerBody(raw, parseBody(raw.status, raw.headers, raw.body), request, answers) };
    }
    const body = answerBody<T>(raw, parsed ?? parseBody(raw.status, raw.headers, raw.body), request, answers, retryAfterMs);
    return { status: raw.status, statusText: raw.statusText, httpVersion: raw.httpVersion, headers: raw.headers, body };
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
    handshake: () => connection.handshake(),
    close: () => connection.close(),
  };
}
