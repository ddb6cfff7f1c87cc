// Turns `bo api` arguments into a request, checking everything before anything is sent.
// `stdin` is read only for `-F key=@-` or `--input -`.

import { inexactError, sentExactly } from './number.js';
import { readFileText, readStreamText } from './read-text.js';
import { UsageError } from '../errors.js';
import type { Method, RequestOptions } from '../api/http-types.js';
import { redactUserInfo } from '../api/base-url.js';
import { checkRawPath, decodeSegment } from '../api/path.js';

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The endpoints that take no credentials (D4): the sandbox refuses them with one. */
const ANONYMOUS: ReadonlyArray<{ method: Method; path: RegExp }> = [
  { method: 'POST', path: /^\/crm\/people\/requestMagicLink$/i },
  { method: 'POST', path: /^\/public\/email\/lists\/[^/]+\/subscriptions$/i },
];

/** Matched on the path as the server reads it (escapes decoded): `request%4DagicLink` is the same endpoint. */
export function takesNoCredentials(method: Method, path: string): boolean {
  const normalised = path.split('/').map(decodeSegment).join('/');
  return ANONYMOUS.some((e) => e.method === method && e.path.test(normalised));
}

/** -X in any case: get, Get and GET are the same method. */
function parseMethod(text: string | undefined): Method | undefined {
  if (text === undefined) return undefined;
  const method = text.trim().toUpperCase() as Method;
  if (!METHODS.includes(method)) {
    throw new UsageError(`-X/--method must be one of ${METHODS.join(', ')}, got ${JSON.stringify(text)}`);
  }
  return method;
}

interface RawOptions {
  method?: string;
  field: string[];
  input?: string;
  auth?: boolean;
  paginate?: boolean;
}

/** `bo`: a command as this run's user types it, for hints (src/hints.ts). */
export async function buildApiRequest(
  stdin: NodeJS.ReadableStream,
  rawPath: string,
  opts: RawOptions,
  bo: (rest: string) => string = (rest) => `bo ${rest}`,
): Promise<RequestOptions & { query: URLSearchParams }> {
  if (rawPath.trim() === '') throw new UsageError('<path> is empty: give a path under /api/v1 such as /crm/accounts');
  // The URL parser would drop a newline or tab without a word; refuse them instead.
  if (/[\u0000-\u001f\u007f]/.test(rawPath)) {
    throw new UsageError(`<path> contains control characters: ${JSON.stringify(rawPath)}`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) {
    throw new UsageError(`<path> must be a path under /api/v1 such as /crm/accounts, not a URL: ${redactUserInfo(rawPath)}`, {
      hint: `the host comes from --base-url or the profile (${bo('config set base-url <url>')})`,
    });
  }
  // Split by hand: a URL parser would read `//crm/…` as a host and resolve `..`.
  if (rawPath.includes('#')) {
    throw new UsageError(`<path> contains "#", which would cut it short; write %23 for a # in a value: ${JSON.stringify(rawPath)}`);
  }
  const q = rawPath.indexOf('?');
  const typed = q < 0 ? rawPath : rawPath.slice(0, q);
  const path = (typed.startsWith('/') ? typed : `/${typed}`).replace(/^\/api\/v1(?=\/|$)/, '');
  checkRawPath(path, '<path>', rawPath);
  const query = new URLSearchParams(q < 0 ? '' : rawPath.slice(q + 1));
  const fields = await Promise.all(opts.field.map((f) => parseField(stdin, f)));
  let body: unknown;
  if (opts.input !== undefined) body = await readInput(stdin, opts.input);
  // As `gh api`: GET, or POST once fields or a body are given; --paginate reads lists.
  const method = parseMethod(opts.method) ?? ((opts.paginate || (fields.length === 0 && body === undefined) ? 'GET' : 'POST') as Method);
  if (opts.paginate && method !== 'GET') throw new UsageError(`--paginate walks GET lists; it does not go with -X ${method}`);
  const fieldsInQuery = method === 'GET' || method === 'DELETE' || body !== undefined;
  if (fieldsInQuery) {
    for (const f of fields) query.append(f.key, f.text);
  } else if (fields.length > 0) {
    body = Object.fromEntries(fields.map((f) => [f.key, jsonValue(f)]));
  }
  if (body !== undefined && (method === 'GET' || method === 'DELETE')) {
    throw new UsageError(`--input sends a body, which ${method} does not take; pass -X POST or -X PUT`);
  }
  return { method, path, query, body, anonymous: opts.auth === false || takesNoCredentials(method, path) };
}

/** A -F field: its JSON value (true, false, null, a number, else text) and the text a query carries. */
interface Field {
  key: string;
  value: unknown;
  text: string;
}

async function parseField(stdin: NodeJS.ReadableStream, field: string): Promise<Field> {
  const eq = field.indexOf('=');
  if (eq <= 0) throw new UsageError(`-F/--field must be key=value, got ${JSON.stringify(field)}`);
  const key = field.slice(0, eq);
  const raw = field.slice(eq + 1);
  if (raw.startsWith('@')) {
    const text = await readText(stdin, raw.slice(1), `-F ${key}`);
    return { key, value: text, text };
  }
  const literals: Record<string, unknown> = { true: true, false: false, null: null };
  if (Object.hasOwn(literals, raw)) return { key, value: literals[raw], text: raw };
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw)) return { key, value: Number(raw), text: raw };
  return { key, value: raw, text: raw };
}

/** A number goes into a JSON body only if the body carries the value typed (input/number.ts). */
function jsonValue(f: Field): unknown {
  if (typeof f.value === 'number' && !sentExactly(f.text, f.value)) {
    throw inexactError(`-F ${f.key}=${f.text}`, f.text, 'to send the digits as a string, give the body as JSON with --input');
  }
  return f.value;
}

/** A file's text, or stdin's with `-` (the one reader: whole, and UTF-8 or refused). */
function readText(stdin: NodeJS.ReadableStream, file: string, flag: string): Promise<string> {
  return file === '-' ? readStreamText(flag, stdin) : readFileText(flag, file);
}

async function readInput(stdin: NodeJS.ReadableStream, file: string): Promise<unknown> {
  const text = await readText(stdin, file, '--input');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input is not valid JSON: ${(err as Error).message}`);
  }
}
