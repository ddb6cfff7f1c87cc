// Resolves the profile (base URL, scheme word, timeout) and credential, and opens the
// HTTP client a command uses. Interim version on the login branch (base URL from
// --base-url only, no stored credential); the lead's connect.ts replaces it.
import type { ApiOptions, Context } from '../context.js';
import type { HttpClient } from './http-types.js';
import { UsageError } from '../output/errors.js';

export async function connect(ctx: Context, options: ApiOptions = {}): Promise<HttpClient> {
  const baseUrl = ctx.globals.baseUrl;
  if (!baseUrl) throw new UsageError('no base URL: pass --base-url <url>');
  const { createHttpClient } = await import('./http.js');
  return createHttpClient({
    baseUrl,
    credential: options.credential ?? null,
    apiKeyScheme: 'bo',
    timeoutMs: (ctx.globals.timeout ?? 30) * 1000,
    maxRetries: options.maxRetries ?? ctx.globals.maxRetries,
    noLog: !ctx.globals.log,
    trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
    sleep: ctx.clock.sleep,
    signal: ctx.signal,
  });
}
