// A store that lives as long as the process: tests pass it to run() as `credentials`
// so commands can be exercised without a keychain.

import type { CredentialStore } from '../credential-types.js';
import type { Credential } from '../../api/http-types.js';

export function createMemoryStore(initial: Record<string, Credential> = {}): CredentialStore & {
  /** What is held now, for tests to assert on. */
  readonly items: Map<string, Credential>;
} {
  const items = new Map(Object.entries(initial));
  return {
    backend: 'memory',
    location: 'memory (tests)',
    items,
    async get(profile) {
      return items.get(profile) ?? null;
    },
    async set(profile, credential) {
      items.set(profile, structuredClone(credential));
    },
    async delete(profile) {
      return items.delete(profile);
    },
  };
}
