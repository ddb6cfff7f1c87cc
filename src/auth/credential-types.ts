// The one interface every storage backend implements (keychain, 0600 file, environment,
// memory for tests). The credential kinds themselves are the HTTP core's (api/http-types.ts).

import type { Credential } from '../api/http-types.js';

/** 'sandbox': the embedded sandbox's own API key, used under --sandbox. */
export type BackendName = 'keychain' | 'file' | 'env' | 'memory' | 'sandbox';

export interface CredentialStore {
  /** Named in `bo auth status`. */
  readonly backend: BackendName;
  /** Human description, e.g. "Secret Service (gnome-keyring)" or the file path. */
  readonly location: string;
  get(profile: string): Promise<Credential | null>;
  set(profile: string, credential: Credential): Promise<void>;
  /** True when something was removed. */
  delete(profile: string): Promise<boolean>;
}
