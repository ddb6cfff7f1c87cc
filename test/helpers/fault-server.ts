// A loopback server whose answers are scripted request by request, for the failures
// the sandbox should not fake: resets, hangs, 5xx, 429 with Retry-After, HTML pages,
// malformed JSON, redirects, slow bodies. It records every request it received, so a
// test asserts what the client sent (e.g. a POST not re-sent after a 503).

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Resolves when the connection that carried the request is closed. */
  closed: Promise<void>;
}

/** One scripted answer; it receives the request with its body already read. */
export type Step = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface FaultServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  requests: Received[];
  /** TCP connections accepted so far (a request that never completed still counts). */
  readonly connections: number;
  /** The answer for requests once the script is used up; without one, such a request fails the test. */
  fallback(step: Step | undefined): void;
  /**
   * Queue answers for the next requests, in order. As gh's httpmock: a request with no
   * answer scripted (and no fallback) gets a 500 and fails the test at close(), and so
   * does a scripted answer no request asked for.
   */
  script(...steps: Step[]): void;
  /** Throws when the script and the requests since the last check did not match; starts afresh either way. */
  verify(): void;
  /** Closes the server; rejects as verify() does. */
  close(): Promise<void>;
}

export const reply = {
  json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
    return (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
  },
  text(status: number, text: string, headers: Record<string, string> = {}): Step {
    return (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(text);
    };
  },
  html(status: number, title: string): Step {
    return (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(`<!DOCTYPE html><html><head><title>${title}</title><style>body{}</style></head>` +
        `<body><h1>${title}</h1><script>alert(1)</script></body></html>`);
    };
  },
  /** A JSON content type with a body that does not parse. */
  malformed(status: number, text = '{"items": [1, 2,'): Step {
    return (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
  },
  /** JSON compressed with gzip, deflate or br; `corrupt` sends bytes that do not decompress. */
  compressed(encoding: 'gzip' | 'deflate' | 'br', body: unknown, corrupt = false): Step {
    return (_req, res) => {
      const text = Buffer.from(JSON.stringify(body));
      const packed = encoding === 'gzip' ? zlib.gzipSync(text) : encoding === 'deflate' ? zlib.deflateSync(text) : zlib.brotliCompressSync(text);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(corrupt ? packed.subarray(0, packed.length >> 1) : packed);
    };
  },
  empty(status: number): Step {
    return (_req, res) => {
      res.writeHead(status);
      res.end();
    };
  },
  rateLimited(retryAfter: string, body: unknown = { error: 'rate_limited', error_description: 'Too many requests' }): Step {
    return reply.json(429, body, { 'retry-after': retryAfter });
  },
  redirect(status: number, location: string): Step {
    return (_req, res) => {
      res.writeHead(status, { location });
      res.end();
    };
  },
  /** TCP reset (RST) after reading the request. */
  reset(): Step {
    return (req) => req.socket.resetAndDestroy();
  },
  /** Closes the connection without answering ("socket hang up"). */
  hangUp(): Step {
    return (req) => req.socket.destroy();
  },
  /** Headers promising `declared` bytes of JSON, part of them, then the connection closes. */
  truncated(declared = 4096): Step {
    return (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(declared) });
      res.write('{"items":[{"Uid":"acc_cut","Name":"Cu', () => req.socket.destroy());
    };
  },
  /** Never answers. */
  hang(): Step {
    return () => {};
  },
  /** A JSON list that never ends, written as fast as the client reads it. */
  endless(): Step {
    const chunk = Buffer.from('{"Uid":"acc_endless","Name":"Endless"},'.repeat(1600));
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      pump(res, () => chunk);
    };
  },
  /** A JSON list of about `bytes` bytes; `declared` states the length up front, else chunked. */
  big(bytes: number, declared: boolean): Step {
    const chunk = Buffer.from('{"Uid":"acc_big","Name":"Big"},'.repeat(2048));
    const head = Buffer.from('{"items":[');
    const tail = Buffer.from('{"Uid":"acc_last"}]}');
    const count = Math.max(0, Math.floor((bytes - head.length - tail.length) / chunk.length));
    return (_req, res) => {
      const length = head.length + count * chunk.length + tail.length;
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(length) } : {}) });
      res.write(head);
      let sent = 0;
      pump(res, () => (sent++ < count ? chunk : sent === count + 1 ? tail : null));
    };
  },
  /** Bytes made by gzipBomb(), sent as a gzip-encoded JSON answer. */
  gzipBomb(packed: Buffer): Step {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(packed.length) });
      res.end(packed);
    };
  },
  /** A JSON answer of `levels` nested arrays. */
  deep(levels: number): Step {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"items":${'['.repeat(levels)}${']'.repeat(levels)}}`);
    };
  },
  /** Headers, then a body that trickles forever. */
  slowBody(intervalMs = 50): Step {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write('1,'), intervalMs);
      res.on('close', () => clearInterval(timer));
    };
  },
};

/**
 * How a list endpoint pages: a D13 server (offset a page index in units of the applied
 * limit) with the faults a real one shows. Each field is one fault; none is an honest
 * server.
 */
export interface Paging {
  /** Records it holds: Uids `${prefix}0`…; after the first page answered, `later` of them (records added or deleted). */
  records: number;
  later?: number;
  /** After the first page answered, this many new records come before the others (Uids `${prefix}new0`…): pages shift. */
  inserted?: number;
  prefix?: string;
  /** metadata.total: the records it holds (default), none, or always this number (a total that lies). */
  total?: 'held' | 'none' | number;
  /** Every request answered with page 0: `echo` says the offset asked, `zero` says offset 0 (offset ignored). */
  ignoreOffset?: 'echo' | 'zero';
  /** From this page index on, page 0 is answered instead, its offset echoed (a page of repeats). */
  repeatFrom?: number;
  /** Pages (by index) that come back short: this many of their records only. */
  short?: Record<number, number>;
  /** Items that are not records, by page index, in place of the records at those positions. */
  items?: Record<number, Record<number, unknown>>;
}

/** The named paging faults of the hostile-server suite, each a Paging over 250 records. */
export const pagingModes = {
  'a repeated page without a total (offset echoed)': { records: 250, total: 'none', ignoreOffset: 'echo' },
  'a repeated page with a total of 250 (offset echoed)': { records: 250, ignoreOffset: 'echo' },
  'an ignored offset (always page 0, offset 0)': { records: 250, ignoreOffset: 'zero' },
  'a short first page (99 of 100)': { records: 250, short: { 0: 99 } },
  'a total that shrinks from 250 to 120 mid-walk': { records: 250, later: 120 },
  'a total that says 250 with pages for 200': { records: 200, total: 250 },
  'items that are not records (null, 5, "x" on page 2)': { records: 250, items: { 2: { 2: null, 3: 5, 4: 'x' } } },
  'a record inserted at the front mid-walk (pages shift: one repeats, one is never seen)': { records: 250, inserted: 1 },
  'a total that grows from 250 to 300 mid-walk (records added at the end)': { records: 250, later: 300 },
} satisfies Record<string, Paging>;

/** A list endpoint that pages as `paging` says; its limit is the one asked, capped at 100. */
export function pagingStep(paging: Paging): Step {
  let answered = 0;
  return (req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const limit = Math.min(Number(q.get('limit') ?? 100), 100);
    const asked = Number(q.get('offset') ?? 0);
    const first = answered++ === 0;
    const inserted = first ? 0 : (paging.inserted ?? 0);
    const held = (first ? paging.records : (paging.later ?? paging.records)) + inserted;
    const repeat = paging.ignoreOffset !== undefined || (paging.repeatFrom !== undefined && asked >= paging.repeatFrom);
    const page = repeat ? 0 : asked;
    const offset = paging.ignoreOffset === 'zero' ? 0 : asked;
    const items: unknown[] = [];
    const prefix = paging.prefix ?? 'acc_';
    for (let i = page * limit; i < Math.min(held, (page + 1) * limit); i++) {
      const uid = i < inserted ? `${prefix}new${i}` : `${prefix}${i - inserted}`;
      items.push({ Uid: uid, Name: `Account ${uid}` });
    }
    const cut = paging.short?.[page];
    if (cut !== undefined) items.length = Math.min(items.length, cut);
    for (const [at, value] of Object.entries(paging.items?.[page] ?? {})) items[Number(at)] = value;
    const total = paging.total === 'none' ? undefined : typeof paging.total === 'number' ? paging.total : held;
    reply.json(200, { metadata: { limit, offset, ...(total === undefined ? {} : { total }) }, items })(req, res, '');
  };
}

/** Writes `next()` chunks as fast as the client reads them, until it returns null or the client goes. */
function pump(res: http.ServerResponse, next: () => Buffer | null): void {
  let closed = false;
  res.on('close', () => (closed = true));
  const go = () => {
    while (!closed) {
      const chunk = next();
      if (chunk === null) return void res.end();
      if (!res.write(chunk)) return void res.once('drain', go);
    }
  };
  go();
}

/** gzip bytes (a few hundred KB) that decompress to `size` bytes of JSON whitespace. */
export async function gzipBomb(size: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => gzip.on('end', resolve).on('error', reject));
  const block = Buffer.alloc(1024 * 1024, ' ');
  gzip.write('{"items":[');
  for (let i = 0; i < size / block.length; i++) {
    if (!gzip.write(block)) await new Promise((r) => gzip.once('drain', r));
  }
  gzip.end(']}');
  await done;
  return Buffer.concat(out);
}

/**
 * One fault server for a test file, started before its tests and closed after them,
 * its recorded requests cleared after each test; `fallback` answers every request.
 * Call at the top of the file; the function returned gives the running server.
 */
export function useFaultServer(fallback?: Step): () => FaultServer {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
    server.fallback(fallback);
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.requests.splice(0);
    server.verify();
  });
  return () => server;
}

export async function startFaultServer(): Promise<FaultServer> {
  const steps: Step[] = [];
  const requests: Received[] = [];
  let connections = 0;
  let fallback: Step | undefined;
  const unscripted: string[] = [];
  // One close listener per connection, shared by the requests it carries (keep-alive).
  const socketClosed = new WeakMap<object, Promise<void>>();
  const server = http.createServer((req, res) => {
    let closed = socketClosed.get(req.socket);
    if (!closed) {
      closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      socketClosed.set(req.socket, closed);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closed: closed! });
      const step = steps.shift() ?? fallback;
      if (step) return step(req, res, body);
      unscripted.push(`${req.method} ${req.url}`);
      reply.json(500, { error: 'unscripted', error_description: 'fault server: no scripted answer left' })(req, res, body);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  function verify(): void {
    const unused = steps.splice(0).length;
    const wrong = [
      ...(unscripted.length > 0 ? [`requests with no scripted answer: ${unscripted.splice(0).join(', ')}`] : []),
      ...(unused > 0 ? [`${unused} scripted answer(s) no request asked for`] : []),
    ];
    if (wrong.length > 0) throw new Error(`fault server: ${wrong.join('; ')}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    fallback: (step) => void (fallback = step),
    script: (...more) => void steps.push(...more),
    verify,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      verify();
    },
  };
}

/** A loopback port with nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
