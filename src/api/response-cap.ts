// How much one answer may hold (README "Limits"): 32 MB unless the profile's
// `max-response-mb` or BO_MAX_RESPONSE_MB says otherwise. A page of 100 records is a
// few hundred KB, so the cap only ever stops a server gone wrong (an endless body, a
// gzip bomb) before it fills memory. Tiny on purpose: connection.ts imports it statically.

import { UsageError } from '../errors.js';

export const DEFAULT_MAX_RESPONSE_MB = 32;
export const MAX_RESPONSE_SETTING = 'max-response-mb';
const CEILING_MB = 4096;

/** A whole number of megabytes from 1 to 4096; `name` is the flag, key or variable. */
export function parseMaxResponseMb(text: string | number, name: string = MAX_RESPONSE_SETTING): number {
  const value = typeof text === 'number' ? text : /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > CEILING_MB) {
    throw new UsageError(`${name} must be a whole number of megabytes from 1 to ${CEILING_MB}, got "${text}"`);
  }
  return value;
}

/** The cap in bytes: BO_MAX_RESPONSE_MB, else the profile setting, else 32 MB. */
export function maxResponseBytes(env: Record<string, string | undefined>, setting: unknown): number {
  const fromEnv = env.BO_MAX_RESPONSE_MB;
  let mb = DEFAULT_MAX_RESPONSE_MB;
  if (fromEnv !== undefined && fromEnv !== '') mb = parseMaxResponseMb(fromEnv, 'BO_MAX_RESPONSE_MB');
  else if (setting !== undefined) mb = parseMaxResponseMb(setting as string | number, `the ${MAX_RESPONSE_SETTING} setting`);
  return mb * 1024 * 1024;
}
