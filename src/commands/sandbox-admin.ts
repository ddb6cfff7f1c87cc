// What `bo sandbox users|fixtures|outbox|reset` share: the sandbox's /__sandbox endpoints
// through the one HTTP client (connection.ts): the served sandbox at --base-url, over the
// network like any request (proxy, no redirects, bo's User-Agent), else the embedded one
// in this process. The core's failures are reworded for a sandbox where that says more.

import type { Context } from '../context.js';
import type { HttpClient, Method } from '../api/http-types.js';
import { ApiError, BoError } from '../errors.js';
import { ConnectionFailure } from '../api/http-attempt.js';
import { reason } from '../api/network-errors.js';
import { isLoopback } from '../api/base-url.js';
import { defaultStatePath } from '../sandbox/state-path.js';
import { servedSandboxUrl } from '../connection.js';

export interface AdminClient {
  /** `isShape` checks the answer is what a sandbox sends; anything else is "unexpected answer". */
  get<T>(path: string, isShape: (value: unknown) => boolean): Promise<T>;
  post<T>(path: string): Promise<T>;
}

const NOT_A_SANDBOX_HINT = 'Is --base-url a sandbox started with `bo sandbox serve`? Drop --base-url to use the embedded one.';

export async function openAdminClient(ctx: Context): Promise<AdminClient> {
  // Said every time, before anything is opened, so a reset never hits another sandbox
  // unnoticed. Only --base-url or BO_BASE_URL name a served sandbox (checked like any
  // base URL: https or loopback http, no user info).
  const served = servedSandboxUrl(ctx);
  ctx.io.stderr.write(`Using ${served ? `the sandbox at ${served}` : `the embedded sandbox (${defaultStatePath(ctx.io.env)})`}.\n`);
  if (!served) {
    const note = await profileSandboxNote(ctx);
    if (note) ctx.io.stderr.write(note);
  }
  const client = await ctx.api({ sandboxAdmin: true });
  const call = async <T>(method: Method, path: string, isShape?: (value: unknown) => boolean): Promise<T> => {
    const notASandbox = () => new BoError(`unexpected answer from ${client.baseUrl}${path}: not what a sandbox sends`, { code: 'unexpected', hint: NOT_A_SANDBOX_HINT });
    let body: unknown;
    try {
      body = (await client.request({ method, path, root: true, body: method === 'POST' ? {} : undefined })).body;
    } catch (err) {
      throw reworded(err, client, notASandbox);
    }
    if (isShape && !isShape(body)) throw notASandbox();
    return body as T;
  };
  return { get: (path, isShape) => call('GET', path, isShape), post: (path) => call('POST', path) };
}

/**
 * A profile whose base-url is a loopback address most likely names a sandbox served by
 * `bo sandbox serve`, which these commands never read from a profile: one line says how
 * to reach it, so its outbox (the code of the sign-in in progress) is not looked for in
 * the embedded sandbox's.
 */
async function profileSandboxNote(ctx: Context): Promise<string | undefined> {
  const baseUrl = await ctx.profile().then((p) => p.settings['base-url'], () => undefined);
  if (typeof baseUrl !== 'string') return undefined;
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  return isLoopback(host) ? `The profile's base-url is not used here: for the sandbox served at ${baseUrl}, pass --base-url ${baseUrl}.\n` : undefined;
}

/** "cannot reach the sandbox" for a connection never made; an answer that is not JSON is not a sandbox's. */
function reworded(err: unknown, client: HttpClient, notASandbox: () => BoError): unknown {
  if (err instanceof ApiError && err.code === 'unexpected') return notASandbox();
  if (err instanceof BoError && err.code === 'network' && err.cause instanceof ConnectionFailure && !err.cause.sent) {
    return new BoError(`cannot reach the sandbox at ${client.baseUrl}: ${reason(err.cause)}`, {
      code: 'network',
      cause: err.cause,
      hint: 'start one with `bo sandbox serve`, or drop --base-url to use the embedded sandbox',
    });
  }
  return err;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
