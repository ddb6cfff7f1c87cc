// Credentials from the environment, for CI: BO_TOKEN (bearer, D2), or BO_API_KEY with
// BO_API_SECRET (D1). They win over stored ones and cannot be changed by `bo`.

import type { CredentialStore } from '../credential-types.js';
import type { Credential } from '../../api/http-types.js';
import { UsageError } from '../../errors.js';
import type { Env } from '../../env.js';

/** The credential the environment holds, or null. A half-set key pair is an error. */
export function credentialFromEnv(env: Env): Credential | null {
  if (env.BO_TOKEN) return { kind: 'token', token: env.BO_TOKEN.trim() };
  const key = env.BO_API_KEY;
  const secret = env.BO_API_SECRET;
  if (key && secret) return { kind: 'apiKey', key: key.trim(), secret: secret.trim() };
  if (key) throw new UsageError('BO_API_KEY is set but BO_API_SECRET is not: set both, or neither');
  if (secret) throw new UsageError('BO_API_SECRET is set but BO_API_KEY is not: set both, or neither');
  return null;
}

/** Names of the variables in use, for messages such as `bo logout`'s. */
export function envCredentialNames(env: Env): string[] {
  if (env.BO_TOKEN) return ['BO_TOKEN'];
  return ['BO_API_KEY', 'BO_API_SECRET'].filter((n) => env[n]);
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
