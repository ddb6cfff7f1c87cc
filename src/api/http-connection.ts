// The bottom layer of the HTTP core (http.ts): how a request reaches the server. A
// keep-alive agent that always verifies certificates, a tunnel through the proxy in
// effect, or the transport passed in (the embedded sandbox's, in this process), and
// the TLS handshake alone that `bo login` asks for first (handshake.ts).

import * as http from 'node:http';
import { InterruptedError } from '../errors.js';
import { AbortFailure, ConnectionFailure, exchange } from './http-attempt.js';
import { connectionError } from './http-failures.js';
import type { Send } from './http-request.js';
import type { HttpClientOptions } from './http-types.js';
import { handshake } from './handshake.js';
import { createProxyAgent } from './proxy.js';
import type { ProxyChoice } from './proxy-env.js';
import type { Tracer } from './trace.js';
import { verifiedAgent } from './verified-tls.js';

export interface Connection {
  send: Send;
  /** HttpClient.handshake: TLS with the server, nothing sent. */
  handshake(): Promise<void>;
  /** Frees the keep-alive sockets. */
  close(): void;
}

export interface ConnectionContext {
  tracer?: Tracer;
  bo: (rest: string) => string;
  /** The response size cap (response-cap.ts). */
  maxBytes: number;
}

/** `proxy`: the proxy HTTPS_PROXY/HTTP_PROXY names for the base URL (proxy-env.ts), if any. */
export function openConnection(base: URL, proxy: ProxyChoice | undefined, options: HttpClientOptions, ctx: ConnectionContext): Connection {
  const bo = ctx.bo;
  const secure = base.protocol === 'https:';
  // Certificates are always verified: stated here, NODE_TLS_REJECT_UNAUTHORIZED=0 in the
  // environment cannot switch it off. Extra CAs come from NODE_EXTRA_CA_CERTS and the
  // profile's ca-file (options.secureContext).
  // Through a proxy when HTTPS_PROXY/HTTP_PROXY applies to the base URL (proxy-env.ts):
  // the tunnelling agent is loaded then, on the first request, and not otherwise. A
  // transport passed in (the embedded sandbox's, in this process) needs no connection.
  const send = options.transport ?? exchange;
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

  /** Said once, before the first connection: the proxy and the CA file in use. */
  function noteConnection(): void {
    if (noted) return;
    noted = true;
    if (proxy) ctx.tracer?.note(`through the proxy ${proxy.shown} (${proxy.variable})`);
    if (options.caFile) ctx.tracer?.note(`trusting the certificate authorities of ${options.caFile} as well as Node's`);
  }

  return {
    async send(request) {
      noteConnection();
      const { method, headers, body, signal } = request;
      return send(request.url, { method, headers, body, agent: await agentFor(), timeoutMs: options.timeoutMs, signal, maxBytes: ctx.maxBytes });
    },
    async handshake() {
      if (!secure || options.transport) return;
      noteConnection();
      const tunnel = proxy ? await agentFor() : undefined;
      try {
        await handshake(base, { secureContext, tunnel, timeoutMs: options.timeoutMs, signal: options.signal });
      } catch (err) {
        if (err instanceof AbortFailure) throw new InterruptedError();
        if (!(err instanceof ConnectionFailure)) throw err;
        throw connectionError(err, 'GET', base, ctx);
      }
    },
    close() {
      closed = true;
      agent?.destroy();
    },
  };
}
