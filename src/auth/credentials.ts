// Which credential a run uses, and where it is kept. One CredentialStore interface,
// backends chosen per profile: the OS keychain by default, a 0600 file when the profile
// was set up with --insecure-storage, the same file under --sandbox (a token of the
// embedded sandbox opens nothing but the sandbox in the data folder, so a machine with
// no keychain can still sign in to it; every base URL, loopback included, keeps the
// keychain), the environment (read-only, wins over stored
// ones, for CI), and memory for tests. Backends load lazily: the keychain one spawns a
// helper process only when a credential is actually read or written.

import type { Context } from '../context.js';
import type { BackendName, CredentialStore } from './credential-types.js';
import type { Credential } from '../api/http-types.js';
import { updateConfig, type Profile, type ProfileSettings } from '../config/config.js';
import type { Env } from '../env.js';
import { EMBEDDED_SANDBOX_ORIGIN, storedOrigin } from './origin.js';
import { createFileStore, removeCredentialsWhere } from './stores/file.js';
import { credentialFromEnv, envCredentialNames } from './stores/env.js';
import { createKeychainStore } from './stores/keychain.js';

export interface OpenOptions {
  /** --insecure-storage: use the 0600 file, and record that choice for the profile. */
  insecure?: boolean;
  /** --sandbox: the 0600 file, always, without recording anything for the profile. */
  sandbox?: boolean;
}

/** The store of the profile's backend (ctx.credentials() calls this). */
export async function openCredentialStore(env: Env, profile: Profile, options: OpenOptions = {}): Promise<CredentialStore> {
  if (options.sandbox) return openFileStore(env);
  if (options.insecure) return recordingFileStore(env, await openFileStore(env));
  return profile.settings['credential-store'] === 'file' ? openFileStore(env) : openKeychainStore(env);
}

export async function openFileStore(env: Env): Promise<CredentialStore> {
  return createFileStore(env);
}

export async function openKeychainStore(env: Env): Promise<CredentialStore> {
  return createKeychainStore(env);
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
  source: 'env' | 'store' | 'sandbox' | 'none';
  /** 'env', the store's backend (keychain, file, memory), 'sandbox', or 'none'. */
  backend: BackendName | 'none';
  /** Where it came from, for `bo auth status`: a variable name, the keychain, a path. */
  location: string;
  profile: string;
  /**
   * A stored credential's origin (src/auth/origin.ts): recorded with it, else the
   * profile's saved base URL; undefined when neither says (such a credential is
   * refused until the user signs in again).
   */
  origin?: string;
}

export interface ResolveOptions {
  /** Under --sandbox: the sandbox's own API key, used unless a credential is bound to the sandbox. */
  sandboxKey?: () => Promise<Credential>;
}

/**
 * The credential a request would use. Under --sandbox: a stored credential bound to
 * the embedded sandbox, else the sandbox's own key; credentials from the environment
 * belong to a real tenant and never go there (D3). Otherwise the environment's win
 * over the stored one. The keychain is asked only when the profile records that it
 * stored something there: without a keychain, a profile with nothing stored is simply
 * not signed in.
 */
export async function resolveCredential(
  ctx: Pick<Context, 'io' | 'globals' | 'credentials' | 'profile'>,
  options: ResolveOptions = {},
): Promise<ResolvedCredential> {
  const { name: profile, settings } = await ctx.profile();
  if (ctx.globals.sandbox) {
    // A store that cannot be read here does not stop a sandbox run: the sandbox key works.
    const stored = await storedCredential(ctx, profile, settings).catch(() => undefined);
    if (stored?.credential && stored.origin === EMBEDDED_SANDBOX_ORIGIN) return stored;
    if (!options.sandboxKey) return { credential: null, source: 'none', backend: 'none', location: 'embedded sandbox', profile };
    return { credential: await options.sandboxKey(), source: 'sandbox', backend: 'sandbox', location: 'embedded sandbox', profile };
  }
  const fromEnv = credentialFromEnv(ctx.io.env);
  if (fromEnv) {
    return { credential: fromEnv, source: 'env', backend: 'env', location: envCredentialNames(ctx.io.env).join(' + '), profile };
  }
  return storedCredential(ctx, profile, settings);
}

async function storedCredential(
  ctx: Pick<Context, 'credentials'>,
  profile: string,
  settings: ProfileSettings,
): Promise<ResolvedCredential> {
  const store = await ctx.credentials();
  const none: ResolvedCredential = { credential: null, source: 'none', backend: 'none', location: store.location, profile };
  if (store.backend === 'keychain' && !settings['credential-store']) return none;
  const credential = await store.get(profile);
  if (!credential) return none;
  const origin = storedOrigin(credential, settings['base-url']);
  return { credential, source: 'store', backend: store.backend, location: store.location, profile, ...(origin ? { origin } : {}) };
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
export async function forgetCredentials(ctx: Pick<Context, 'io' | 'credentials'>, profile: Profile): Promise<ForgetResult[]> {
  const injected = await injectedStore(ctx);
  // The keychain is asked only when the profile records a stored credential: without a
  // keychain, forgetting a profile that never stored one must still work.
  const recorded = profile.settings['credential-store'] !== undefined;
  const keychain = injected ?? (recorded ? await openKeychainStore(ctx.io.env) : undefined);
  const stores = [...(keychain ? [keychain] : []), await openFileStore(ctx.io.env)];
  const results: ForgetResult[] = [];
  for (const store of stores) {
    try {
      results.push({ backend: store.backend, location: store.location, removed: await store.delete(profile.name) });
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

/**
 * After a credential was stored: the profile records where (so later runs know there
 * is something to read, and a run without a keychain need not ask it) and, for a
 * tenant, the base URL the credential belongs to, replacing an older one. Returns the
 * base URL when it was newly saved, for the caller to say so.
 */
export function rememberStored(env: Env, profile: string, backend: BackendName, baseUrl: string | undefined): string | undefined {
  return updateConfig(env, (cfg) => {
    const settings = (cfg.profiles[profile] ??= {});
    if (!settings['credential-store'] || backend === 'file') settings['credential-store'] = backend === 'file' ? 'file' : 'keychain';
    if (baseUrl === undefined || settings['base-url'] === baseUrl) return undefined;
    settings['base-url'] = baseUrl;
    return baseUrl;
  });
}

/**
 * Forgets the stored credentials bound to the embedded sandbox, of every profile (a
 * reset replaces the key that signed their tokens, so they would only be refused), and
 * returns the profiles it signed out. They are in the 0600 file (or the store a test
 * injected); a keychain is never asked.
 */
export async function forgetSandboxSignIns(ctx: Pick<Context, 'io' | 'credentials' | 'profile'>): Promise<string[]> {
  const removed = removeCredentialsWhere(ctx.io.env, (c) => c.origin === EMBEDDED_SANDBOX_ORIGIN);
  const injected = await injectedStore(ctx);
  if (injected) {
    const { name } = await ctx.profile();
    const credential = await injected.get(name);
    if (credential?.origin === EMBEDDED_SANDBOX_ORIGIN && (await injected.delete(name)) && !removed.includes(name)) removed.push(name);
  }
  return removed;
}

/**
 * `bo --sandbox logout`: forgets the profile's sign-in to the embedded sandbox, from the
 * store --sandbox uses (the 0600 file); a credential of a real tenant stays.
 */
export async function forgetSandboxCredential(ctx: Pick<Context, 'credentials'>, profile: string): Promise<ForgetResult> {
  const store = await ctx.credentials();
  const credential = await store.get(profile);
  const removed = credential?.origin === EMBEDDED_SANDBOX_ORIGIN ? await store.delete(profile) : false;
  return { backend: store.backend, location: store.location, removed };
}
