// Request headers a user adds (`bo api -H 'Name: value'`): checked here, before
// anything is sent, and once more by the HTTP core (http.ts) as its last word. The
// headers that carry the credential or frame the message are bo's alone: one given
// by hand could send a credential to another origin, reach another host, or cut the
// body short.

import { UsageError } from '../errors.js';

/** Set by bo itself (credential, target, framing); never taken from the user. */
const RESERVED = new Set([
  'authorization',
  'proxy-authorization',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/** An RFC 9110 token: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether bo owns this header (any case). */
export function isReservedHeader(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}

/**
 * `Name: value` as typed after `flag`: a valid name, not one bo sets, and a value of
 * one line (no CR, LF or other control character; tab allowed) that HTTP can carry.
 */
export function parseHeader(text: string, flag: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  if (colon < 0) throw new UsageError(`${flag} must be "Name: value", got ${JSON.stringify(text)}`);
  const name = text.slice(0, colon);
  const value = text.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (!TOKEN.test(name)) {
    throw new UsageError(`${flag} has an invalid header name ${JSON.stringify(name)}: letters, digits and !#$%&'*+.^_\`|~- only, no spaces`);
  }
  if (isReservedHeader(name)) {
    throw new UsageError(`${flag} cannot set ${name}: bo sets it itself${name.toLowerCase().endsWith('authorization') ? ' from the profile\'s credential' : ''}`);
  }
  if (/[\r\n]/.test(value)) throw new UsageError(`${flag} ${name} has a line break (CR or LF) in its value: a header is one line`);
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) throw new UsageError(`${flag} ${name} has a control character in its value`);
  if (/[^\u0000-\u00ff]/.test(value)) throw new UsageError(`${flag} ${name} has a character HTTP headers cannot carry (only Latin-1 text)`);
  return { name, value };
}
