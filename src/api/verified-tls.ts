// Every TLS connection `bo` makes to a server: node:tls verifies the certificate (its
// authorities, the host name), and `bo` refuses the connection when it failed, after
// reading the certificate the server showed so the refusal can name it ("subject
// CN=api.acme.example, issued by CN=Acme Corp Root CA", --verbose).
//
// How, with node:tls's documented parts only: tls.connect with `rejectUnauthorized:
// false` still makes its whole check and says the outcome on 'secureConnect' (`authorized`,
// `authorizationError`), but leaves the socket open, so the certificate can be read.
// The socket reaches node:http only through the agent's `createConnection` callback,
// after that check passed: nothing is written to a server whose certificate was refused.
// NODE_TLS_REJECT_UNAUTHORIZED cannot change any of it (`rejectUnauthorized` is given,
// and its answer is not what decides).

import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { sanitize } from './response-errors.js';

/** A certificate node:tls did not verify: `code` is its reason (CERT_HAS_EXPIRED…). */
export class CertificateRefused extends Error {
  constructor(
    readonly code: string,
    /** "subject …, issued by …", or undefined when the server showed none. */
    readonly peer: string | undefined,
  ) {
    super(`the server's certificate was refused: ${code}`);
    this.name = 'CertificateRefused';
  }
}

/** "subject …, issued by …", server text made one harmless line. */
function describe(socket: tls.TLSSocket): string | undefined {
  const cert = socket.getPeerCertificate();
  if (!cert?.subject) return undefined;
  const name = (dn: object) =>
    sanitize(
      Object.entries(dn)
        .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${k}=${String(one)}`))
        .join(', '),
      200,
    );
  return `subject ${name(cert.subject)}, issued by ${name(cert.issuer ?? {})}`;
}

export type Connected = (err: Error | null, socket?: tls.TLSSocket) => void;

/**
 * tls.connect(options), `done` called once: with the socket when its certificate is
 * verified, else with the error (a CertificateRefused, or the connection's own) and the
 * socket destroyed. Returns the socket, for its caller to destroy while it is pending.
 */
export function connectVerified(options: tls.ConnectionOptions, done: Connected): tls.TLSSocket {
  const socket = tls.connect({ ...options, rejectUnauthorized: false });
  let settled = false;
  const settle = (err: Error | null) => {
    if (settled) return;
    settled = true;
    socket.off('error', settle).off('close', closed).off('secureConnect', onSecure);
    if (err) socket.destroy();
    done(err, err ? undefined : socket);
  };
  // Destroyed by its caller before the handshake ended: the connection was not made.
  const closed = () => settle(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  const onSecure = () => {
    if (socket.authorized) return settle(null);
    let peer: string | undefined;
    try {
      peer = describe(socket);
    } catch {
      peer = undefined;
    }
    settle(new CertificateRefused(String(socket.authorizationError ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'), peer));
  };
  socket.once('error', settle).once('close', closed).once('secureConnect', onSecure);
  return socket;
}

/** The certificate behind a TLS refusal, or undefined. */
export function peerOf(err: unknown): string | undefined {
  return err instanceof CertificateRefused ? err.peer : undefined;
}

/**
 * The https agent of direct connections: node:https's pooling and keep-alive, its
 * sockets made by connectVerified. A connection still being made when the client closes
 * is destroyed with it. (A class made on call, as proxy.ts's: node:https is then loaded
 * by the first client, not with the bundle.)
 */
export function verifiedAgent(options: https.AgentOptions): https.Agent {
  const pending = new Set<tls.TLSSocket>();
  class VerifiedAgent extends https.Agent {
    // node:http's Agent takes a socket handed over later through the callback.
    override createConnection(options: tls.ConnectionOptions, callback?: (err: Error | null, stream: Duplex) => void): undefined {
      const socket = connectVerified(options, (err, verified) => {
        pending.delete(socket);
        callback?.(err, verified as Duplex);
      });
      pending.add(socket);
      return undefined;
    }

    override destroy(): void {
      for (const socket of pending) socket.destroy();
      pending.clear();
      super.destroy();
    }
  }
  return new VerifiedAgent(options);
}
