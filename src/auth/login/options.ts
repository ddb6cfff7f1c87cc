// The flags of `bo login`, checked before anything is sent: a malformed value is a
// usage error (exit 2) naming the flag. Light module: the command file imports it.

import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { Mechanism } from '../../api/tokens.js';
import { parseTimeout } from '../../config/settings.js';
import { option, type OptionValues } from '../../input/declare.js';

export type EnrollMethod = 'totp' | 'email';

export interface LoginOptions {
  username?: string;
  /** Read the password from the first line of stdin. */
  passwordStdin: boolean;
  /** A TOTP code, six digits. */
  code?: string;
  /** Run through the shell whenever a code is needed; its first 6-digit number is used. */
  codeCommand?: string;
  /** How long --code-command has to print a code (BO_CODE_COMMAND_TIMEOUT), in ms. */
  codeCommandTimeoutMs?: number;
  mechanism?: Mechanism;
  /** Read a recovery code from the next line of stdin. */
  recoveryCodeStdin: boolean;
  enroll?: EnrollMethod;
  qrPng?: string;
  recoveryCodesFile?: string;
}

/** The flags of `bo login`, as declared (commands/login.ts renders them). */
export const LOGIN_OPTIONS = [
  option.text('--username <email>', 'who signs in (prompted when absent)'),
  option.switch('--password-stdin', 'read the password from the first line of stdin'),
  option.text('--code <digits>', 'a 6-digit authenticator (TOTP) code'),
  option.text('--code-command <cmd>', 'shell command printing a code, run whenever one is needed'),
  option.choice('--mechanism <kind>', 'answer the challenge by this method', ['email', 'totp']),
  option.switch('--recovery-code-stdin', 'use a recovery code, read from the next line of stdin'),
  option.choice('--enroll <kind>', 'method to set up when enrollment is required', ['totp', 'email']),
  option.text('--qr-png <file>', "write the server's QR code PNG to a new 0600 file during TOTP enrollment"),
  option.text('--recovery-codes-file <file>', 'write the recovery codes from enrollment to a new 0600 file'),
  option.switch('--insecure-storage', 'store the token in a 0600 file instead of the OS keychain'),
  option.switch('--yes', "replace the profile's saved base URL with --base-url (BO_BASE_URL) without a terminal"),
] as const;

/** What the flags reach `run` as. */
export type RawLoginFlags = OptionValues<typeof LOGIN_OPTIONS>;

const controlChars = /[\u0000-\u001f\u007f]/;

export function parseLoginFlags(raw: RawLoginFlags, env: Record<string, string | undefined> = {}): LoginOptions {
  const options: LoginOptions = {
    passwordStdin: raw.passwordStdin === true,
    recoveryCodeStdin: raw.recoveryCodeStdin === true,
  };
  if (raw.username !== undefined) {
    const username = raw.username.trim();
    if (username === '' || controlChars.test(username)) {
      throw new UsageError('--username must be a non-empty sign-in name (your email address)');
    }
    options.username = username;
  }
  if (raw.code !== undefined) {
    if (!/^\d{6}$/.test(raw.code.trim())) {
      throw new UsageError('--code must be exactly 6 digits');
    }
    options.code = raw.code.trim();
  }
  if (raw.codeCommand !== undefined) {
    if (raw.codeCommand.trim() === '') throw new UsageError('--code-command must not be empty');
    if (options.code !== undefined) throw new UsageError('--code and --code-command cannot be used together');
    options.codeCommand = raw.codeCommand;
    const timeout = env.BO_CODE_COMMAND_TIMEOUT;
    if (timeout !== undefined && timeout !== '') options.codeCommandTimeoutMs = parseTimeout(timeout, 'BO_CODE_COMMAND_TIMEOUT') * 1000;
  }
  if (raw.mechanism !== undefined) {
    const m = raw.mechanism.trim().toLowerCase();
    if (m !== 'email' && m !== 'totp') throw new UsageError(`--mechanism must be email or totp, got "${raw.mechanism}"`);
    options.mechanism = m === 'email' ? 'Email' : 'Totp';
  }
  if (raw.enroll !== undefined) {
    const e = raw.enroll.trim().toLowerCase();
    if (e !== 'email' && e !== 'totp') throw new UsageError(`--enroll must be totp or email, got "${raw.enroll}"`);
    options.enroll = e;
  }
  // Both files hold secrets and are written once, 0600: never over an existing file,
  // which might be a previous set of recovery codes.
  for (const [flag, value, key] of [
    ['--qr-png', raw.qrPng, 'qrPng'],
    ['--recovery-codes-file', raw.recoveryCodesFile, 'recoveryCodesFile'],
  ] as const) {
    if (value === undefined) continue;
    if (value.trim() === '') throw new UsageError(`${flag} needs a file name`);
    if (existsSync(value)) throw new UsageError(`${flag}: ${value} already exists; name a new file`);
    options[key] = value;
  }
  return options;
}
