// Credentials from the environment, for CI: BO_TOKEN (bearer, D2), or BO_API_KEY with
// BO_API_SECRET (D1). They win over stored ones and cannot be changed by `bo`.

import type { CredentialStore } from '../credential-types.js';
import type { Credential } from '../../api/http-types.js';
import { AuthError, UsageError } from '../../errors.js';
import type { Env } from '../../env.js';

type CredentialVariable = 'BO_TOKEN' | 'BO_API_KEY' | 'BO_API_SECRET';

/**
 * A credential variable's value, trimmed; undefined when unset or empty. A CI job whose
 * secrets are not available sets `BO_API_SECRET=` (empty): that counts as not set.
 */
function credentialVariable(env: Env, name: CredentialVariable): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * The credential the environment holds, or null. Half a key pair is an auth error (exit
 * 4, as a credential that does not work), naming the variable that is missing.
 */
export function credentialFromEnv(env: Env): Credential | null {
  const token = credentialVariable(env, 'BO_TOKEN');
  if (token) return { kind: 'token', token };
  const key = credentialVariable(env, 'BO_API_KEY');
  const secret = credentialVariable(env, 'BO_API_SECRET');
  if (key && secret) return { kind: 'apiKey', key, secret };
  if (key || secret) {
    const [set, missing] = key ? ['BO_API_KEY', 'BO_API_SECRET'] : ['BO_API_SECRET', 'BO_API_KEY'];
    throw new AuthError(`${set} is set but ${missing} is not (or is empty): set both, or neither`, { code: 'auth' });
  }
  return null;
}

/** Names of the variables in use, for messages such as `bo logout`'s. */
export function envCredentialNames(env: Env): string[] {
  if (credentialVariable(env, 'BO_TOKEN')) return ['BO_TOKEN'];
  return (['BO_API_KEY', 'BO_API_SECRET'] as const).filter((n) => credentialVariable(env, n));
}

export function createEnvStore(env: Env): CredentialStore {
  const readOnly = () =>
    new UsageError('credentials from the environment (BO_TOKEN, BO_API_KEY, BO_API_SECRET) cannot be changed by bo');
  return {
    backend: 'env',
    location: 'environment',
    async get() {
      return credentialFromEnv(env);
    },
    async set() {
      throw readOnly();
    },
    async delete() {
      throw readOnly();
    },
  };
}
