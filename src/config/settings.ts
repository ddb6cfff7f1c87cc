// The per-profile settings a user may change with `bo config`, and their validators.
// Every message names the key, so a typo in a script is caught at once (exit 2).

import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { checkNotApiRoot, redactUserInfo } from '../api/base-url.js';
import { parseMaxResponseMb } from '../api/response-cap.js';

export const SETTING_KEYS = ['base-url', 'api-key-scheme', 'timeout', 'max-response-mb', 'protected', 'ca-file', 'journal', 'csv-separator', 'csv-bom'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** "base-url, api-key-scheme, … or protected", for help texts that name every key. */
export const SETTING_KEYS_TEXT = `${SETTING_KEYS.slice(0, -1).join(', ')} or ${SETTING_KEYS[SETTING_KEYS.length - 1]}`;

/** Defaults applied when a profile leaves a key unset (D1; COMMANDS.md --timeout). */
export const SETTING_DEFAULTS: Partial<Record<SettingKey, string | number | boolean>> = {
  'api-key-scheme': 'bo',
  timeout: 30,
  'max-response-mb': 32,
  protected: false,
  journal: 'on',
  'csv-separator': ',',
  'csv-bom': false,
};

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

export function assertSettingKey(key: string): SettingKey {
  if (!isSettingKey(key)) {
    throw new UsageError(`unknown config key "${key}"; valid keys: ${SETTING_KEYS.join(', ')}`);
  }
  return key;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * D3: https, or http on a loopback host only (the sandbox). The trailing slash is
 * dropped so `<url>/api/v1` is built one way. User info is refused: it would put a
 * secret in the config file.
 */
export function parseBaseUrl(text: string, name = 'base-url'): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${name} must be a URL such as https://acme.example.com, got "${redactUserInfo(text)}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    throw new UsageError(`${name} must use https:// (http:// only for localhost), got "${redactUserInfo(text)}"`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${name} must not contain a user name or password; use bo login or bo auth set-key`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${name} must not have a query or fragment, got "${redactUserInfo(text)}"`);
  }
  checkNotApiRoot(url, name);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** What messages call the base URL given: the flag or BO_BASE_URL, else the profile's setting. */
export function baseUrlName(given: string | undefined, env: Record<string, string | undefined>): string {
  if (given === undefined) return 'base-url';
  return given === env.BO_BASE_URL ? 'BO_BASE_URL' : '--base-url';
}

/** D1: the scheme word is one token in the Authorization header. */
export function parseApiKeyScheme(text: string, name = 'api-key-scheme'): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) {
    throw new UsageError(`${name} must be one word of letters, digits, - and _, got "${text}"`);
  }
  return text;
}

/**
 * Timeouts in seconds, from 0.1 s to 24 h: Node's timers hold at most 2^31-1 ms (about
 * 24.8 days) and fire after 1 ms past that, and under 0.1 s no request can finish.
 * Used for --timeout, BO_TIMEOUT, the `timeout` setting and BO_KEYCHAIN_TIMEOUT; the
 * message names whichever it was.
 */
export const TIMEOUT_MIN_S = 0.1;
export const TIMEOUT_MAX_S = 24 * 60 * 60;

export function parseTimeout(text: string | number, name = 'timeout'): number {
  const value = typeof text === 'number' ? text : text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(value) || value < TIMEOUT_MIN_S || value > TIMEOUT_MAX_S) {
    throw new UsageError(`${name} must be a number of seconds from ${TIMEOUT_MIN_S} to ${TIMEOUT_MAX_S} (24 h), got "${text}"`);
  }
  return value;
}

/** `protected`: every mutation on the profile confirms (--yes under --no-input). */
export function parseProtected(text: string, name = 'protected'): boolean {
  const value = text.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`${name} must be true or false, got "${text}"`);
}

/**
 * `ca-file`: a PEM file of certificate authorities the profile's connections trust as
 * well as Node's own (src/api/ca-file.ts reads and checks it). Kept as an absolute path,
 * so it names the same file from any folder.
 */
export function parseCaFilePath(text: string, name = 'ca-file'): string {
  if (text.trim() === '') throw new UsageError(`${name} must be the path of a PEM file of certificates, got ""`);
  return resolve(text);
}

/** The variable that wins over the `ca-file` setting, as other BO_ variables win over theirs. */
export const CA_FILE_ENV = 'BO_CA_FILE';

/** The CA file in effect, and what messages call it: BO_CA_FILE when set, else the profile's `ca-file`. */
export function caFileInEffect(
  env: Record<string, string | undefined>,
  settings: { 'ca-file'?: unknown },
): { path: string; name: string; source: 'env' | 'config' } | undefined {
  const fromEnv = env[CA_FILE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { path: parseCaFilePath(fromEnv, CA_FILE_ENV), name: CA_FILE_ENV, source: 'env' };
  const saved = settings['ca-file'];
  if (typeof saved === 'string' && saved !== '') return { path: saved, name: 'ca-file', source: 'config' };
  return undefined;
}

/** `journal`: on (the default) keeps a journal of every change in the state folder; off keeps none. */
export function parseJournal(text: string, name = 'journal'): 'on' | 'off' {
  const value = text.trim().toLowerCase();
  if (value === 'on' || value === 'off') return value;
  throw new UsageError(`${name} must be on or off, got "${text}"`);
}

/** The separators --csv may use: Excel reads `,` in en-US, `;` in de-DE and others; tab everywhere. */
export const CSV_SEPARATORS = [',', ';', '\t'] as const;

/** `csv-separator` / --csv-separator: `,`, `;` or a tab (typed as a tab, `tab` or `\t`). */
export function parseCsvSeparator(text: string, name = 'csv-separator'): string {
  const value = text === '\t' || text.trim().toLowerCase() === 'tab' || text === '\\t' ? '\t' : text.trim();
  if ((CSV_SEPARATORS as readonly string[]).includes(value)) return value;
  throw new UsageError(`${name} must be , or ; or tab, got ${JSON.stringify(text)}`);
}

/** The csv-separator setting as stored (`,`, `;` or `tab`), and back to the character. */
export const CSV_SEPARATOR_SETTINGS = [',', ';', 'tab'] as const;
export function csvSeparatorSetting(separator: string): string {
  return separator === '\t' ? 'tab' : separator;
}
export function csvSeparatorOf(setting: string): string {
  return setting === 'tab' ? '\t' : setting;
}

/** `csv-bom`: --csv output starts with a UTF-8 byte order mark (Excel needs it for non-ASCII text). */
export function parseCsvBom(text: string, name = 'csv-bom'): boolean {
  return parseProtected(text, name);
}

/** Validates a value typed by a user (`bo config set`) into what is stored. */
export function parseSetting(key: SettingKey, text: string): string | number | boolean {
  switch (key) {
    case 'base-url':
      return parseBaseUrl(text);
    case 'api-key-scheme':
      return parseApiKeyScheme(text);
    case 'timeout':
      return parseTimeout(text);
    case 'max-response-mb':
      return parseMaxResponseMb(text);
    case 'protected':
      return parseProtected(text);
    case 'ca-file':
      return parseCaFilePath(text);
    case 'journal':
      return parseJournal(text);
    case 'csv-separator':
      // Stored as the config file and `config get` show it: a tab as the word.
      return csvSeparatorSetting(parseCsvSeparator(text));
    case 'csv-bom':
      return parseCsvBom(text);
  }
}

/** Profile names become keychain accounts and JSON keys: keep them plain. */
export function parseProfileName(text: string, name = '--profile'): string {
  // __proto__ would be a prototype, not a key, when assigned to a plain object.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text) || text === '__proto__') {
    throw new UsageError(`${name} must be a profile name of letters, digits, - and _, got "${text}"`);
  }
  return text;
}
