// The contract of the HTTP core (src/api/http.ts). Commands and src/api/<area>.ts
// functions see only this; http.ts alone knows auth schemes, retries and redirects.

import type { SecureContext } from 'node:tls';
import type { Exchange } from './http-attempt.js';
import type { SecretValues } from './secret-values.js';

/** The credential kinds `bo` can hold and send (D1 API keys, D2 tokens). */
export type Credential =
  | {
      kind: 'token';
      /** A JWT access token (D5). */
      token: string;
      /** ISO date-time when it expires, from expires_in at login. */
      expiresAt?: string;
      /** Who signed in, for `bo auth status` without decoding. */
      username?: string;
      /** The origin it was issued by (src/auth/origin.ts); absent in credentials stored by older versions. */
      origin?: string;
    }
  | {
      kind: 'apiKey';
      key: string;
      secret: string;
      /** The origin it was stored against (src/auth/origin.ts); absent in older credentials. */
      origin?: string;
    };

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | QueryValue[]> | URLSearchParams;

export interface RequestOptions {
  method: Method;
  /** Path under {base}/api/v1, e.g. '/crm/accounts'; with `root: true`, under {base}. */
  path: string;
  query?: Query;
  /** Sent as JSON when defined. */
  body?: unknown;
  /**
   * Headers to add (`bo api -H`), checked by parseHeader (headers.ts): never the
   * credential's, the host's or the framing's. A Content-Type given here replaces JSON's.
   */
  headers?: Record<string, string>;
  /** Send no Authorization header (D4). */
  anonymous?: boolean;
  /** The path is relative to the base URL, not /api/v1 (jwks, /__sandbox). */
  root?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's: the login flow handles 429 itself, with a countdown (D10). */
  maxRetries?: number;
  /** The answer's secret-named fields (a TOTP secret, recovery codes) are secrets the run holds from now on. */
  secretAnswer?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  /** The reason phrase the server gave (`OK`), for `bo api -i`. */
  statusText?: string;
  /** `1.1`, or `1.0` from an old server; absent from the sandbox in this process. */
  httpVersion?: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON; the text when the body is not JSON; undefined when empty or 204. */
  body: T;
}

/**
 * A 2xx answer as HttpClient.requestBytes gives it: its bytes, for a reader that parses
 * them in parts (paginate.ts reads a page's records one at a time, page-records.ts), and
 * the whole body on demand.
 */
export interface BytesResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The answer's bytes; absent under --verbose, whose trace parsed the answer already. */
  bytes?: Buffer;
  /** The body parsed, or what the request throws for it (a malformed answer). */
  read(): unknown;
}

export interface HttpClientOptions {
  /** Tenant root, e.g. https://acme.example.com (D3: https, or http on loopback). */
  baseUrl: string;
  credential: Credential | null;
  /** D1 scheme word for API keys; default 'bo'. */
  apiKeyScheme: string;
  timeoutMs: number;
  maxRetries: number;
  /** Adds donotlog=1 to every request. */
  noLog: boolean;
  /** Receives the redacted --verbose trace, one line per call; absent = no trace. */
  trace?: (line: string) => void;
  /** Injected for tests; defaults to real timers. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** The User-Agent header, e.g. `bo/0.2.0 node/24.1.0` (connection.ts). */
  userAgent: string;
  /** The most one answer may hold, compressed or decompressed; default 32 MB (response-cap.ts). */
  maxResponseBytes?: number;
  /**
   * How requests reach the server: the embedded sandbox's direct exchange, in this
   * process (src/sandbox/embedded.ts). Absent: node:http(s) over a keep-alive agent.
   */
  transport?: Exchange;
  /**
   * The TLS context that trusts Node's authorities and the profile's CA file
   * (src/api/ca-file.ts), made once for the run; absent, Node's. Certificates are
   * verified either way.
   */
  secureContext?: SecureContext;
  /** That CA file as the trace names it (`/etc/acme-ca.pem (ca-file)`). */
  caFile?: string;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (proxy-env.ts); absent = never a proxy. */
  env?: Record<string, string | undefined>;
  /**
   * The run's secrets (the context's), scrubbed from the trace and from error answers;
   * the client adds its credential, the proxy's password and the secrets it sends.
   */
  secrets?: SecretValues;
  /** A `bo` command as this run's user must type it (`bo -p staging config …`), for hints (src/hints.ts). */
  command?: (rest: string) => string;
  /** The hint of a 401: how to fix the credential, as this run's command line needs it (src/hints.ts). */
  unauthorizedHint?: string;
}

export interface HttpClient {
  readonly baseUrl: string;
  /** A `bo` command as this run's user must type it, for hints (HttpClientOptions.command). */
  readonly command?: (rest: string) => string;
  /** Resolves for 2xx; throws ApiError (or RateLimitedError/AuthError…) otherwise. */
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>;
  /** As request(), a 2xx answer kept as its bytes and parsed when read (BytesResponse). */
  requestBytes(options: RequestOptions): Promise<BytesResponse>;
  /**
   * For an https:// base URL, a TLS handshake with the server (through the proxy in
   * effect) and nothing sent over it: resolves when the certificate is accepted, throws
   * what a request would have (exit 1, `network`) when not. `bo login` calls it before
   * asking for anything. Absent, or resolving at once, where there is no TLS.
   */
  handshake?(): Promise<void>;
  /** Frees the keep-alive sockets. */
  close(): void;
}
