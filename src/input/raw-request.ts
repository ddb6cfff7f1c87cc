// Turns `bo api` arguments into a request, checking everything before anything is sent.
// `stdin` is read only for `-F key=@-` or `--input -`.

import { appendQuery, fieldTree, jsonOf, splitField, typedLeaf, type ParsedField } from './api-fields.js';
import { readFileText, readStreamText } from './read-text.js';
import { UsageError } from '../errors.js';
import type { Method, RequestOptions } from '../api/http-types.js';
import { redactUserInfo } from '../api/base-url.js';
import { checkRawPath, decodeSegment } from '../api/path.js';
import { parseHeader } from '../api/headers.js';

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
  /** -F key=value, typed. */
  field?: string[];
  /** -f key=value, always text. */
  rawField?: string[];
  /** -H 'Name: value'. */
  header?: string[];
  input?: string;
  auth?: boolean;
  paginate?: boolean;
}

export type ApiRequest = RequestOptions & { query: URLSearchParams; headers: Record<string, string> };

/** `bo`: a command as this run's user types it, for hints (src/hints.ts). */
export async function buildApiRequest(
  stdin: NodeJS.ReadableStream,
  rawPath: string,
  opts: RawOptions,
  bo: (rest: string) => string = (rest) => `bo ${rest}`,
): Promise<ApiRequest> {
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
  const headers = headersOf(opts.header ?? []);
  // As gh: the -f fields first, then the -F ones; each in the order given.
  const fields = [...(opts.rawField ?? []).map((f) => splitField('-f', f)), ...(opts.field ?? []).map((f) => splitField('-F', f))];
  checkOneStdinReader(fields, opts.input);
  const leaves = await Promise.all(fields.map((f) => typedLeaf(f, (source) => readText(stdin, source, `-F ${f.typed.slice(0, f.typed.indexOf('='))}`))));
  const tree = fieldTree(fields, leaves);
  let body: unknown;
  if (opts.input !== undefined) body = await readInput(stdin, opts.input);
  // As `gh api`: GET, or POST once fields or a body are given; --paginate reads lists.
  const method = parseMethod(opts.method) ?? ((opts.paginate || (fields.length === 0 && body === undefined) ? 'GET' : 'POST') as Method);
  if (opts.paginate && method !== 'GET') throw new UsageError(`--paginate walks GET lists; it does not go with -X ${method}`);
  // GET and DELETE take no body, and --input is the body: fields go to the query string then.
  const fieldsInQuery = method === 'GET' || method === 'DELETE' || body !== undefined;
  if (fieldsInQuery) appendQuery(query, tree);
  else if (fields.length > 0) body = jsonOf(tree);
  if (body !== undefined && (method === 'GET' || method === 'DELETE')) {
    throw new UsageError(`--input sends a body, which ${method} does not take; pass -X POST or -X PUT`);
  }
  return { method, path, query, body, headers, anonymous: opts.auth === false || takesNoCredentials(method, path) };
}

/** -H values by name; a name given twice sends both values, joined as HTTP joins them. */
function headersOf(list: string[]): Record<string, string> {
  // By lower-cased name: the name as first typed, and the values.
  const headers = new Map<string, [string, string]>();
  for (const text of list) {
    const { name, value } = parseHeader(text, '-H/--header');
    const seen = headers.get(name.toLowerCase());
    headers.set(name.toLowerCase(), seen ? [seen[0], `${seen[1]}, ${value}`] : [name, value]);
  }
  return Object.fromEntries(headers.values());
}

/** Stdin holds one text: `--input -` and `-F key=@-` cannot both (or twice) read it. */
function checkOneStdinReader(fields: ParsedField[], input: string | undefined): void {
  const readers = fields.filter((f) => f.flag === '-F' && f.raw === '@-').map((f) => `-F ${f.typed}`);
  if (input === '-') readers.push('--input -');
  if (readers.length > 1) {
    throw new UsageError(`stdin can be read once, but ${readers.join(' and ')} ${readers.length === 2 ? 'both' : 'all'} read it`);
  }
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
