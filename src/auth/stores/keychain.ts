// The OS keychain through @napi-rs/keyring: macOS Keychain, Windows Credential
// Manager, and on Linux the Secret Service, pinned (never the per-session kernel
// keyring, which silently loses logins). Service "bo", account = profile name,
// secret = JSON of the Credential.
//
// Why a child process: measured with @napi-rs/keyring 2.1, creating an Entry pinned to
// the Secret Service connects to D-Bus synchronously, even for AsyncEntry. On a bus
// that accepts but never answers, that call blocked the event loop for over a minute,
// so no timer could fire. In a worker_thread the timer fires, but a thread stuck in
// native code cannot be terminated and keeps the process from exiting. A child
// process can be killed, so every call runs in one (about 40–70 ms) and is bounded by
// BO_KEYCHAIN_TIMEOUT seconds (default 10). The secret travels over the child's
// stdin/stdout, never its argv, and the child gets the run's own environment.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Credential, CredentialStore } from '../credential-types.js';
import { AuthError, type ErrorDetails } from '../../output/errors.js';
import { parseTimeout } from '../../config/settings.js';
import { parseCredential } from './credential-json.js';

export type Env = Record<string, string | undefined>;

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

// Runs in the child: one operation read as JSON from stdin, the answer as JSON on stdout.
const CHILD = `
const { Entry } = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  let answer;
  try {
    // A parse error would quote the input, and the input may hold the secret.
    let req;
    try { req = JSON.parse(input); } catch { throw new Error('malformed request from bo'); }
    const entry = new Entry(req.service, req.account, { linux: { store: 'secret-service' } });
    if (req.op === 'get') answer = { ok: true, value: entry.getPassword() };
    else if (req.op === 'set') answer = { ok: true, value: (entry.setPassword(req.value), null) };
    else answer = { ok: true, value: entry.deleteCredential() };
  } catch (err) {
    answer = { ok: false, message: String((err && err.message) || err) };
  }
  process.stdout.write(JSON.stringify(answer));
});`;

type Request = { op: 'get' } | { op: 'set'; value: string } | { op: 'delete' };
type Answer = { ok: true; value: unknown } | { ok: false; message: string };

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

  const call = async (account: string, request: Request): Promise<unknown> => {
    let modulePath: string;
    try {
      modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch {
      throw new KeychainUnavailableError('the @napi-rs/keyring module is not installed');
    }
    const childEnv = { ...env };
    // Debugger or loader flags meant for `bo` itself must not apply to the helper.
    delete childEnv.NODE_OPTIONS;
    const answer = await runChild(modulePath, childEnv, { ...request, service: KEYCHAIN_SERVICE, account }, timeoutMs);
    if (!answer.ok) throw classify(answer.message, name);
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

function classify(message: string, name: string): AuthError {
  // Messages from keyring-rs name the platform failure; none of them carries the secret.
  const detail = message.replace(/\s+/g, ' ').trim();
  if (/ambiguous/i.test(detail)) {
    return new AuthError(`the keychain holds more than one "${KEYCHAIN_SERVICE}" item for this profile (${detail})`);
  }
  return new KeychainUnavailableError(`${name}: ${detail}`);
}

function runChild(modulePath: string, env: Env, request: object, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, modulePath], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new KeychainUnavailableError(`no answer within ${timeoutMs / 1000} s; BO_KEYCHAIN_TIMEOUT sets the limit`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new KeychainUnavailableError(`cannot start the keychain helper: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out) as Answer);
      } catch {
        const firstLine = err.split('\n').find((l) => /error/i.test(l)) ?? `exit code ${code}`;
        reject(new KeychainUnavailableError(`the keychain helper failed: ${firstLine.trim()}`));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(request));
  });
}
