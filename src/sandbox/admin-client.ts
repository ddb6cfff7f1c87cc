// How `bo sandbox users|fixtures|outbox|reset` reach a sandbox: the server at
// --base-url, or the embedded one over the state file (started in-process for the
// duration of the command, so both paths go through the same /__sandbox endpoints).

import type { Context } from '../context.js';
import { ApiError, BoError } from '../errors.js';
import { redactUserInfo } from '../api/base-url.js';
import { maxResponseBytes } from '../api/response-cap.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, sanitize } from '../api/response-errors.js';

export interface AdminClient {
  /** `isShape` checks the answer is what a sandbox sends; anything else is "unexpected answer". */
  get<T>(path: string, isShape: (value: unknown) => boolean): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function openAdminClient(ctx: Context): Promise<AdminClient> {
  // Checked like any base URL: https or loopback http, no user info (never echoed back).
  let base = ctx.globals.baseUrl ? (await import('../config/settings.js')).parseBaseUrl(ctx.globals.baseUrl, '--base-url') : undefined;
  // Said every time, before anything is opened, so a reset never hits another sandbox
  // unnoticed. A profile's base-url is a tenant and never counts: only --base-url or
  // BO_BASE_URL name a served sandbox.
  const { describeSandboxTarget, openEmbeddedSandbox } = await import('./embedded.js');
  ctx.io.stderr.write(`Using ${describeSandboxTarget(base ? redactUserInfo(base) : undefined, ctx.io.env)}.\n`);
  let close = async () => {};
  if (!base) {
    const embedded = await openEmbeddedSandbox(ctx.io.env);
    base = embedded.url;
    close = embedded.close;
  }
  const shown = redactUserInfo(base);
  const limit = maxResponseBytes(ctx.io.env, undefined);
  const call = async <T>(method: string, path: string, body?: unknown, isShape?: (value: unknown) => boolean): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: ctx.signal,
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const cause = (err as Error).cause as { code?: unknown } | undefined;
      const why = cause?.code === 'ECONNREFUSED' ? 'connection refused' : cause?.code === 'ENOTFOUND' ? 'host not found' : 'the connection failed';
      throw new BoError(`cannot reach the sandbox at ${shown}: ${why}`, {
        code: 'network',
        hint: 'start one with `bo sandbox serve`, or drop --base-url to use the embedded sandbox',
      });
    }
    const text = await readCapped(res, limit, `${shown}${path}`, ctx.signal);
    let parsed: unknown = text;
    try {
      // Deeper JSON would exhaust the call stack when printed: treat it as text.
      parsed = text === '' ? undefined : nestsDeeperThan(text, MAX_JSON_DEPTH) ? text : JSON.parse(text);
    } catch { /* keep the text */ }
    if (!res.ok) {
      const description = (parsed as { error_description?: string } | undefined)?.error_description;
      const said = typeof description === 'string' ? ` ${sanitize(description)}` : '';
      throw new ApiError(`${method} ${path}: ${res.status}${said}`, { status: res.status, body: parsed });
    }
    if (isShape && !isShape(parsed)) {
      throw new BoError(`unexpected answer from ${shown}${path}: not what a sandbox sends`, {
        code: 'unexpected',
        hint: 'Is --base-url a sandbox started with `bo sandbox serve`? Drop --base-url to use the embedded one.',
      });
    }
    return parsed as T;
  };
  return { get: (path, isShape) => call('GET', path, undefined, isShape), post: (path, body) => call('POST', path, body ?? {}), close };
}

/** The body as text, dropping the connection once it passes `limit` bytes (decompressed). */
async function readCapped(res: Response, limit: number, where: string, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new BoError(`the answer from ${where} is larger than ${Math.round(limit / 1024 / 1024)} MB, more than bo accepts for one response`, {
          code: 'too_large',
          hint: 'Raise the cap with BO_MAX_RESPONSE_MB=<n> if this is really a sandbox.',
        });
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof BoError || signal.aborted) throw err;
    throw new BoError(`the answer from ${where} was cut short`, { code: 'network' });
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
