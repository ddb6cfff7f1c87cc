// Which origin a stored credential belongs to, and the refusal when a command aims it
// anywhere else (ARCHITECTURE principle 7). An origin is scheme, lower-cased host and
// port with the default port dropped, exactly as URL#origin gives it: no aliasing, so
// `localhost` is not `127.0.0.1`. A credential from `bo --sandbox login` belongs to the
// embedded sandbox itself, which listens on a new port every run.

import type { Credential } from '../api/http-types.js';
import { AuthError } from '../errors.js';
import { boCommand } from '../hints.js';

/** The origin of credentials bound to the embedded sandbox; no URL can have it. */
export const EMBEDDED_SANDBOX_ORIGIN = 'bo-sandbox:embedded';

/** scheme://host[:port] of a base URL; undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** For messages: the embedded sandbox by name, anything else as it is. */
export function describeOrigin(origin: string): string {
  return origin === EMBEDDED_SANDBOX_ORIGIN ? 'the embedded sandbox (bo --sandbox)' : origin;
}

/**
 * The origin a stored credential belongs to: the one recorded with it, or, for a
 * credential stored before origins were recorded, the profile's saved base URL.
 * Undefined when neither says.
 */
export function storedOrigin(credential: Credential, savedBaseUrl: string | undefined): string | undefined {
  if (credential.origin) return credential.origin;
  return savedBaseUrl === undefined ? undefined : originOf(savedBaseUrl);
}

/** The error for a stored credential that must not go to `target`, or undefined when it may. */
export function originRefusal(profile: string, belongsTo: string | undefined, target: string): AuthError | undefined {
  const targetOrigin = target === EMBEDDED_SANDBOX_ORIGIN ? target : originOf(target);
  const sandbox = target === EMBEDDED_SANDBOX_ORIGIN;
  const bo = (rest: string) =>
    boCommand({ sandbox, profile: profile === 'default' || (sandbox && profile === 'sandbox') ? '' : profile }, sandbox ? rest : `--base-url ${targetOrigin} ${rest}`);
  if (belongsTo === undefined) {
    return new AuthError(`the credentials of profile "${profile}" do not record the base URL they belong to: sign in again`, {
      code: 'credential_origin_unknown',
      hint: `run \`${bo('login')}\` (or \`${bo('auth set-key')}\`)`,
    });
  }
  if (belongsTo === targetOrigin) return undefined;
  return new AuthError(`the credentials of profile "${profile}" belong to ${describeOrigin(belongsTo)}, not ${describeOrigin(targetOrigin ?? target)}`, {
    code: 'credential_origin_mismatch',
    hint:
      `to use ${describeOrigin(targetOrigin ?? target)}, sign in there with \`${bo('login')}\` (or \`${bo('auth set-key')}\`), ` +
      'or pick the profile that belongs to it with --profile',
  });
}
