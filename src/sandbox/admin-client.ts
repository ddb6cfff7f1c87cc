// How `bo sandbox users|fixtures|outbox|reset` reach a sandbox: the server at
// --base-url, or the embedded one over the state file (started in-process for the
// duration of the command, so both paths go through the same /__sandbox endpoints).

import type { Context } from '../context.js';
import { ApiError, BoError } from '../output/errors.js';

export interface AdminClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function openAdminClient(ctx: Context): Promise<AdminClient> {
  let base = ctx.globals.baseUrl?.replace(/\/+$/, '');
  let close = async () => {};
  if (!base) {
    const { openEmbeddedSandbox } = await import('./embedded.js');
    const embedded = await openEmbeddedSandbox(ctx.io.env);
    base = embedded.url;
    close = embedded.close;
  }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: ctx.signal,
      });
    } catch (err) {
      throw new BoError(`cannot reach the sandbox at ${base}: ${(err as Error).cause ?? (err as Error).message}`, {
        hint: 'start one with `bo sandbox serve`, or drop --base-url to use the embedded sandbox',
      });
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch { /* keep the text */ }
    if (!res.ok) {
      const description = (parsed as { error_description?: string } | undefined)?.error_description;
      throw new ApiError(`${method} ${path}: ${res.status}${description ? ` ${description}` : ''}`, { status: res.status, body: parsed });
    }
    return parsed as T;
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body ?? {}), close };
}
