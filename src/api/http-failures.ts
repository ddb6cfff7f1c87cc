// The error mapping of failed exchanges, a layer of the HTTP core (http.ts): Ctrl-C,
// --timeout, a header value Node refuses, an answer over the size cap, one that does not
// decode, and a connection that failed for good, each as the one error a user sees.
// A connection failure is handed on as it is: the retry layer (http-retrying.ts) may
// try again, and maps it with connectionError() when it does not.

import * as http from 'node:http';
import { ApiError, AuthError, BoError, InterruptedError } from '../errors.js';
import { AbortFailure, ConnectionFailure, DecodeFailure, TimeoutFailure, TooLargeFailure } from './http-attempt.js';
import type { Method } from './http-types.js';
import type { Send } from './http-request.js';
import { describeFailure, failureHint } from './network-errors.js';
import { PROXY_AUTH, ProxyFailure } from './proxy-env.js';
import { MAX_RESPONSE_SETTING } from './response-cap.js';
import { sanitize } from './response-errors.js';
import type { Tracer } from './trace.js';
import { peerOf } from './verified-tls.js';

export interface FailureContext {
  timeoutMs: number;
  /** The response size cap (response-cap.ts). */
  maxBytes: number;
  baseUrl: string;
  /** A `bo` command as this run's user must type it (HttpClientOptions.command). */
  bo: (rest: string) => string;
  tracer?: Tracer;
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}`;
}

/** The layer: every failure of `send` but a connection's becomes the error a user sees. */
export function mappingFailures(send: Send, ctx: FailureContext): Send {
  return async (request) => {
    try {
      return await send(request);
    } catch (err) {
      throw exchangeError(err, request.method, request.url, ctx) ?? err;
    }
  };
}

/** The error of an exchange that failed, or undefined for a connection failure and an error not an exchange's. */
function exchangeError(err: unknown, method: Method, url: URL, ctx: FailureContext): Error | undefined {
  const where = `${url.origin}${url.pathname}`;
  const { tracer, bo } = ctx;
  if (err instanceof AbortFailure) return new InterruptedError();
  if (err instanceof TimeoutFailure) {
    tracer?.note(`timed out after ${seconds(ctx.timeoutMs)} s`);
    return new BoError(`${method} ${where}: request timed out after ${seconds(ctx.timeoutMs)} s (--timeout)`, {
      code: 'timeout',
      hint: method === 'GET' ? undefined : `The server may have carried out the ${method}; check before repeating it.`,
    });
  }
  if ((err as NodeJS.ErrnoException).code === 'ERR_INVALID_CHAR') {
    // Node refuses a header value with control characters; its message names only the header.
    return new BoError(`${method} ${where}: the credential or a header value contains characters that cannot be sent`, {
      code: 'invalid_header',
      hint: `Check the stored token or API key (${bo('auth status')}).`,
    });
  }
  if (err instanceof TooLargeFailure) {
    const mb = Math.round((ctx.maxBytes / 1024 / 1024) * 10) / 10;
    tracer?.note(`the answer passed ${mb} MB; request dropped`);
    return new BoError(`${method} ${where}: the answer is larger than ${mb} MB, more than bo accepts for one response`, {
      code: 'too_large',
      hint: `Ask for less (fewer records or fields), or raise the cap: BO_MAX_RESPONSE_MB=<n> or ${bo(`config set ${MAX_RESPONSE_SETTING} <n>`)}`,
    });
  }
  if (err instanceof DecodeFailure) {
    const head = `${err.status} ${http.STATUS_CODES[err.status] ?? ''}`.trim();
    return new ApiError(`unexpected answer from the server (${head}): a body that could not be decoded (content-encoding ${sanitize(err.encoding, 30)})`, {
      status: err.status,
      code: 'unexpected',
      hint: `Is ${ctx.baseUrl} the tenant's API root? Set it with --base-url or: ${bo('config set base-url <url>')}`,
    });
  }
  return undefined;
}

export function connectionText(err: ConnectionFailure, method: Method, url: URL): string {
  return err.cause instanceof ProxyFailure ? err.cause.message : describeFailure(err, method, url);
}

/** A connection that failed for good, as the error a user sees (exit 1 `network`, or 4 for a proxy's login). */
export function connectionError(err: ConnectionFailure, method: Method, url: URL, ctx: Pick<FailureContext, 'tracer' | 'bo'>): BoError {
  const viaProxy = err.cause instanceof ProxyFailure ? err.cause : undefined;
  const text = connectionText(err, method, url);
  ctx.tracer?.note(text);
  const peer = peerOf(err.cause);
  if (peer) ctx.tracer?.note(`the server's certificate: ${peer}`);
  if (viaProxy?.code === PROXY_AUTH) return new AuthError(text, { code: 'auth', cause: err.cause, hint: viaProxy.hint });
  // `network`, never Node's name for it (ENOTFOUND…): scripts get one stable code.
  // The cause is the proxy's refusal, or the failure itself (what callers may reword).
  return new BoError(text, { code: 'network', cause: viaProxy ?? err, hint: viaProxy?.hint ?? failureHint(err, method, ctx.bo) });
}
