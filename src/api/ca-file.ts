// The certificate authorities a connection trusts when a profile names a CA file (the
// `ca-file` setting or BO_CA_FILE, resolved in src/config/settings.ts): a company CA
// that signs the tenant's certificate, as git's http.sslCAInfo and the AWS CLI's
// ca_bundle. Passing `ca` to node:tls replaces Node's own roots, so the list is Node's
// default store (its bundled roots and NODE_EXTRA_CA_CERTS) plus the file: the file only
// ever adds trust. Verification itself is never turned off: every tenant is https (D3),
// so its certificate is always checked. Loaded only when a CA file
// is set, so runs without one pay nothing for it.

import { X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { BoError, UsageError } from '../errors.js';
import { readTextIfExists } from '../files/regular-file.js';

/** A CA file read and checked: what `ca` gets, and what messages say about it. */
export interface CaFile {
  /** The path, as messages and `bo auth status` show it. */
  path: string;
  /** Node's default roots plus the file's certificates. */
  ca: string[];
  /**
   * A TLS context made of them, once: node:tls parses every certificate of a `ca` list
   * again for each connection it opens with one (tens of ms for Node's ~145 roots), so
   * connections share this context instead.
   */
  secureContext: tls.SecureContext;
  /** How many certificates the file held. */
  count: number;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The PEM certificates of `text`, each checked by parsing it; `name` (the setting or the
 * variable) and the path head every error, exit 2.
 */
export function pemCertificates(text: string, name: string, path: string): string[] {
  const found = text.match(PEM_CERT) ?? [];
  if (found.length === 0) {
    throw new UsageError(`${name} ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  for (const [i, pem] of found.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new UsageError(`${name} ${path}: certificate ${i + 1} of ${found.length} is not a valid certificate`);
    }
  }
  return found;
}

/** The file's certificates; a missing, unreadable or certificate-less file is exit 2 naming `name`. */
export function readCaCertificates(path: string, name: string): string[] {
  let text: string | undefined;
  try {
    text = readTextIfExists(path, name);
  } catch (err) {
    // Not a regular file (a folder, a FIFO): that error already names it.
    if (err instanceof BoError) throw new UsageError(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`${name} ${path} cannot be read: ${code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message)}`);
  }
  if (text === undefined) throw new UsageError(`${name} ${path} cannot be read: no such file`);
  return pemCertificates(text, name, path);
}

/**
 * Node's default trust store: `tls.getCACertificates('default')` where Node has it
 * (22.15 and later), else the bundled roots plus the certificates of the file
 * NODE_EXTRA_CA_CERTS names (Node already warned at start if that one is unreadable).
 */
export function defaultCertificates(env: Record<string, string | undefined>): string[] {
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  if (typeof get === 'function') return get('default');
  const extra = env.NODE_EXTRA_CA_CERTS;
  let added: string[] = [];
  if (extra) {
    try {
      added = readTextIfExists(extra, 'NODE_EXTRA_CA_CERTS')?.match(PEM_CERT) ?? [];
    } catch {
      added = [];
    }
  }
  return [...tls.rootCertificates, ...added];
}

/** The CA file of a profile, read and checked, with Node's default roots in front. */
export function loadCaFile(path: string, name: string, env: Record<string, string | undefined>): CaFile {
  const own = readCaCertificates(path, name);
  const ca = [...defaultCertificates(env), ...own];
  return { path, ca, count: own.length, secureContext: tls.createSecureContext({ ca }) };
}
