// Text, email and JSON flags. Text and JSON take `@file` to read a file ("@-" is not
// special; "@@..." stands for literal text starting with "@"). Lengths are counted in
// characters (Unicode code points), as the service counts them, so an emoji is one.

import { UsageError } from '../errors.js';
import { readFileText } from './read-text.js';

const EMAIL = /^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$/;

export function checkEmail(flag: string, text: string): string {
  const value = text.trim();
  // eslint-disable-next-line no-control-regex
  if (value.length > 254 || !EMAIL.test(value) || /[\u0000-\u001f\u007f<>(),;:"[\]\\]/.test(value) || value.split('@')[0]!.length > 64) {
    throw new UsageError(`${flag} must be an email address like name@example.com, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** The flag's value, or the file it names with `@file`. */
async function valueOrFile(flag: string, text: string): Promise<string> {
  if (text.startsWith('@@')) return text.slice(1);
  if (!text.startsWith('@')) return text;
  const path = text.slice(1);
  if (path === '') throw new UsageError(`${flag} names no file after "@"`);
  return readFileText(flag, path);
}

/** Text within the length bounds, in characters; `@file` reads the file. */
export async function checkText(flag: string, text: string, opts: { min?: number; max?: number }): Promise<string> {
  const value = await valueOrFile(flag, text);
  const length = [...value].length;
  if (opts.min !== undefined && length < opts.min) {
    throw new UsageError(opts.min === 1 ? `${flag} must not be empty` : `${flag} must be at least ${opts.min} characters (got ${length})`);
  }
  if (opts.max !== undefined && length > opts.max) throw new UsageError(`${flag} must be at most ${opts.max} characters (got ${length})`);
  return value;
}

/** A JSON value; `@file` reads the file. */
export async function checkJson(flag: string, text: string): Promise<unknown> {
  const value = (await valueOrFile(flag, text)).replace(/^\uFEFF/, '');
  try {
    return JSON.parse(value);
  } catch (err) {
    // The parser's message quotes part of the input: keep it short and on one line.
    const detail = err instanceof SyntaxError ? err.message.replace(/\s+/g, ' ').slice(0, 120) : 'invalid';
    throw new UsageError(`${flag} must be valid JSON (${detail})`);
  }
}
