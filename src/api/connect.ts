// Resolves the profile (base URL, scheme word, timeout) and credential, and opens the
// HTTP client a command uses. Placeholder until the HTTP core lands.
import type { ApiOptions, Context } from '../context.js';
import type { HttpClient } from './http-types.js';

export async function connect(_ctx: Context, _options?: ApiOptions): Promise<HttpClient> {
  throw new Error('connect: not built yet');
}
