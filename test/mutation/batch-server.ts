// A loopback server for batch tests: answers each `PUT …/subscriptionaddons/<uid>/expire`
// by a rule on the uid (a success answers as the sandbox does), and records what it received, how many requests were in flight
// at most, and how many connections carried them.

import * as http from 'node:http';
import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';

/** A success's answer: the sandbox's sentence, which tells that the add-on was expired (D32). */
export const EXPIRED = 'Add-on expired at 2026-11-28T05:03:47.000Z';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Never answer. */
  hang?: boolean;
  /** Answer once this settles. */
  after?: Promise<unknown>;
}

export interface BatchServer {
  url: string;
  /** Uids in the order their requests arrived (retries included). */
  received: string[];
  bodies: string[];
  /** Method and path (with query) of `received`. */
  requests: string[];
  /** Arrival times (ms, performance.now()) of `received`. */
  times: number[];
  authorization: Array<string | undefined>;
  maxInFlight: number;
  connections: number;
  close(): Promise<void>;
}

export async function startBatchServer(rule: (uid: string, attempt: number) => Answer): Promise<BatchServer> {
  const attempts = new Map<string, number>();
  let inFlight = 0;
  const state: BatchServer = {
    url: '',
    received: [],
    bodies: [],
    requests: [],
    times: [],
    authorization: [],
    maxInFlight: 0,
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const uid = decodeURIComponent((req.url ?? '').split('?')[0]!.split('/').at(-2) ?? '');
      const attempt = attempts.get(uid) ?? 0;
      attempts.set(uid, attempt + 1);
      state.received.push(uid);
      state.times.push(performance.now());
      state.bodies.push(body);
      state.requests.push(`${req.method} ${req.url}`);
      state.authorization.push(req.headers.authorization);
      const answer = rule(uid, attempt);
      const done = () => {
        inFlight--;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body ?? (answer.status < 300 ? EXPIRED : { error: 'x', error_description: `refused ${uid}` })));
      };
      if (answer.hang) {
        res.on('close', () => inFlight--);
        return;
      }
      if (answer.delayMs) setTimeout(done, answer.delayMs);
      else if (answer.after) void answer.after.then(done, done);
      else done();
    });
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/**
 * Servers a test file starts, each closed after its test: `const server = closing(await
 * startBatchServer(…))`. Call once, at the top of the file.
 */
export function closedAfterEach(): <T extends { close(): Promise<void> }>(server: T) => T {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return (server) => {
    open.push(server);
    return server;
  };
}
