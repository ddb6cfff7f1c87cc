// The --insecure-storage backend: `<config dir>/credentials.json`, mode 0600, one
// credential per profile. Plain text on disk, so it is used only when a profile's
// `credential-store` setting is `file`, which only an explicit `--insecure-storage`
// sets. Every set and delete takes the file's lock (the one the config file uses),
// re-reads the file, changes one profile and writes atomically: concurrent `bo`
// processes never lose each other's credentials. Temp files left by a writer that was
// killed are removed under the lock, so no copy of a secret outlives it.

import { chmodSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CredentialStore } from '../credential-types.js';
import type { Credential } from '../../api/http-types.js';
import { configDir, makeConfigFolder } from '../../config/config.js';
import type { Env } from '../../env.js';
import { removeStaleTemps, writeFileAtomic } from '../../files/atomic-file.js';
import { readTextIfExists } from '../../files/regular-file.js';
import { SHORT_LOCK, withFileLockSync } from '../../files/locked-file.js';
import { AuthError, BoError } from '../../errors.js';
import { asCredential } from './credential-json.js';

interface FileShape {
  profiles: Record<string, unknown>;
  [other: string]: unknown;
}

export function credentialsFilePath(env: Env): string {
  return join(configDir(env), 'credentials.json');
}

/**
 * Removes every profile's credential that `matches` (a sandbox reset forgets the
 * sign-ins its new signing key voids); returns the profiles it removed, [] when there
 * is no file. An entry that is not a credential is left alone.
 */
export function removeCredentialsWhere(env: Env, matches: (credential: Credential) => boolean): string[] {
  const path = credentialsFilePath(env);
  if (!existsSync(path)) return [];
  return withFileLockSync(
    path,
    () => {
      removeStaleTemps(path);
      const data = readCredentialsFile(path);
      const removed = Object.keys(data.profiles).filter((name) => {
        const credential = asCredential(data.profiles[name]);
        return credential !== undefined && matches(credential);
      });
      if (removed.length === 0) return removed;
      for (const name of removed) delete data.profiles[name];
      writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
      chmodSync(path, 0o600);
      return removed;
    },
    { what: 'the credentials file', ...SHORT_LOCK },
  );
}

function readCredentialsFile(path: string): FileShape {
  let text: string | undefined;
  try {
    text = readTextIfExists(path, 'the credentials file');
  } catch (err) {
    if (err instanceof BoError) throw err;
    throw new AuthError(`cannot read the credentials file ${path}: ${(err as Error).message}`);
  }
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message may quote part of the file, which holds secrets.
    throw new AuthError(`the credentials file ${path} is not valid JSON; fix or remove it`);
  }
  const profiles = (data as FileShape | null)?.profiles;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw new AuthError(`the credentials file ${path} has no "profiles" object; fix or remove it`);
  }
  return data as FileShape;
}

export function createFileStore(env: Env): CredentialStore {
  const path = credentialsFilePath(env);

  const read = (): FileShape => readCredentialsFile(path);

  /** Lock, re-read, change, write atomically, unlock; `change` says whether to write. */
  const update = <T>(change: (data: FileShape) => { write: boolean; result: T }): T => {
    makeConfigFolder(env);
    return withFileLockSync(
      path,
      () => {
        removeStaleTemps(path);
        const data = read();
        const { write, result } = change(data);
        if (write) {
          writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
          // An older file may have been created with looser permissions by hand.
          chmodSync(path, 0o600);
        }
        return result;
      },
      { what: 'the credentials file', ...SHORT_LOCK },
    );
  };

  return {
    backend: 'file',
    location: path,
    async get(profile) {
      const data = read();
      if (!Object.hasOwn(data.profiles, profile)) return null;
      const credential = asCredential(data.profiles[profile]);
      if (!credential) {
        throw new AuthError(`the credentials file ${path} holds no valid credential for profile "${profile}"`, {
          hint: `remove it with: bo -p ${profile} logout`,
        });
      }
      return credential;
    },
    async set(profile, credential: Credential) {
      update((data) => {
        data.profiles[profile] = credential;
        return { write: true, result: undefined };
      });
    },
    async delete(profile) {
      // No config folder, no file: nothing to remove, and no folder to create for a lock.
      if (!existsSync(dirname(path))) return false;
      return update((data) => {
        if (!Object.hasOwn(data.profiles, profile)) return { write: false, result: false };
        delete data.profiles[profile];
        return { write: true, result: true };
      });
    },
  };
}
