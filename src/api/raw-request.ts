// Turns `bo api` arguments into a request, checking everything before anything is sent.

import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../output/errors.js';
import type { Method, RequestOptions } from './http-types.js';

interface RawOptions {
  method?: string;
  field: string[];
  input?: string;
  auth?: boolean;
  paginate?: boolean;
}

export async function buildApiRequest(ctx: Context, rawPath: string, opts: RawOptions): Promise<RequestOptions & { query: URLSearchParams }> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) {
    throw new UsageError(`<path> must be a path under /api/v1 such as /crm/accounts, not a URL: ${rawPath}`, {
      hint: 'the host comes from --base-url or the profile (bo config set base-url <url>)',
    });
  }
  const url = new URL(rawPath.startsWith('/') ? rawPath : `/${rawPath}`, 'http://placeholder');
  const path = url.pathname.replace(/^\/api\/v1(?=\/|$)/, '') || '/';
  const query = url.searchParams;
  const fields = await Promise.all(opts.field.map((f) => parseField(ctx, f)));
  let body: unknown;
  if (opts.input !== undefined) body = await readInput(ctx, opts.input);
  // As `gh api`: GET, or POST once fields or a body are given; --paginate reads lists.
  const method = (opts.method ?? (opts.paginate || (fields.length === 0 && body === undefined) ? 'GET' : 'POST')) as Method;
  if (opts.paginate && method !== 'GET') throw new UsageError(`--paginate walks GET lists; it does not go with -X ${method}`);
  const fieldsInQuery = method === 'GET' || method === 'DELETE' || body !== undefined;
  if (fieldsInQuery) {
    for (const [k, v] of fields) query.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  } else if (fields.length > 0) {
    body = Object.fromEntries(fields);
  }
  if (body !== undefined && (method === 'GET' || method === 'DELETE')) {
    throw new UsageError(`--input sends a body, which ${method} does not take; pass -X POST or -X PUT`);
  }
  return { method, path, query, body, anonymous: opts.auth === false };
}

async function parseField(ctx: Context, field: string): Promise<[string, unknown]> {
  const eq = field.indexOf('=');
  if (eq <= 0) throw new UsageError(`-F/--field must be key=value, got ${JSON.stringify(field)}`);
  const key = field.slice(0, eq);
  const raw = field.slice(eq + 1);
  if (raw.startsWith('@')) return [key, await readText(ctx, raw.slice(1), `-F ${key}`)];
  if (raw === 'true') return [key, true];
  if (raw === 'false') return [key, false];
  if (raw === 'null') return [key, null];
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && Number.isSafeInteger(Math.trunc(Number(raw)))) return [key, Number(raw)];
  return [key, raw];
}

async function readText(ctx: Context, file: string, flag: string): Promise<string> {
  if (file === '-') return readStdin(ctx);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

async function readInput(ctx: Context, file: string): Promise<unknown> {
  const text = await readText(ctx, file, '--input');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input is not valid JSON: ${(err as Error).message}`);
  }
}

async function readStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk.toString();
  return text;
}
