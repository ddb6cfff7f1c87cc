// The credentials layer of the HTTP core (http.ts): the Authorization header a request
// carries (D1 API keys, D2 tokens, none for an anonymous call, D4), and the values the
// run must scrub from then on.

import type { Credential, HttpClientOptions, RequestOptions } from './http-types.js';
import type { SecretValues } from './secret-values.js';
import { proxyUserInfo, type ProxyChoice } from './proxy-env.js';

/** The credential a request is sent with: the client's, or none for an anonymous call (D4). */
export function credentialFor(req: RequestOptions, options: HttpClientOptions): Credential | null {
  return req.anonymous ? null : options.credential;
}

/** The D1 scheme word of API keys; default 'bo'. */
export function apiKeyScheme(options: HttpClientOptions): string {
  return options.apiKeyScheme || 'bo';
}

export function authorization(credential: Credential | null, scheme: string): string | undefined {
  if (!credential) return undefined;
  if (credential.kind === 'token') return `bearer ${credential.token}`; // D2
  return `${scheme} ${credential.key}:${credential.secret}`; // D1
}

/**
 * The credential's values, scrubbed wherever they appear, beyond what field names
 * reveal. An API key's id alone is not secret: `bo auth status` names it.
 */
export function secretsOf(credential: Credential | null): string[] {
  if (!credential) return [];
  return credential.kind === 'token' ? [credential.token] : [credential.secret, `${credential.key}:${credential.secret}`];
}

/** The client's credential and the proxy's user and password, added to the run's secrets. */
export function holdSecrets(secrets: SecretValues, credential: Credential | null, proxy: ProxyChoice | undefined): void {
  secrets.add(...secretsOf(credential));
  const proxyUser = proxy && proxyUserInfo(proxy.url);
  if (proxyUser) secrets.add(proxyUser.password, `${proxyUser.user}:${proxyUser.password}`, proxy.url.password);
}
