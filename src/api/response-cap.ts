// How much one answer may hold (README "Limits"): 32 MB unless the profile's
// `max-response-mb` or BO_MAX_RESPONSE_MB says otherwise. A page of 100 records is a
// few hundred KB, so the cap only ever stops a server gone wrong (an endless body, a
// gzip bomb) before it fills memory. Tiny on purpose: connect.ts imports it statically.

import { DEFAULT_MAX_RESPONSE_MB, MAX_RESPONSE_SETTING, parseMaxResponseMb } from '../config/settings.js';

export { DEFAULT_MAX_RESPONSE_MB, MAX_RESPONSE_SETTING, parseMaxResponseMb };

/** The cap in bytes: BO_MAX_RESPONSE_MB, else the profile setting, else 32 MB. */
export function maxResponseBytes(env: Record<string, string | undefined>, setting: unknown): number {
  const fromEnv = env.BO_MAX_RESPONSE_MB;
  let mb = DEFAULT_MAX_RESPONSE_MB;
  if (fromEnv !== undefined && fromEnv !== '') mb = parseMaxResponseMb(fromEnv, 'BO_MAX_RESPONSE_MB');
  else if (setting !== undefined) mb = parseMaxResponseMb(setting as string | number, `the ${MAX_RESPONSE_SETTING} setting`);
  return mb * 1024 * 1024;
}
