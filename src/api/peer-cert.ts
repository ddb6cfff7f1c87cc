// The certificate a server showed, for a refusal to name it: "subject CN=api.acme.example,
// issued by CN=Acme Corp Root CA". Verification stays on and fails as it does; only,
// node:tls destroys the socket (and drops the certificate) the moment its check fails,
// before any listener of ours hears of it. So a listener put in front of node:tls's own on
// the handshake's end ('secure', which tls.connect listens to) reads the certificate
// first, and the error that follows is tied to it. A Node without that event leaves
// the description out, nothing else.

import type { TLSSocket } from 'node:tls';
import { sanitize } from './response-errors.js';

const seen = new WeakMap<object, string>();

/** "subject …, issued by …", server text made one harmless line. */
function describe(socket: TLSSocket): string | undefined {
  // Not getPeerX509Certificate(): on Node 20, called here, it makes the host name check
  // that follows fail for an IP address the certificate does name.
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

/** Remembers the certificate `socket` is shown, for peerOf(the error it then fails with). */
export function watchPeer(socket: TLSSocket): void {
  let described: string | undefined;
  socket.prependOnceListener('secure', () => {
    try {
      described = describe(socket);
    } catch {
      described = undefined;
    }
  });
  socket.prependOnceListener('error', (err: Error) => {
    if (described !== undefined) seen.set(err, described);
  });
}

/** The certificate behind a TLS refusal (watchPeer), or undefined. */
export function peerOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? seen.get(err) : undefined;
}
