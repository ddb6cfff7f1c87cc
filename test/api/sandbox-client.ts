// A real HTTP client (src/api/http.ts) signed in to a test sandbox with its API key.
import { createHttpClient } from '../../src/api/http.js';
import type { HttpClient } from '../../src/api/http-types.js';
import type { TestSandbox } from '../helpers/sandbox.js';

export function sandboxClient(sb: TestSandbox): HttpClient {
  return createHttpClient({
    baseUrl: sb.url,
    credential: { kind: 'apiKey', key: sb.fixtures.apiKey.key, secret: sb.fixtures.apiKey.secret },
    apiKeyScheme: sb.fixtures.apiKey.scheme,
    timeoutMs: 10_000,
    maxRetries: 0,
    noLog: false,
  });
}
