// The OS keychain through @napi-rs/keyring: macOS Keychain, Windows Credential
// Manager, and on Linux the Secret Service, pinned (never the per-session kernel
// keyring, which silently loses logins). Service "bo", account = profile name,
// secret = JSON of the Credential.
//
// Why a child process: creating an Entry pinned to the Secret Service connects to D-Bus
// synchronously, and a bus that accepts but never answers blocked the event loop for
// over a minute; a child can be killed, so every library call runs in one, bounded by
// BO_KEYCHAIN_TIMEOUT seconds (default 10). A read on Linux first asks the Secret
// Service in-process (keychain-read.ts); the helper remains for writes, other platforms
// and every case that reader leaves to the library. The secret travels over the child's
// stdin/stdout, never its argv (keychain-child.ts). Measurements: docs/performance-notes.md.

import type { CredentialStore } from '../credential-types.js';
import type { Credential } from '../../api/http-types.js';
import { AuthError, type ErrorDetails } from '../../errors.js';
import { parseTimeout } from '../../config/settings.js';
import { parseCredential } from './credential-json.js';
import { startKeychainChild, type ChildResult, type KeychainCall, type KeychainRequest } from './keychain-child.js';
import { startKeychainGet } from './keychain-read.js';
import type { Env } from '../../env.js';

export const KEYCHAIN_SERVICE = 'bo';

/** The keychain cannot be used here: no D-Bus, no Secret Service, locked, too slow. */
export class KeychainUnavailableError extends AuthError {
  constructor(detail: string, details: ErrorDetails = {}) {
    super(`the OS keychain is not available (${detail})`, {
      code: 'keychain_unavailable',
      hint:
        'pass --insecure-storage to keep the credential in a 0600 file in the config folder instead, ' +
        'or set BO_TOKEN (or BO_API_KEY and BO_API_SECRET) in the environment',
      ...details,
    });
  }
}

export function keychainTimeoutMs(env: Env): number {
  const text = env.BO_KEYCHAIN_TIMEOUT;
  if (text === undefined || text === '') return 10_000;
  // 0.1 s to 24 h, like every timeout: past Node's timer limit it would fire at once.
  return parseTimeout(text, 'BO_KEYCHAIN_TIMEOUT') * 1000;
}

function describe(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

export function createKeychainStore(env: Env): CredentialStore {
  const timeoutMs = keychainTimeoutMs(env);
  const name = describe(process.platform);

  const call = async (account: string, request: KeychainRequest): Promise<unknown> => {
    const running: KeychainCall =
      request.op === 'get'
        ? startKeychainGet(env, { service: KEYCHAIN_SERVICE, account }, timeoutMs)
        : startKeychainChild(env, { ...request, service: KEYCHAIN_SERVICE, account }, timeoutMs);
    const answer = await running.result;
    if ('failed' in answer) throw childFailure(answer);
    if (!answer.ok) throw classify(answer.message, name, account);
    return answer.value;
  };

  return {
    backend: 'keychain',
    location: `${name} (service "${KEYCHAIN_SERVICE}")`,
    async get(profile): Promise<Credential | null> {
      const value = await call(profile, { op: 'get' });
      if (value === null || value === undefined) return null;
      const credential = typeof value === 'string' ? parseCredential(value) : undefined;
      if (!credential) {
        throw new AuthError(`the keychain item for profile "${profile}" (service "${KEYCHAIN_SERVICE}") is not a bo credential`, {
          hint: `remove it with: bo -p ${profile} logout`,
        });
      }
      return credential;
    },
    async set(profile, credential) {
      await call(profile, { op: 'set', value: JSON.stringify(credential) });
    },
    async delete(profile) {
      return (await call(profile, { op: 'delete' })) === true;
    },
  };
}

function classify(message: string, name: string, profile: string): AuthError {
  // Messages from keyring-rs name the platform failure; none of them carries the secret.
  const detail = message.replace(/\s+/g, ' ').trim();
  // keyring-rs: "Entry is matched by 2 credentials: [Entry { … path … }]" — the count is
  // what a user can act on, not the debug dump of the items' D-Bus paths.
  const ambiguous = /matched by (\d+) credentials|ambiguous/i.exec(detail);
  if (ambiguous) {
    return new AuthError(`the keychain holds ${ambiguous[1] ?? 'several'} items for service "${KEYCHAIN_SERVICE}" and profile "${profile}"; bo cannot tell which one is its own`, {
      // The library refuses to delete them too, so `bo logout` cannot help here.
      hint: `remove them with a keyring manager (Seahorse), or: secret-tool clear service ${KEYCHAIN_SERVICE} username ${profile}; then sign in again`,
    });
  }
  // Two D-Bus answers a user cannot act on, said in plain words.
  if (/not provided by any \.service files|ServiceUnknown/i.test(detail)) {
    return new KeychainUnavailableError(`${name}: no Secret Service is running on the session bus (gnome-keyring, KeePassXC …)`);
  }
  if (/did not receive a reply|NoReply/i.test(detail)) {
    return new KeychainUnavailableError(`${name}: the Secret Service did not answer`);
  }
  return new KeychainUnavailableError(`${name}: ${detail}`);
}

function childFailure(result: Extract<ChildResult, { failed: string }>): KeychainUnavailableError {
  if (result.failed === 'timeout') return new KeychainUnavailableError(result.detail);
  if (result.failed === 'spawn') return new KeychainUnavailableError(`cannot start the keychain helper: ${result.detail}`);
  if (result.failed === 'module') return new KeychainUnavailableError(result.detail);
  return new KeychainUnavailableError(`the keychain helper failed: ${result.detail}`);
}
