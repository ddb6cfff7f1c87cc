// One request/response exchange on node:http(s), with no retries and no judgement
// about the status. It knows one thing the retry policy needs (D30): whether any byte
// of the request may have left, i.e. whether the socket ever connected. Or, for the
// sandbox in this process (`bo --sandbox`), the same exchange as a call (directExchange).

import * as http from 'node:http';
import * as https from 'node:https';
import type { Transform } from 'node:stream';

export interface RawResponse {
  status: number;
  statusText: string;
  /** The HTTP version of the answer (`1.1`); absent from a direct exchange. */
  httpVersion?: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The connections of `exchange`; a direct exchange has none. */
  agent?: http.Agent;
  /** Covers connecting, sending and reading the whole response. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The most one answer may hold, before and after decompression. */
  maxBytes: number;
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
/** The answer (declared, received or decompressed) passed ExchangeInit.maxBytes. */
export class TooLargeFailure extends Error {}
/** The content-encoding is unknown or the bytes do not decompress. */
export class DecodeFailure extends Error {
  constructor(
    readonly encoding: string,
    readonly status: number,
  ) {
    super(`cannot decode ${encoding}`);
  }
}

const DECODERS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
/** The largest declared length given its buffer before the bytes come: a server's word is not memory. */
const PREALLOCATE_MAX = 4 * 1024 * 1024;

/**
 * Bytes of answers being read right now, by every exchange of this process. A batch
 * keeps up to 16 requests in flight; were each answer capped on its own, 16 endless
 * bodies would together hold 16 times the cap. So an answer is also dropped when the
 * answers read at once would pass the cap: the process never buffers more than one.
 */
let heldByAll = 0;

/** How a request reaches the server: `exchange` (node:http), or `directExchange`. */
export type Exchange = (url: URL, init: ExchangeInit) => Promise<RawResponse>;

/** A request as a server in this process takes it (src/sandbox/answer.ts SandboxRequest). */
export interface DirectRequest {
  method: string;
  /** Path and query. */
  target: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
  clientKey: string;
}

export type DirectServer = (request: DirectRequest) => Promise<{ status: number; statusText: string; headers: Record<string, string>; text: string }>;

/**
 * The exchange with a server in this process: the request handed over as values, the
 * answer taken back, under the same rules as over a socket: the time limit, Ctrl-C,
 * the size cap. The server's own failure reads as a connection that broke after the
 * request left. Nothing here is a class of the server's code (a lazy chunk, whose
 * classes are not these).
 */
export function directExchange(server: DirectServer): Exchange {
  return (url, init) =>
    new Promise((resolve, reject) => {
      if (init.signal?.aborted) return reject(new AbortFailure('aborted'));
      let settled = false;
      const onAbort = () => settle(() => reject(new AbortFailure('aborted')));
      const timer = setTimeout(() => settle(() => reject(new TimeoutFailure('timeout'))), init.timeoutMs);
      init.signal?.addEventListener('abort', onAbort, { once: true });
      function settle(then: () => void): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', onAbort);
        then();
      }
      const request: DirectRequest = {
        method: init.method,
        target: `${url.pathname}${url.search}`,
        headers: { host: url.host, ...init.headers },
        body: init.body ?? Buffer.alloc(0),
        clientKey: 'in-process',
      };
      server(request).then(
        (answer) =>
          settle(() => {
            const body = Buffer.from(answer.text, 'utf8');
            if (body.length > init.maxBytes) reject(new TooLargeFailure('received'));
            else resolve({ status: answer.status, statusText: answer.statusText, headers: answer.headers, body });
          }),
        (err: unknown) => settle(() => reject(new ConnectionFailure('ECONNRESET', true, err))),
      );
    });
}

export function exchange(url: URL, init: ExchangeInit): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (init.signal?.aborted) return reject(new AbortFailure('aborted'));
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    let sent = false;
    const req = transport.request(url, { method: init.method, headers: init.headers, agent: init.agent });
    const state = new Exchanging(req, init, resolve, reject);
    req.on('socket', (socket) => {
      // A reused keep-alive socket is already connected: the request goes out at once.
      if (!socket.connecting) sent = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (sent = true));
    });
    req.on('error', (err: NodeJS.ErrnoException) => state.fail(new ConnectionFailure(err.code ?? err.message, sent, err)));
    req.on('response', (res) => readAnswer(res, init, state));
    req.end(init.body);
  });
}

/** One exchange under way: settled once, by its answer or a failure, with what it holds given back. */
class Exchanging {
  settled = false;
  /** This answer's share of heldByAll, given back when the exchange ends either way. */
  held = 0;
  /** The answer's bytes so far, when not gathered in one buffer; let go at once when it is dropped. */
  readonly chunks: Buffer[] = [];
  decoder: Transform | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.fail(new AbortFailure('aborted'));

  constructor(
    private readonly req: http.ClientRequest,
    private readonly init: ExchangeInit,
    private readonly resolve: (raw: RawResponse) => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.timer = setTimeout(() => this.fail(new TimeoutFailure('timeout')), init.timeoutMs);
    init.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    heldByAll -= this.held;
    this.held = 0;
    clearTimeout(this.timer);
    this.init.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }

  fail(err: Error): void {
    if (this.settle()) this.reject(err);
    // Destroying closes the socket, so a hung or aborted request frees the server too.
    this.req.destroy();
    this.decoder?.destroy();
    this.chunks.length = 0;
  }

  finish(raw: RawResponse): void {
    if (this.settle()) this.resolve(raw);
  }
}

/** The answer's bytes, decompressed, within the cap (ExchangeInit.maxBytes), or the failure. */
function readAnswer(res: http.IncomingMessage, init: ExchangeInit, state: Exchanging): void {
  const status = res.statusCode ?? 0;
  const headers = flattenHeaders(res.headers);
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > init.maxBytes) return state.fail(new TooLargeFailure('declared'));
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  // Bytes are counted as they arrive, compressed and decompressed, and the request is
  // dropped the moment either count passes the cap: an endless body or a gzip bomb
  // never gets to fill memory.
  let received = 0;
  const countRaw = () =>
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > init.maxBytes) state.fail(new TooLargeFailure('received'));
    });
  res.on('error', (err: NodeJS.ErrnoException) => state.fail(new ConnectionFailure(err.code ?? 'ECONNRESET', true, err)));
  res.on('close', () => {
    if (!res.complete) state.fail(new ConnectionFailure('ECONNRESET', true, new Error('response cut short')));
  });
  const finish = (body: Buffer) =>
    state.finish({ status, statusText: res.statusMessage || http.STATUS_CODES[status] || '', httpVersion: res.httpVersion, headers, body });
  // A body of a declared, modest length is copied into one buffer of that length as it
  // comes (a page of a walk is ~260 KB): see collect().
  const sized = init.method !== 'HEAD' && status !== 204 && Number.isInteger(declared) && declared >= 0 && declared <= PREALLOCATE_MAX;
  if (encoding === 'identity' || status === 204 || init.method === 'HEAD') return collect(res, sized ? declared : -1, init, state, finish);
  if (!DECODERS.has(encoding)) {
    // Read it to the end (within the cap) and refuse it then: the connection stays usable.
    countRaw();
    res.on('end', () => state.fail(new DecodeFailure(encoding, status)));
    return;
  }
  // zlib is imported only when a server actually compresses; the answer waits, paused.
  void import('node:zlib').then((zlib) => {
    if (state.settled) return;
    const decoder =
      encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    state.decoder = decoder;
    // An empty body with a content-encoding header is just empty.
    collect(decoder, -1, init, state, finish, () => (received === 0 && res.complete ? finish(Buffer.alloc(0)) : state.fail(new DecodeFailure(encoding, status))));
    countRaw();
    res.pipe(decoder);
  });
}

/**
 * The bytes of `source` as they come, counted against the cap. With a `declared` length
 * (else -1) they are copied into one buffer of that length, so no chunk is kept past its
 * event: chunks kept until the end outlive young-generation collections. The chunks are
 * node:http's own and left to the collector.
 */
function collect(source: NodeJS.ReadableStream, declared: number, init: ExchangeInit, state: Exchanging, finish: (body: Buffer) => void, onError?: () => void): void {
  const chunks = state.chunks;
  let kept = 0;
  let into = declared >= 0 ? Buffer.allocUnsafeSlow(declared) : undefined;
  source.on('data', (chunk: Buffer) => {
    if (state.settled) return;
    const length = chunk.length;
    if (into && kept + length <= into.length) {
      chunk.copy(into, kept);
    } else {
      // More than declared: kept as chunks from here on.
      if (into) chunks.push(into.subarray(0, kept));
      into = undefined;
      chunks.push(chunk);
    }
    kept += length;
    state.held += length;
    heldByAll += length;
    if (kept > init.maxBytes || heldByAll > init.maxBytes) return state.fail(new TooLargeFailure('decoded'));
  });
  if (onError) source.on('error', onError);
  source.on('end', () => finish(into ? into.subarray(0, kept) : Buffer.concat(chunks)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
