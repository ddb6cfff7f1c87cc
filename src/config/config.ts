// The config file: profiles and their settings, never a secret.
//
// Our own small module rather than the `conf` package: importing `conf` (ajv, atomically,
// dot-prop …) costs about 130 ms on every command, while all we need is one JSON file
// read with readFileSync and written atomically (atomic-file.ts).
//
// A file that cannot be read or parsed is reported with its path and left untouched:
// it holds what a user typed, and overwriting it with defaults would lose it.

import { join, isAbsolute } from 'node:path';
import type { Globals } from '../context.js';
import { UsageError } from '../output/errors.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';
import { parseApiKeyScheme, parseBaseUrl, parseProfileName, parseTimeout } from './settings.js';

export type Env = Record<string, string | undefined>;

export interface ProfileSettings {
  'base-url'?: string;
  'api-key-scheme'?: string;
  /** Seconds. */
  timeout?: number;
  /** Where the profile's credential lives; absent means the OS keychain. */
  'credential-store'?: 'keychain' | 'file';
  /** Keys written by a newer `bo` are kept as they are. */
  [other: string]: unknown;
}

export interface BoConfig {
  currentProfile?: string;
  profiles: Record<string, ProfileSettings>;
  [other: string]: unknown;
}

/** The folder of config.json and the --insecure-storage credentials file. */
export function configDir(env: Env): string {
  if (env.BO_CONFIG_DIR) return env.BO_CONFIG_DIR;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'bo');
  const home = env.HOME || env.USERPROFILE;
  if (!home) throw new UsageError('cannot find the config folder: set HOME or BO_CONFIG_DIR');
  return join(home, '.config', 'bo');
}

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

export function loadConfig(env: Env): BoConfig {
  const path = configPath(env);
  let text: string | undefined;
  try {
    text = readTextIfExists(path);
  } catch (err) {
    throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the config file ${path} is not valid JSON (${(err as Error).message}); fix or remove it`);
  }
  return checkConfig(data, path);
}

function checkConfig(data: unknown, path: string): BoConfig {
  const bad = (what: string) => new UsageError(`the config file ${path} is invalid: ${what}; fix or remove it`);
  if (!isObject(data)) throw bad('it is not a JSON object');
  const profiles = data.profiles ?? {};
  if (!isObject(profiles)) throw bad('"profiles" is not an object');
  if (data.currentProfile !== undefined && typeof data.currentProfile !== 'string') {
    throw bad('"currentProfile" is not a string');
  }
  for (const [name, settings] of Object.entries(profiles)) {
    if (!isObject(settings)) throw bad(`profile "${name}" is not an object`);
    const key = (k: string) => `profile "${name}" key "${k}"`;
    try {
      if (settings['base-url'] !== undefined) parseBaseUrl(String(settings['base-url']), key('base-url'));
      if (settings['api-key-scheme'] !== undefined) parseApiKeyScheme(String(settings['api-key-scheme']), key('api-key-scheme'));
      if (settings.timeout !== undefined) {
        if (typeof settings.timeout !== 'number') throw new UsageError(`${key('timeout')} must be a number`);
        parseTimeout(settings.timeout, key('timeout'));
      }
      const store = settings['credential-store'];
      if (store !== undefined && store !== 'keychain' && store !== 'file') {
        throw new UsageError(`${key('credential-store')} must be "keychain" or "file"`);
      }
    } catch (err) {
      throw bad((err as Error).message);
    }
  }
  return { ...data, profiles } as BoConfig;
}

export function saveConfig(env: Env, cfg: BoConfig): void {
  writeFileAtomic(configPath(env), `${JSON.stringify(cfg, null, 2)}\n`);
}

/** -p / BO_PROFILE, then the config's current profile, then "default". */
export function currentProfileName(globals: Pick<Globals, 'profile'>, cfg: BoConfig): string {
  if (globals.profile) return parseProfileName(globals.profile, '--profile');
  if (cfg.currentProfile) return parseProfileName(cfg.currentProfile, 'currentProfile in the config file');
  return 'default';
}

/** The stored settings of a profile; an unknown profile has none. */
export function profileSettings(cfg: BoConfig, name: string): ProfileSettings {
  return Object.hasOwn(cfg.profiles, name) ? cfg.profiles[name]! : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Read the config, change it, write it back; returns what `mutate` returns. Every
 * write of the config goes through here (re-read just before the change, so a value
 * another run saved meanwhile is kept).
 */
export function updateConfig<T>(env: Env, mutate: (cfg: BoConfig) => T): T {
  const cfg = loadConfig(env);
  const r = mutate(cfg);
  saveConfig(env, cfg);
  return r;
}
