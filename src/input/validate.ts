// Checks of what the user typed, before anything is sent (COMMANDS.md "Input is
// checked before any request"). Each failure is a UsageError (exit 2) naming the flag.

import { UsageError } from '../errors.js';
import { hasHiddenCharacters, jsonText } from '../api/neutralise.js';
import { hasLoneSurrogate, isDotSegment } from '../api/path.js';

/** `-` where a verb reads no stdin: the same words wherever it is refused. */
export function stdinNotAccepted(label: string): UsageError {
  return new UsageError(`${label} takes one value; - (read from stdin) is not accepted here`);
}

/**
 * What checkUid accepts, as a JSON Schema pattern (`bo mcp`'s tool schemas): no space,
 * "/" or control character, and not "-", "." or "..". checkUid still has the last word
 * (invisible characters, encoded dots).
 */
export const UID_PATTERN = '^(?!-$)(?!\\.{1,2}$)[^\\s/\\u0000-\\u001f\\u007f-\\u009f]+$';

/**
 * Uids are opaque strings, but never empty, `-` (stdin is read only where a verb says
 * so), `.` or `..` in any encoding (a path would resolve them to another endpoint), and
 * never with spaces, `/`, controls, or invisible and bidirectional characters.
 */
export function checkUid(label: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${label} must not be empty`);
  if (value === '-') throw stdinNotAccepted(label);
  // eslint-disable-next-line no-control-regex
  if (/[\s/\u0000-\u001f\u007f-\u009f]/.test(value) || hasHiddenCharacters(value) || hasLoneSurrogate(value)) {
    throw new UsageError(`${label} must be a Uid without spaces, "/" or control characters, got ${jsonText(value)}`);
  }
  if (isDotSegment(value)) throw new UsageError(`${label} cannot be ${jsonText(value)}: "." and ".." are not Uids`);
  return value;
}

export { checkDate } from './date.js';
export { checkInteger, checkNumber } from './number.js';
export { checkEmail, checkText, checkJson } from './text.js';
