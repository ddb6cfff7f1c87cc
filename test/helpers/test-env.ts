// testEnv(server): the environment of a `bo` run against a test server, the one place
// tests build it: a fresh config folder (tempConfig), the server's URL and an API key.
import { tempConfig } from './config-dir.js';

/** A sandbox (startTestSandbox: its seeded key is used), a fault server, or a URL. */
export type TestServer = string | { url: string; fixtures?: { apiKey: { key: string; secret: string } } };

/**
 * The key is the sandbox's own, or `key`/`secret` for any other server (which does not
 * check it). `extra` adds variables or replaces these; a BO_TOKEN in it stands instead
 * of the key, as a CI job sets one or the other.
 */
export function testEnv(server: TestServer, extra: Record<string, string> = {}): Record<string, string> {
  const url = typeof server === 'string' ? server : server.url;
  const apiKey = (typeof server === 'string' ? undefined : server.fixtures?.apiKey) ?? { key: 'key', secret: 'secret' };
  const credentials: Record<string, string> = 'BO_TOKEN' in extra ? {} : { BO_API_KEY: apiKey.key, BO_API_SECRET: apiKey.secret };
  return { ...tempConfig().env, BO_BASE_URL: url, ...credentials, ...extra };
}
