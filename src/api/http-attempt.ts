// One request/response exchange on node:http(s), with no retries and no judgement
// about the status. It knows one thing the retry policy needs (D30): whether any byte
// of the request may have left, i.e. whether the socket ever connected.

import * as http from 'node:http';
import * as https from 'node:https';

export interface RawResponse {
  status: number;
  statusText: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  agent: http.Agent;
  /** Covers connecting, sending and reading the whole response. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The connection failed. `sent` is false only when the socket never connected. */
export class ConnectionFailure extends Error {
  constructor(
    readonly code: string,
    readonly sent: boolean,
    cause: unknown,
  ) {
    super(code, { cause });
  }
}

export class TimeoutFailure extends Error {}
export class AbortFailure extends Error {}

export function exchange(url: URL, init: ExchangeInit): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (init.signal?.aborted) return reject(new AbortFailure('aborted'));
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    let sent = false;
    let settled = false;

    const req = transport.request(url, { method: init.method, headers: init.headers, agent: init.agent });
    const onAbort = () => fail(new AbortFailure('aborted'));
    const timer = setTimeout(() => fail(new TimeoutFailure('timeout')), init.timeoutMs);
    init.signal?.addEventListener('abort', onAbort, { once: true });

    function settle(): boolean {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
      return true;
    }
    function fail(err: Error): void {
      if (settle()) reject(err);
      // Destroying closes the socket, so a hung or aborted request frees the server too.
      req.destroy();
    }

    req.on('socket', (socket) => {
      // A reused keep-alive socket is already connected: the request goes out at once.
      if (!socket.connecting) sent = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (sent = true));
    });
    req.on('error', (err: NodeJS.ErrnoException) => fail(new ConnectionFailure(err.code ?? err.message, sent, err)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err: NodeJS.ErrnoException) => fail(new ConnectionFailure(err.code ?? 'ECONNRESET', true, err)));
      res.on('close', () => {
        if (!res.complete) fail(new ConnectionFailure('ECONNRESET', true, new Error('response cut short')));
      });
      res.on('end', () => {
        if (!settle()) return;
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage || http.STATUS_CODES[res.statusCode ?? 0] || '',
          headers: flattenHeaders(res.headers),
          body: Buffer.concat(chunks),
        });
      });
    });
    req.end(init.body);
  });
}

/**
 * Undoes a content-encoding (asked for with accept-encoding: a 100-record page shrinks
 * about tenfold). zlib is imported only when a server actually compresses.
 */
export async function decodeBody(raw: RawResponse): Promise<Buffer> {
  const encoding = (raw.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || raw.body.length === 0) return raw.body;
  const zlib = await import('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(raw.body);
  if (encoding === 'deflate') return zlib.inflateSync(raw.body);
  if (encoding === 'br') return zlib.brotliDecompressSync(raw.body);
  throw new Error(`unknown content-encoding ${encoding}`);
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
