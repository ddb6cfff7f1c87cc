// Checks of what the user typed, before anything is sent (COMMANDS.md "Input is
// checked before any request"). Each failure is a UsageError (exit 2) naming the flag.

import { UsageError } from '../output/errors.js';

/** Uids are opaque strings, but never empty and never with spaces, `/` or controls. */
export function checkUid(label: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${label} must not be empty`);
  // eslint-disable-next-line no-control-regex
  if (/[\s/\u0000-\u001f\u007f-\u009f]/.test(value)) {
    throw new UsageError(`${label} must be a Uid without spaces, "/" or control characters, got ${JSON.stringify(value)}`);
  }
  return value;
}

export { checkDate } from './date.js';
export { checkInteger, checkNumber } from './number.js';
export { checkEmail, checkText, checkJson } from './text.js';
