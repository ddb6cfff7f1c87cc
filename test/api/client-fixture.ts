// A client pointed at a fault server, with recorded waits (no real sleeping: tests
// never depend on wall-clock time) and a captured --verbose trace.
import { createHttpClient } from '../../src/api/http.js';
import { USER_AGENT } from '../../src/connection.js';
import type { HttpClient, HttpClientOptions } from '../../src/api/http-types.js';

export const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.tok-payload-9f8e7d.sig-abc123';

export interface Fixture {
  client: HttpClient;
  /** Each wait the client asked for, in ms. */
  waits: number[];
  /** The --verbose trace lines. */
  lines: string[];
}

export function makeClient(baseUrl: string, overrides: Partial<HttpClientOptions> = {}): Fixture {
  const waits: number[] = [];
  const lines: string[] = [];
  const client = createHttpClient({
    baseUrl,
    credential: { kind: 'token', token: TOKEN },
    apiKeyScheme: 'bo',
    timeoutMs: 10_000,
    maxRetries: 3,
    noLog: false,
    userAgent: USER_AGENT,
    sleep: async (ms) => {
      waits.push(ms);
    },
    trace: (line) => lines.push(line),
    ...overrides,
  });
  return { client, waits, lines };
}

/** The rejection of a promise, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await promise;
  } catch (err) {
    return err as Error & Record<string, any>;
  }
  throw new Error('expected the request to fail, and it succeeded');
}
