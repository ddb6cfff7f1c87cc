// The keychain read of a command's credential, started by bin/bo.js before it loads
// the bundle, so that it runs beside the start-up instead of after it: on Linux the
// in-process Secret Service read (keychain-read.ts), else the library's helper process
// (40-70 ms, src/auth/stores/keychain.ts). Built alone into dist/keychain-early.cjs.
//
// Started only when the run would read that item anyway: a command that talks to the
// API, no credential in the environment, no --help, not the sandbox, and a profile
// whose config records a credential in the keychain. Anything unexpected (a config
// that does not load, an odd argument) means no early read: `bo` then reads the
// keychain as before. A guess that turns out wrong costs only that read's time:
// keychain.ts takes the early answer only for the same item and time limit, and the
// read never keeps `bo` running unless taken.

import { scanArgv } from '../../argv-scan.js';
import { currentProfileName, loadConfig, profileSettings } from '../../config/config.js';
import { EARLY_READ, KEYCHAIN_SERVICE, keychainTimeoutMs, type EarlyKeychainRead } from './keychain.js';
import type { Env } from '../../env.js';
import { startKeychainGet } from './keychain-read.js';

/** Command groups that send requests with the profile's credential. */
const API_COMMANDS = new Set([
  'accounts', 'addons', 'api', 'articles', 'broadcasts', 'coupons', 'deals', 'drips', 'lists', 'memberships', 'payment-info', 'people', 'subscriptions',
]);

/**
 * Starts the read when this run is going to make it; leaves it where keychain.ts finds
 * it and returns a function that kills the helper (for bin/bo.js at exit), else undefined.
 */
export function startEarlyKeychainRead(argv: string[], env: Env, resolveKeyring: () => string): (() => void) | undefined {
  try {
    if (env.BO_TOKEN || env.BO_API_KEY || env.BO_API_SECRET || (env.BO_SANDBOX && env.BO_SANDBOX !== '0')) return undefined;
    const { command, profile: flag, help } = scanArgv(argv);
    if (help || !command || !API_COMMANDS.has(command) || argv.includes('--sandbox')) return undefined;
    const cfg = loadConfig(env);
    const profile = currentProfileName({ profile: flag || env.BO_PROFILE || '' }, cfg);
    if (profileSettings(cfg, profile)['credential-store'] !== 'keychain') return undefined;
    const timeoutMs = keychainTimeoutMs(env);
    const call = startKeychainGet(resolveKeyring, env, { service: KEYCHAIN_SERVICE, account: profile }, timeoutMs, true);
    const early: EarlyKeychainRead = { service: KEYCHAIN_SERVICE, account: profile, timeoutMs, call };
    (globalThis as { [EARLY_READ]?: EarlyKeychainRead })[EARLY_READ] = early;
    return call.stop;
  } catch {
    return undefined;
  }
}
