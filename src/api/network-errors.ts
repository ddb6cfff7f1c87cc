// Plain words for connection failures: "could not connect to https://…: connection
// refused" rather than a Node error code and a stack.

import type { ConnectionFailure } from './http-attempt.js';
import type { Method } from './http-types.js';

const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed (DNS)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  ECONNABORTED: 'connection aborted',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the TLS certificate chain is self-signed',
  // Signed by an authority this machine does not trust (NODE_EXTRA_CA_CERTS adds one).
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate is not trusted (issued by an unknown authority)',
  UNABLE_TO_GET_ISSUER_CERT: 'the TLS certificate is not trusted (issued by an unknown authority)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate is not trusted (issued by an unknown authority)',
  CERT_NOT_YET_VALID: 'the TLS certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not match the host name',
  HPE_INVALID_CONSTANT: 'the answer was not valid HTTP',
};

/** The failure in plain words; also used for a proxy that cannot be reached (proxy.ts). */
export function reason(failure: Pick<ConnectionFailure, 'code' | 'cause'>): string {
  const cause = failure.cause as Error | undefined;
  if (failure.code === 'ECONNRESET' && cause?.message === 'socket hang up') return 'the server closed the connection';
  if (failure.code.startsWith('HPE_')) return 'the answer was not valid HTTP';
  return reasons[failure.code] ?? failure.code;
}

export function describeFailure(failure: ConnectionFailure, method: Method, url: URL): string {
  if (!failure.sent) return `could not connect to ${url.origin}: ${reason(failure)}`;
  return `${method} ${url.origin}${url.pathname} failed: ${reason(failure)}`;
}

/** A certificate signed by no authority this machine trusts, or by itself. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

/** A certificate from an authority not trusted here: how to trust a company's (the server's, or an https:// proxy's). */
export function untrustedHint(bo: (rest: string) => string): string {
  return `If this certificate, or the authority that signed it, is your company's, trust its PEM file: ${bo('config set ca-file <pem-file>')} (or BO_CA_FILE; NODE_EXTRA_CA_CERTS does it for every Node program). ${bo('doctor')} shows the certificate.`;
}

/** Whether `code` is a certificate signed by no authority trusted here, or by itself. */
export function isUntrusted(code: string): boolean {
  return UNTRUSTED.has(code);
}

/**
 * A write that failed after it went out may still have been carried out. A certificate
 * from an unknown authority (a company CA) is trusted with the profile's ca-file, or
 * NODE_EXTRA_CA_CERTS for every Node program; nothing turns the check off.
 */
export function failureHint(failure: ConnectionFailure, method: Method, bo = (rest: string) => `bo ${rest}`): string | undefined {
  if (failure.sent && method !== 'GET') return `The server may have carried out the ${method}; check before repeating it.`;
  if (!failure.sent && UNTRUSTED.has(failure.code)) return untrustedHint(bo);
  if (!failure.sent) return `Check the base URL (--base-url or ${bo('config set base-url')}) and your network.`;
  return undefined;
}
