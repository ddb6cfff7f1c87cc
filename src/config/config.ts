// The config file: profiles and their settings, never a secret.
//
// Our own small module rather than the `conf` package: importing `conf` (ajv, atomically,
// dot-prop …) costs about 130 ms on every command, while all we need is one JSON file
// read in one go (src/files/regular-file.ts) and written atomically (src/files/atomic-file.ts).
//
// Every change goes through updateConfig: under the file's lock (src/files/
// locked-file.ts, shared with the credentials file and the sandbox state file) it
// re-reads the file, applies the change and writes it atomically, so concurrent `bo`
// processes never lose each other's writes.
//
// A file that cannot be read or parsed is reported with its path and left untouched:
// it holds what a user typed, and overwriting it with defaults would lose it. A setting
// with a bad value is named, with the command that repairs it; updateConfig keeps such
// values as they are, so `bo config set/unset` can still repair them.

import { join, isAbsolute } from 'node:path';
import { BoError, UsageError } from '../errors.js';
import { removeStaleTemps, writeFileAtomic } from '../files/atomic-file.js';
import { makeFolder, type BoFolder } from '../files/bo-folder.js';
import { readTextIfExists } from '../files/regular-file.js';
import { SHORT_LOCK, withFileLockSync } from '../files/locked-file.js';
import { parseMaxResponseMb } from '../api/response-cap.js';
import { CSV_SEPARATOR_SETTINGS, parseApiKeyScheme, parseBaseUrl, parseProfileName, parseTimeout } from './settings.js';
import type { Env } from '../env.js';

export interface ProfileSettings {
  'base-url'?: string;
  'api-key-scheme'?: string;
  /** Seconds. */
  timeout?: number;
  /** A PEM file of certificate authorities trusted as well as Node's (absolute path). */
  'ca-file'?: string;
  /** Where the profile's stored credential lives; absent means none is stored (the keychain is not asked). */
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
  return configFolder(env).path;
}

/** configDir, with what creating it needs (src/files/bo-folder.ts). */
function configFolder(env: Env): BoFolder {
  const folder = { variable: 'BO_CONFIG_DIR', holds: "bo's settings" };
  if (env.BO_CONFIG_DIR) return { ...folder, path: env.BO_CONFIG_DIR };
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return { ...folder, path: join(env.XDG_CONFIG_HOME, 'bo') };
  const home = env.HOME || env.USERPROFILE;
  if (!home) throw new UsageError('cannot find the config folder: set HOME or BO_CONFIG_DIR');
  return { ...folder, path: join(home, '.config', 'bo'), home };
}

/** Creates the config folder before a file is written there; never a missing home folder. */
export function makeConfigFolder(env: Env): void {
  makeFolder(configFolder(env));
}

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** The config, every setting checked: a bad value is named with the command that fixes it. */
export function loadConfig(env: Env): BoConfig {
  const path = configPath(env);
  const cfg = readConfig(path);
  checkSettings(cfg, path);
  return cfg;
}

/**
 * Changes the config file without losing a concurrent writer's change: takes the lock,
 * re-reads the file, calls `mutate` on it, writes the result atomically, releases.
 * `mutate` must be synchronous and quick; what it returns is returned. Settings with
 * bad values are kept as they are unless `mutate` changes them (so it can repair them).
 */
export function updateConfig<T>(env: Env, mutate: (cfg: BoConfig) => T): T {
  const path = configPath(env);
  makeConfigFolder(env);
  return withFileLockSync(
    path,
    () => {
      // Temp files of writers that were killed before their rename go with the next write.
      removeStaleTemps(path);
      const cfg = readConfig(path);
      const result = mutate(cfg);
      writeFileAtomic(path, `${JSON.stringify(cfg, null, 2)}\n`);
      return result;
    },
    { what: 'the config file', ...SHORT_LOCK },
  );
}

/** The file's JSON with its shape checked (objects where objects belong), values not. */
function readConfig(path: string): BoConfig {
  let text: string | undefined;
  try {
    text = readTextIfExists(path, 'the config file');
  } catch (err) {
    if (err instanceof BoError) throw err;
    throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the config file ${path} is not valid JSON (${(err as Error).message}); fix or remove it`);
  }
  const bad = (what: string) => new UsageError(`the config file ${path} is invalid: ${what}; fix or remove it`);
  if (!isObject(data)) throw bad('it is not a JSON object');
  const profiles = data.profiles ?? {};
  if (!isObject(profiles)) throw bad('"profiles" is not an object');
  if (data.currentProfile !== undefined && typeof data.currentProfile !== 'string') {
    throw bad('"currentProfile" is not a string');
  }
  for (const [name, settings] of Object.entries(profiles)) {
    if (!isObject(settings)) throw bad(`profile "${name}" is not an object`);
  }
  return { ...data, profiles } as BoConfig;
}

/**
 * Every setting of every profile, checked as `bo config set` would store it: its JSON type
 * too (`"protected": "true"` is a string, which bo would not act on as true), so that
 * what `config get` and `config list` print is what bo acts on. A bad one is named with
 * the command that repairs it.
 */
function checkSettings(cfg: BoConfig, path: string): void {
  for (const [name, settings] of Object.entries(cfg.profiles)) {
    const key = (k: string) => `profile "${name}" key "${k}"`;
    /** `key "protected" must be true or false, without quotes, got "true"`: the value as it stands in the file. */
    const got = (k: string) => `got ${JSON.stringify(settings[k])}`;
    const check = (k: string, validate: () => void) => {
      if (settings[k] === undefined) return;
      try {
        validate();
      } catch (err) {
        throw new UsageError(`the config file ${path} has an invalid setting: ${(err as Error).message}`, {
          hint:
            k === 'credential-store'
              ? 'fix or remove that key in the file'
              : `fix it with: bo -p ${name} config unset ${k}, or bo -p ${name} config set ${k} <value>`,
        });
      }
    };
    /** A string, as `config set` stores this key. */
    const text = (k: string, what: string): string => {
      const value = settings[k];
      if (typeof value !== 'string') throw new UsageError(`${key(k)} must be ${what}, in quotes, ${got(k)}`);
      return value;
    };
    check('base-url', () => parseBaseUrl(text('base-url', 'a URL'), key('base-url')));
    check('api-key-scheme', () => parseApiKeyScheme(text('api-key-scheme', 'one word'), key('api-key-scheme')));
    check('timeout', () => {
      if (typeof settings.timeout !== 'number') throw new UsageError(`${key('timeout')} must be a number, without quotes, ${got('timeout')}`);
      parseTimeout(settings.timeout, key('timeout'));
    });
    check('max-response-mb', () => {
      const mb = settings['max-response-mb'];
      if (typeof mb !== 'number') throw new UsageError(`${key('max-response-mb')} must be a number, without quotes, ${got('max-response-mb')}`);
      parseMaxResponseMb(mb, key('max-response-mb'));
    });
    check('protected', () => {
      if (typeof settings.protected !== 'boolean') throw new UsageError(`${key('protected')} must be true or false, without quotes, ${got('protected')}`);
    });
    check('ca-file', () => {
      const file = settings['ca-file'];
      if (typeof file !== 'string' || file === '') throw new UsageError(`${key('ca-file')} must be the path of a PEM file`);
    });
    check('journal', () => {
      // Exactly as `config set` stores it: the journal is off for "off" alone.
      if (settings.journal !== 'on' && settings.journal !== 'off') throw new UsageError(`${key('journal')} must be "on" or "off", ${got('journal')}`);
    });
    check('csv-separator', () => {
      const separator = settings['csv-separator'];
      if (typeof separator !== 'string' || !(CSV_SEPARATOR_SETTINGS as readonly string[]).includes(separator)) {
        throw new UsageError(`${key('csv-separator')} must be ",", ";" or "tab", ${got('csv-separator')}`);
      }
    });
    check('csv-bom', () => {
      if (typeof settings['csv-bom'] !== 'boolean') throw new UsageError(`${key('csv-bom')} must be true or false, without quotes, ${got('csv-bom')}`);
    });
    check('credential-store', () => {
      const store = settings['credential-store'];
      if (store !== 'keychain' && store !== 'file') throw new UsageError(`${key('credential-store')} must be "keychain" or "file"`);
    });
  }
}

/** -p / BO_PROFILE, then the config's current profile, then "default". */
export function currentProfileName(globals: { profile: string }, cfg: BoConfig): string {
  if (globals.profile) return parseProfileName(globals.profile, '--profile');
  if (cfg.currentProfile) return parseProfileName(cfg.currentProfile, 'currentProfile in the config file');
  return 'default';
}

/** The profile a run acts on: its name and its saved settings (what Context.profile() gives). */
export interface Profile {
  name: string;
  settings: ProfileSettings;
}

/** Reads the config once and picks the profile in effect (-p, BO_PROFILE, the current one, "default"). */
export function readProfile(env: Env, globals: { profile: string }): Profile {
  const cfg = loadConfig(env);
  const name = currentProfileName(globals, cfg);
  return { name, settings: profileSettings(cfg, name) };
}

/** The stored settings of a profile; an unknown profile has none. */
export function profileSettings(cfg: BoConfig, name: string): ProfileSettings {
  return Object.hasOwn(cfg.profiles, name) ? cfg.profiles[name]! : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
