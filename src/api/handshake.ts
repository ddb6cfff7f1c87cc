// A TLS handshake with the server and nothing sent over it: `bo login` makes one before
// asking for a user name, password or code, so a certificate this machine does not
// trust is said before anyone types anything. It goes the way requests go: directly,
// or through the proxy's CONNECT tunnel (the tunnelling agent makes the socket), with
// the same certificate authorities, and fails as a request would (the caller maps the
// ConnectionFailure like any other). Loaded only by the login.

import type * as http from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type * as tls from 'node:tls';
import { AbortFailure, ConnectionFailure } from './http-attempt.js';
import { connectVerified } from './verified-tls.js';

export interface HandshakeOptions {
  /** The context that trusts the profile's CA file too (ca-file.ts); absent, Node's. */
  secureContext?: tls.SecureContext;
  /** The proxy's tunnelling agent (proxy.ts), when a proxy applies. */
  tunnel?: http.Agent;
  timeoutMs: number;
  signal?: AbortSignal;
}

type Connect = (options: tls.ConnectionOptions, callback: (err: Error | null, socket?: Duplex) => void) => void;

export function handshake(target: URL, o: HandshakeOptions): Promise<void> {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const options: tls.ConnectionOptions = {
    host,
    port: Number(target.port || 443),
    ...(isIP(host) ? {} : { servername: host }),
    ...(o.secureContext ? { secureContext: o.secureContext } : {}),
  };
  const connect: Connect = o.tunnel
    ? (opts, callback) => (o.tunnel as unknown as { createConnection: Connect }).createConnection(opts, callback)
    : (opts, callback) => void connectVerified(opts, callback);
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new AbortFailure('aborted'));
    let done = false;
    const finish = (err: Error | null, socket?: Duplex) => {
      socket?.destroy();
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => finish(new AbortFailure('aborted'));
    const timer = setTimeout(() => finish(new ConnectionFailure('ETIMEDOUT', false, new Error('handshake timed out'))), o.timeoutMs);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    connect(options, (err, socket) =>
      finish(err ? new ConnectionFailure((err as NodeJS.ErrnoException).code ?? err.message, false, err) : null, socket),
    );
  });
}
