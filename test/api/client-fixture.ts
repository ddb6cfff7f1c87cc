// A client pointed at a fault server, with recorded waits (no real sleeping: tests
// never depend on wall-clock time) and a captured --verbose trace.
import { afterEach, beforeEach } from 'vitest';
import { createHttpClient } from '../../src/api/http.js';
import { USER_AGENT } from '../../src/connection.js';
import type { HttpClient, HttpClientOptions } from '../../src/api/http-types.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';

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

/**
 * A fresh fault server for each test of the suite it is called in, and clients made
 * against it (`fixture`), all closed after the test.
 */
export function faultServerEach(): { readonly server: FaultServer; fixture(overrides?: Partial<HttpClientOptions>, baseUrl?: string): Fixture } {
  let server: FaultServer | undefined;
  const closers: Array<() => void> = [];
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) close();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    fixture(overrides = {}, baseUrl) {
      const f = makeClient(baseUrl ?? server!.url, overrides);
      closers.push(() => f.client.close());
      return f;
    },
  };
}
