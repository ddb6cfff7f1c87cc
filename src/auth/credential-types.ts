// The credential kinds `bo` can hold, and the one interface every storage backend
// implements (keychain, 0600 file, environment, memory for tests).

export type Credential =
  | {
      kind: 'token';
      /** A JWT access token (D5). */
      token: string;
      /** ISO date-time when it expires, from expires_in at login. */
      expiresAt?: string;
      /** Who signed in, for `bo auth status` without decoding. */
      username?: string;
      /** The origin it was issued by (src/auth/origin.ts); absent in credentials stored by older versions. */
      origin?: string;
    }
  | {
      kind: 'apiKey';
      key: string;
      secret: string;
      /** The origin it was stored against (src/auth/origin.ts); absent in older credentials. */
      origin?: string;
    };

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
