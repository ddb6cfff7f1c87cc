// The agent for requests that go through a proxy: each new connection is a CONNECT
// tunnel through the proxy (node:http's 'connect'), and for https the TLS session runs
// end to end inside it (tls.connect over the tunnel's socket), with the certificate
// checked against the base URL's host. The proxy sees the CONNECT line and, when its
// URL carries them, its own user and password (Proxy-Authorization); the API credential
// and everything else travel only inside the tunnel. http:// base URLs (loopback only)
// are tunnelled the same way. Keep-alive pooling, timeouts and the response cap stay
// the core's: this agent only makes the sockets. Loaded only when a proxy applies.

import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { isUntrusted, reason, untrustedHint } from './network-errors.js';
import { connectVerified } from './verified-tls.js';
import { PROXY_AUTH, PROXY_DENIED, ProxyFailure, proxyUserInfo, type ProxyChoice } from './proxy-env.js';

type Callback = (err: Error | null, stream: Duplex) => void;
type ConnectOptions = http.ClientRequestArgs & tls.ConnectionOptions;

function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

/** user:password from the proxy URL as a Basic credential, or undefined. */
function proxyAuthorization(url: URL): string | undefined {
  const info = proxyUserInfo(url);
  return info && `Basic ${Buffer.from(`${info.user}:${info.password}`).toString('base64')}`;
}

/** What the messages about a proxy name: the proxy, the tunnel's end, and whether it was given a user. */
interface ProxyTarget {
  proxy: ProxyChoice;
  target: URL;
  /** `the proxy http://proxy:3128 (HTTPS_PROXY)`. */
  where: string;
  /** host:port of the tunnel's end (the CONNECT line). */
  authority: string;
  /** The Proxy-Authorization header sent, if any. */
  auth: string | undefined;
  bo: (rest: string) => string;
}

/** The proxy could not be reached (or its own certificate was refused). */
function failure(err: NodeJS.ErrnoException, at: ProxyTarget): ProxyFailure {
  const code = err.code ?? 'ECONNRESET';
  // An https:// proxy's certificate from a company CA is trusted as the server's is.
  const hint = isUntrusted(code)
    ? untrustedHint(at.bo)
    : `Check ${at.proxy.variable}, or list ${at.target.hostname} in NO_PROXY to connect directly.`;
  return new ProxyFailure(`could not connect to ${at.where}: ${reason({ code, cause: err })}`, code, hint, err);
}

/** The proxy answered the CONNECT with something other than 200. */
function refused(res: http.IncomingMessage, at: ProxyTarget): ProxyFailure {
  const { proxy, where, authority } = at;
  const status = res.statusCode ?? 0;
  const text = `${status} ${res.statusMessage || http.STATUS_CODES[status] || ''}`.trim().replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
  // 407, or 401 as tinyproxy answers: about the proxy's own user and password.
  if (status === 401 || status === 407) {
    return at.auth
      ? new ProxyFailure(
          `${where} rejected the user and password it was given: ${text}`,
          PROXY_AUTH,
          `Check the user and password in ${proxy.variable} (http://user:password@host:port).`,
        )
      : new ProxyFailure(
          `${where} wants a user and password for the tunnel to ${authority}: ${text}`,
          PROXY_AUTH,
          `Put them in ${proxy.variable}: http://user:password@host:port`,
        );
  }
  const hint = `Check ${proxy.variable}, or list ${at.target.hostname} in NO_PROXY to connect directly.`;
  return new ProxyFailure(`${where} refused the tunnel to ${authority}: ${text}`, status === 403 ? PROXY_DENIED : 'EPROXY', hint);
}

/**
 * `secureContext`: the TLS context that trusts the profile's CA file as well as Node's
 * authorities (src/api/ca-file.ts), for the tenant's certificate inside the tunnel and
 * an https:// proxy's own; absent, Node's. `bo` spells a command in hints (HttpClient.command).
 */
export function createProxyAgent(
  proxy: ProxyChoice,
  target: URL,
  secureContext?: tls.SecureContext,
  bo: (rest: string) => string = (rest) => `bo ${rest}`,
): http.Agent {
  const secure = target.protocol === 'https:';
  const Base: typeof http.Agent = secure ? https.Agent : http.Agent;
  const authority = `${target.hostname}:${target.port || (secure ? 443 : 80)}`;
  const auth = proxyAuthorization(proxy.url);
  const at: ProxyTarget = { proxy, target, where: `the proxy ${proxy.shown} (${proxy.variable})`, authority, auth, bo };
  /** Tunnels being set up: a client closed mid-way must not leave them holding the process. */
  const pending = new Set<{ destroy(): void }>();

  function tunnel(options: ConnectOptions, callback: Callback): void {
    let done = false;
    const finish = (err: Error | null, socket?: Socket) => {
      if (done) return;
      done = true;
      callback(err, socket as Duplex);
    };
    const headers: Record<string, string> = { host: authority };
    if (auth) headers['proxy-authorization'] = auth;
    const transport = proxy.url.protocol === 'https:' ? https : http;
    const req = transport.request({
      host: bare(proxy.url.hostname),
      port: proxy.url.port || (proxy.url.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
      ...(proxy.url.protocol === 'https:' && !isIP(bare(proxy.url.hostname)) ? { servername: bare(proxy.url.hostname) } : {}),
      ...(proxy.url.protocol === 'https:' && secureContext ? { secureContext } : {}),
    });
    pending.add(req);
    req.once('error', (err: NodeJS.ErrnoException) => {
      pending.delete(req);
      finish(failure(err, at));
    });
    req.once('connect', (res, socket, head) => {
      pending.delete(req);
      if (res.statusCode !== 200) {
        socket.destroy();
        return finish(refused(res, at));
      }
      if (head.length) socket.unshift(head);
      if (!secure) return finish(null, socket);
      const host = bare(options.host ?? target.hostname);
      const secured = connectVerified({ ...options, host, socket, servername: isIP(host) ? undefined : host }, (err, verified) => {
        pending.delete(secured);
        finish(err, verified);
      });
      pending.add(secured);
      socket.once('error', (err) => secured.destroy(err));
    });
    req.end();
  }

  class TunnelAgent extends Base {
    // Node's Agent accepts a connection handed over later through the callback.
    override createConnection(options: http.ClientRequestArgs, callback?: Callback): undefined {
      if (callback) tunnel(options as ConnectOptions, callback);
      return undefined;
    }
    override destroy(): void {
      for (const item of pending) item.destroy();
      pending.clear();
      super.destroy();
    }
  }
  // The agent's options reach tunnel() with each connection's: `secureContext` goes to tls.connect there.
  return new TunnelAgent({ keepAlive: true, ...(secure && secureContext ? { secureContext } : {}) });
}
