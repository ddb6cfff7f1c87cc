// The certificate authorities a connection trusts when a profile names a CA file (the
// `ca-file` setting or BO_CA_FILE, resolved in src/config/settings.ts): a company CA
// that signs the tenant's certificate, as git's http.sslCAInfo and the AWS CLI's
// ca_bundle. Passing `ca` to node:tls replaces Node's own roots, so the list is Node's
// default store (its bundled roots and NODE_EXTRA_CA_CERTS) plus the file: the file only
// ever adds trust. Verification itself is never turned off: every tenant is https (D3),
// so its certificate is always checked. Loaded only when a CA file
// is set, so runs without one pay nothing for it.
//
// The file decides whom bo trusts with the credential, so it is refused (exit 2) as ssh
// refuses a key others could change: when someone other than the user (or root) owns it,
// when another user can write it (the other-write bit, the group-write bit of a group
// with another member) or any folder above it (a sticky folder of root's, /tmp, allowed)
// — the judgement of src/files/owner.ts, the one the state folder uses (D34). And when it
// is over 16 MiB, judged from its size before a byte is read (Mozilla's whole bundle is
// ~220 KB).

import { X509Certificate } from 'node:crypto';
import { closeSync, fstatSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import * as tls from 'node:tls';
import { BoError, UsageError } from '../errors.js';
import { callerOf, changeableAbove, foreignWords, foreignWrite, judgesOwners, type Caller } from '../files/owner.js';
import { openRegularFile, readTextIfExists } from '../files/regular-file.js';

/** The largest CA file read: 16 MiB (Mozilla's whole bundle is ~220 KB). */
export const MAX_CA_FILE_BYTES = 16 * 1024 * 1024;

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

/**
 * The file's certificates; a missing, unreadable, too big, foreign-writable or
 * certificate-less file is exit 2 naming `name`. `who`: the user it must be safe from
 * others for (this process's; tests give another).
 */
export function readCaCertificates(path: string, name: string, who?: Partial<Caller>): string[] {
  let fd: number | undefined;
  try {
    fd = openRegularFile(path, name);
  } catch (err) {
    // Not a regular file (a folder, a FIFO): that error already names it.
    if (err instanceof BoError) throw new UsageError(err.message);
    throw unreadable(name, path, err);
  }
  if (fd === undefined) throw new UsageError(`${name} ${path} cannot be read: no such file`);
  let text: string;
  try {
    // The opened file's own size and owner, before any byte of it is read.
    const st = fstatSync(fd);
    if (st.size > MAX_CA_FILE_BYTES) {
      throw new UsageError(`${name} ${path} is ${(st.size / 1024 / 1024).toFixed(1)} MiB: a CA file of at most 16 MiB is read (it holds certificates in PEM)`);
    }
    if (judgesOwners) refuseForeignWritable(path, name, st, callerOf(who));
    text = readFileSync(fd, 'utf8');
  } catch (err) {
    if (err instanceof BoError) throw err;
    throw unreadable(name, path, err);
  } finally {
    closeSync(fd);
  }
  return pemCertificates(text, name, path);
}

function unreadable(name: string, path: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  return new UsageError(`${name} ${path} cannot be read: ${code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message)}`);
}

/** Exit 2 when someone other than the user (or root) could change the file or a folder above it (owner.ts). */
function refuseForeignWritable(path: string, name: string, st: Stats, who: Caller): void {
  const how = foreignWrite(st, who);
  if (how === 'owner') {
    throw new UsageError(`${name} ${path} belongs to another user, who could change what bo trusts: use a copy of your own (cp ${shellWord(path)} <your file>) and point ${name} at it`);
  }
  if (how !== undefined) {
    throw new UsageError(`${name} ${path} can be written by other users, who could change what bo trusts: run chmod go-w ${shellWord(path)}`);
  }
  // The folder the path names, and the one its links lead to.
  const folders = new Set([dirname(path), dirname(realpathSync(path))]);
  for (const folder of folders) {
    const above = changeableAbove(folder, who);
    if (above) {
      throw new UsageError(`${name} ${path} is in ${above.folder}, which ${foreignWords(above.how)}: move it to a folder only you (or root) can change`);
    }
  }
}

/** `path` as one shell word. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
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
