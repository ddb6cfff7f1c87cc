// A real HTTP client (src/api/http.ts) signed in to a test sandbox with its API key.
import { createHttpClient } from '../../src/api/http.js';
import { afterAll, beforeAll } from 'vitest';
import type { HttpClient, RequestOptions } from '../../src/api/http-types.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

export function sandboxClient(sb: TestSandbox): HttpClient {
  return createHttpClient({
    baseUrl: sb.url,
    credential: { kind: 'apiKey', key: sb.fixtures.apiKey.key, secret: sb.fixtures.apiKey.secret },
    apiKeyScheme: sb.fixtures.apiKey.scheme,
    timeoutMs: 10_000,
    maxRetries: 0,
    noLog: false,
    userAgent: 'bo-test',
  });
}

export interface SandboxClientFixture {
  sb: TestSandbox;
  client: HttpClient;
  /** Sends a built request; answers the body, as the mutation runner sees it. */
  send(req: RequestOptions): Promise<any>;
}

/** A fresh sandbox and a client for this test file, started before and closed after its tests. */
export function useSandboxClient(): SandboxClientFixture {
  const t = {
    async send(req: RequestOptions) {
      return (await t.client.request(req)).body;
    },
  } as SandboxClientFixture;
  beforeAll(async () => {
    t.sb = await startTestSandbox();
    t.client = sandboxClient(t.sb);
  });
  afterAll(async () => {
    t.client.close();
    await t.sb.close();
  });
  return t;
}
