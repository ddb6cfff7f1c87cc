// Which credential a run uses, and where it is kept. One CredentialStore interface,
// backends chosen per profile: the OS keychain by default, a 0600 file when the profile
// was set up with --insecure-storage, the environment (read-only, wins over stored
// ones, for CI), and memory for tests. Backends load lazily: the keychain one spawns a
// helper process only when a credential is actually read or written.

import type { Context, Globals, Io } from '../context.js';
import type { BackendName, Credential, CredentialStore } from './credential-types.js';
import { currentProfileName, loadConfig, profileSettings, updateConfig, type Env } from '../config/config.js';

export interface OpenOptions {
  /** --insecure-storage: use the 0600 file, and record that choice for the profile. */
  insecure?: boolean;
}

/** The store of the current profile's backend (ctx.credentials() calls this). */
export async function openCredentialStore(io: Io, globals: Globals, options: OpenOptions = {}): Promise<CredentialStore> {
  const cfg = loadConfig(io.env);
  const profile = currentProfileName(globals, cfg);
  if (options.insecure) return recordingFileStore(io.env, await openFileStore(io.env));
  return profileSettings(cfg, profile)['credential-store'] === 'file' ? openFileStore(io.env) : openKeychainStore(io.env);
}

export async function openFileStore(env: Env): Promise<CredentialStore> {
  return (await import('./stores/file.js')).createFileStore(env);
}

export async function openKeychainStore(env: Env): Promise<CredentialStore> {
  return (await import('./stores/keychain.js')).createKeychainStore(env);
}

/**
 * The profile's backend becomes `file` once a credential is stored there, not when the
 * store is opened: a login that fails leaves the profile as it was. The profile is
 * marked first and the secret written second, so a crash in between leaves a profile
 * pointing at an empty slot, never a secret in the file that no profile points at.
 */
function recordingFileStore(env: Env, file: CredentialStore): CredentialStore {
  const mark = (profile: string, store: 'keychain' | 'file' | undefined) =>
    updateConfig(env, (cfg) => {
      const settings = (cfg.profiles[profile] ??= {});
      const before = settings['credential-store'];
      if (store === undefined) delete settings['credential-store'];
      else settings['credential-store'] = store;
      return before;
    });
  return {
    backend: file.backend,
    location: file.location,
    get: (profile) => file.get(profile),
    delete: (profile) => file.delete(profile),
    async set(profile, credential) {
      const before = mark(profile, 'file');
      try {
        await file.set(profile, credential);
      } catch (err) {
        if (before !== 'file') mark(profile, before);
        throw err;
      }
    },
  };
}

export interface ResolvedCredential {
  credential: Credential | null;
  source: 'env' | 'store' | 'none';
  /** 'env', the store's backend (keychain, file, memory), or 'none'. */
  backend: BackendName | 'none';
  /** Where it came from, for `bo auth status`: a variable name, the keychain, a path. */
  location: string;
  profile: string;
}

/** The credential a request would use: the environment's wins over the stored one. */
export async function resolveCredential(ctx: Pick<Context, 'io' | 'globals' | 'credentials'>): Promise<ResolvedCredential> {
  const { credentialFromEnv, envCredentialNames } = await import('./stores/env.js');
  const profile = currentProfileName(ctx.globals, loadConfig(ctx.io.env));
  const fromEnv = credentialFromEnv(ctx.io.env);
  if (fromEnv) {
    return { credential: fromEnv, source: 'env', backend: 'env', location: envCredentialNames(ctx.io.env).join(' + '), profile };
  }
  const store = await ctx.credentials();
  const credential = await store.get(profile);
  return credential
    ? { credential, source: 'store', backend: store.backend, location: store.location, profile }
    : { credential: null, source: 'none', backend: 'none', location: store.location, profile };
}

export interface ForgetResult {
  backend: BackendName;
  location: string;
  removed: boolean;
  /** Set when the backend could not be reached; nothing was removed there. */
  error?: Error;
}

/**
 * Removes a profile's stored credential from every backend that may hold it: the
 * keychain (or the store a test injected in its place) and the file. A backend that
 * cannot be reached is reported in the result, not thrown, so the caller decides.
 */
export async function forgetCredentials(ctx: Pick<Context, 'io' | 'credentials'>, profile: string): Promise<ForgetResult[]> {
  const injected = await injectedStore(ctx);
  const stores = [injected ?? (await openKeychainStore(ctx.io.env)), await openFileStore(ctx.io.env)];
  const results: ForgetResult[] = [];
  for (const store of stores) {
    try {
      results.push({ backend: store.backend, location: store.location, removed: await store.delete(profile) });
    } catch (err) {
      results.push({ backend: store.backend, location: store.location, removed: false, error: err as Error });
    }
  }
  return results;
}

/** A memory store passed to run() by a test stands in for the OS keychain. */
async function injectedStore(ctx: Pick<Context, 'credentials'>): Promise<CredentialStore | undefined> {
  try {
    const store = await ctx.credentials();
    return store.backend === 'memory' ? store : undefined;
  } catch {
    return undefined;
  }
}
