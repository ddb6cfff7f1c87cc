// D30 retries, Retry-After, timeouts and interruption against the fault server. Waits
// are recorded by an injected sleep, never slept, and never compared to a clock.
import * as http from 'node:http';
import { describe, expect, it } from 'vitest';
import { backoffMs, humanWait, isRetryableFailure, isRetryableStatus, parseRetryAfter, waitMs } from '../../src/api/http-retry.js';
import { ApiError, BoError, InterruptedError, RateLimitedError } from '../../src/errors.js';
import { closedPort, reply } from '../helpers/fault-server.js';
import { faultServerEach, rejectionOf } from './client-fixture.js';

const faults = faultServerEach();
const fixture = faults.fixture;

describe('GET is retried (D30)', () => {
  it.each([502, 503, 504])('on %i, with exponential backoff, until it succeeds', async (status) => {
    faults.server.script(reply.json(status, {}), reply.json(status, {}), reply.json(200, { ok: 1 }));
    const { client, waits } = fixture();
    const res = await client.request({ method: 'GET', path: '/crm/accounts' });
    expect(res.body).toEqual({ ok: 1 });
    expect(faults.server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(125);
    expect(waits[0]).toBeLessThanOrEqual(250);
    expect(waits[1]).toBeGreaterThanOrEqual(250);
    expect(waits[1]).toBeLessThanOrEqual(500);
  });

  it('waits what Retry-After says on a 429', async () => {
    faults.server.script(reply.rateLimited('7'), reply.json(200, []));
    const { client, waits } = fixture();
    await client.request({ method: 'GET', path: '/x' });
    expect(waits).toEqual([7000]);
  });

  it('waits a Retry-After of up to 60 s, in seconds or as an HTTP-date', async () => {
    const later = new Date(Date.now() + 45_000).toUTCString();
    faults.server.script(reply.rateLimited('60'), reply.rateLimited(later), reply.json(200, []));
    const { client, waits } = fixture();
    await client.request({ method: 'GET', path: '/x' });
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBe(60_000);
    expect(waits[1]).toBeGreaterThan(40_000);
    expect(waits[1]).toBeLessThanOrEqual(45_000);
  });

  it.each([
    ['12000', 'retry in 3 h 20 min', 12_000],
    ['600', 'retry in 10 min', 600],
    ['100000000000000000000000', 'retry in more than a year', 1e23],
  ])('does not wait for a Retry-After of %s s, longer than the cap: exit 5 at once, "%s"', async (header, words, seconds) => {
    faults.server.script(reply.rateLimited(header, { error: 'rate_limited', error_description: 'Slow down' }));
    const { client, waits } = fixture();
    const err = await rejectionOf(client.request({ method: 'GET', path: '/x' }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.exitCode).toBe(5);
    expect(err.message).toBe(`429 Too Many Requests: Slow down; ${words}`);
    expect(err.message).not.toMatch(/e\+/);
    expect(err.retryAfter).toBe(seconds);
    expect(waits).toEqual([]);
    expect(faults.server.requests).toHaveLength(1);
  });

  it('a 503 whose Retry-After passes the cap is reported at once with the wait in words', async () => {
    const later = new Date(Date.now() + 2 * 86_400_000 + 3 * 3_600_000 + 60_000).toUTCString();
    faults.server.script(reply.json(503, { error_description: 'Maintenance' }, { 'retry-after': later }));
    const { client, waits } = fixture();
    const err = await rejectionOf(client.request({ method: 'GET', path: '/x' }));
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe('503 Service Unavailable: Maintenance; retry in 2 d 3 h');
    expect(waits).toEqual([]);
    expect(faults.server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries with RateLimitedError (exit 5) naming the wait', async () => {
    const body = { error: 'rate_limited', error_description: 'Try again in a minute' };
    for (let i = 0; i < 4; i++) faults.server.script(reply.rateLimited('30', body));
    const { client, waits } = fixture();
    const err = await rejectionOf(client.request({ method: 'GET', path: '/x' }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.exitCode).toBe(5);
    expect(err.retryAfter).toBe(30);
    expect(err.message).toBe('429 Too Many Requests: Try again in a minute; retry in 30 s');
    expect(err.code).toBe('rate_limited');
    expect(faults.server.requests).toHaveLength(4);
    expect(waits).toEqual([30_000, 30_000, 30_000]);
  });

  it('sends once with maxRetries 0', async () => {
    faults.server.script(reply.json(503, { error: 'down' }));
    const err = await rejectionOf(fixture({ maxRetries: 0 }).client.request({ method: 'GET', path: '/x' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(faults.server.requests).toHaveLength(1);
  });

  it('a request may override the client (D10: the login flow handles 429 itself)', async () => {
    faults.server.script(reply.rateLimited('45'));
    const { client, waits } = fixture({ maxRetries: 3 });
    const err = await rejectionOf(client.request({ method: 'POST', path: '/tokens/two-factor/enroll/totp/confirm', body: {}, maxRetries: 0 }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.retryAfter).toBe(45);
    expect(faults.server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('on a connection reset and a hang-up', async () => {
    faults.server.script(reply.reset(), reply.hangUp(), reply.json(200, { ok: 2 }));
    const { client, waits } = fixture();
    expect((await client.request({ method: 'GET', path: '/x' })).body).toEqual({ ok: 2 });
    expect(faults.server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('on connection refused, then says so plainly (exit 1)', async () => {
    const port = await closedPort();
    const { client, waits } = fixture({}, `http://127.0.0.1:${port}`);
    const err = await rejectionOf(client.request({ method: 'GET', path: '/x' }));
    expect(err).toBeInstanceOf(BoError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(`could not connect to http://127.0.0.1:${port}: connection refused`);
    expect(waits).toHaveLength(3);
  });
});

// A request sent again would find no scripted answer, which fails the test (fault-server.ts).
describe('writes are not repeated once they may have reached the server (D30)', () => {
  it.each(['POST', 'PUT', 'DELETE'] as const)('%s is not re-sent after a 503 or 502', async (method) => {
    faults.server.script(reply.json(503, {}));
    const { client, waits } = fixture();
    const err = await rejectionOf(client.request({ method, path: '/x', body: { a: 1 } }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.exitCode).toBe(1);
    expect(faults.server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('a POST is re-sent, body unchanged, after a 429 (refused before acting)', async () => {
    faults.server.script(reply.rateLimited('2'), reply.json(201, { Uid: 'new' }));
    const { client, waits } = fixture();
    const res = await client.request({ method: 'POST', path: '/email/lists', body: { Name: 'n' } });
    expect(res.body).toEqual({ Uid: 'new' });
    expect(faults.server.requests.map((r) => r.body)).toEqual(['{"Name":"n"}', '{"Name":"n"}']);
    expect(waits).toEqual([2000]);
  });

  it('a POST reset after it was sent fails with a hint, and is not re-sent', async () => {
    faults.server.script(reply.reset());
    const { client } = fixture();
    const err = await rejectionOf(client.request({ method: 'POST', path: '/billing/paymentinformation', body: {} }));
    expect(err).toBeInstanceOf(BoError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/billing\/paymentinformation failed: the connection was reset$/);
    expect(err.hint).toBe('The server may have carried out the POST; check before repeating it.');
    expect(faults.server.requests).toHaveLength(1);
  });

  it('a POST refused before any byte was written is retried and arrives once', async () => {
    const port = await closedPort();
    let late: http.Server | undefined;
    const received: string[] = [];
    const { client, waits } = fixture({
      // The server comes up during the first backoff.
      sleep: async (ms) => {
        waits.push(ms);
        if (late) return;
        late = http.createServer((req, res) => {
          received.push(`${req.method} ${req.url}`);
          res.writeHead(201, { 'content-type': 'application/json' }).end('{"Uid":"d1"}');
        });
        await new Promise<void>((resolve) => late!.listen(port, '127.0.0.1', resolve));
      },
    }, `http://127.0.0.1:${port}`);
    try {
      const res = await client.request({ method: 'POST', path: '/email/lists', body: { Name: 'n' } });
      expect(res.status).toBe(201);
      expect(received).toEqual(['POST /api/v1/email/lists']);
      expect(waits).toHaveLength(1);
    } finally {
      client.close();
      late?.closeAllConnections();
      await new Promise((resolve) => late?.close(resolve));
    }
  });
});

describe('timeouts', () => {
  it.each(['GET', 'POST'] as const)('a hung %s fails with "request timed out" (exit 1) and is not repeated', async (method) => {
    faults.server.script(reply.hang());
    const { client, waits } = fixture({ timeoutMs: 200 });
    const err = await rejectionOf(client.request({ method, path: '/x', body: method === 'POST' ? {} : undefined }));
    expect(err).toBeInstanceOf(BoError);
    expect(err.exitCode).toBe(1);
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/request timed out after 0\.2 s \(--timeout\)$/);
    expect(faults.server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    await faults.server.requests[0]!.closed; // the socket was destroyed
  });

  it('covers the whole body: a body that trickles forever times out', async () => {
    faults.server.script(reply.slowBody(20));
    const err = await rejectionOf(fixture({ timeoutMs: 300 }).client.request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('timeout');
    expect(err.message).toContain('timed out after 0.3 s');
  });
});

describe('interruption', () => {
  it('aborting the client signal mid-request throws InterruptedError (130) and closes the socket', async () => {
    faults.server.script(reply.hang());
    const controller = new AbortController();
    const { client } = fixture({ signal: controller.signal });
    const pending = rejectionOf(client.request({ method: 'GET', path: '/x' }));
    while (faults.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
    await faults.server.requests[0]!.closed;
  });

  it('aborting the request signal during a backoff wait stops the retries', async () => {
    faults.server.script(reply.json(503, {}));
    const controller = new AbortController();
    const { client } = fixture({
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort();
        }),
    });
    const err = await rejectionOf(client.request({ method: 'GET', path: '/x', signal: controller.signal }));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(faults.server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const err = await rejectionOf(fixture().client.request({ method: 'GET', path: '/x', signal: AbortSignal.abort() }));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(faults.server.requests).toHaveLength(0);
  });
});

describe('backoff and Retry-After parsing', () => {
  it('doubles from 250 ms up to 8 s, jittered between half and all of it', () => {
    expect([0, 1, 2, 5, 6, 10].map((n) => backoffMs(n, () => 1))).toEqual([250, 500, 1000, 8000, 8000, 8000]);
    expect([0, 1, 5].map((n) => backoffMs(n, () => 0))).toEqual([125, 250, 4000]);
  });

  it('reads seconds and HTTP-dates, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(waitMs(0, '0')).toBe(0);
    expect(waitMs(0, 'nonsense', () => 1)).toBe(250);
  });
});

describe('the D30 table', () => {
  it('statuses: GET on 429/502/503/504, writes on 429 only', () => {
    const statuses = [400, 404, 409, 429, 500, 501, 502, 503, 504];
    expect(statuses.filter((s) => isRetryableStatus('GET', s))).toEqual([429, 502, 503, 504]);
    for (const m of ['POST', 'PUT', 'DELETE'] as const) expect(statuses.filter((s) => isRetryableStatus(m, s))).toEqual([429]);
  });

  it('failures: writes only when nothing was sent; never a wrong host or a bad certificate', () => {
    expect(isRetryableFailure('GET', { code: 'ECONNRESET', sent: true })).toBe(true);
    expect(isRetryableFailure('POST', { code: 'ECONNRESET', sent: true })).toBe(false);
    expect(isRetryableFailure('POST', { code: 'ECONNREFUSED', sent: false })).toBe(true);
    expect(isRetryableFailure('PUT', { code: 'ETIMEDOUT', sent: false })).toBe(true);
    expect(isRetryableFailure('GET', { code: 'ENOTFOUND', sent: false })).toBe(false);
    expect(isRetryableFailure('GET', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', sent: false })).toBe(false);
    expect(isRetryableFailure('GET', { code: 'ERR_TLS_CERT_ALTNAME_INVALID', sent: false })).toBe(false);
  });
});

describe('humanWait', () => {
  it.each([
    [1_000, '1 s'],
    [59_500, '1 min'],
    [61_000, '2 min'],
    [12_000_000, '3 h 20 min'],
    [7_200_000, '2 h'],
    [86_400_000 + 3_600_000, '1 d 1 h'],
    [1e26, 'more than a year'],
    [Infinity, 'more than a year'],
  ])('%d ms is "%s"', (ms, words) => {
    expect(humanWait(ms)).toBe(words);
  });
});
