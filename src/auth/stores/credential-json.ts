// Stored credentials are JSON of the Credential type. Anything else found in a store
// (hand edits, another tool's item) is reported, never guessed at or overwritten.

import type { Credential } from '../../api/http-types.js';

/** The credential, or undefined when the value is not one of ours. */
export function asCredential(value: unknown): Credential | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.kind === 'token' && typeof v.token === 'string' && v.token !== '') {
    return {
      kind: 'token',
      token: v.token,
      ...(typeof v.expiresAt === 'string' ? { expiresAt: v.expiresAt } : {}),
      ...(typeof v.username === 'string' ? { username: v.username } : {}),
      ...origin(v),
    };
  }
  if (v.kind === 'apiKey' && typeof v.key === 'string' && typeof v.secret === 'string' && v.key && v.secret) {
    return { kind: 'apiKey', key: v.key, secret: v.secret, ...origin(v) };
  }
  return undefined;
}

/** The origin a credential was stored against, when it records one. */
function origin(v: Record<string, unknown>): { origin?: string } {
  return typeof v.origin === 'string' && v.origin !== '' ? { origin: v.origin } : {};
}

export function parseCredential(text: string): Credential | undefined {
  try {
    return asCredential(JSON.parse(text));
  } catch {
    return undefined;
  }
}
