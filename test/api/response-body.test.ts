// An answer's bytes as the client gathers them (src/api/http-attempt.ts): a body of a
// declared, modest length goes into one buffer of that length as it arrives; any other
// (no length, or one over 4 MB) is kept as its chunks. Either way the body is exactly
// what the server sent, however the server splits it, and a lazy answer's bytes
// (paginate.ts reads a page from them) are the same bytes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { HttpClient } from '../../src/api/http-types.js';
import { startFaultServer, type FaultServer, type Step } from '../helpers/fault-server.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { makeClient } from './client-fixture.js';

let server: FaultServer;
let client: HttpClient;
beforeEach(async () => {
  server = await startFaultServer();
  client = makeClient(server.url, { trace: undefined }).client;
});
afterEach(async () => {
  client.close();
  await server.close();
});

/** Sends `body` in pieces of the given sizes (the rest in one), a millisecond apart: the client reads them as separate chunks. */
function inPieces(body: Buffer, sizes: number[], declared: boolean): Step {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(body.length) } : {}) });
    let at = 0;
    const next = () => {
      if (at >= body.length) return void res.end();
      const size = sizes.length > 0 ? Math.max(1, sizes.shift()!) : body.length - at;
      res.write(body.subarray(at, at + size));
      at += size;
      setTimeout(next, 1);
    };
    next();
  };
}

const jsonBody = (text: string) => Buffer.from(JSON.stringify({ items: [{ Name: text }], metadata: { total: 1 } }), 'utf8');

describe('an answer gathered as it arrives', () => {
  it('is the bytes the server sent, with or without their length, however they are split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', '\\', ' '), maxLength: 40_000 }),
        fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        async (text, sizes, declared, asBytes) => {
          const body = jsonBody(text);
          server.script(inPieces(body, [...sizes], declared));
          if (asBytes) {
            const r = await client.requestBytes({ method: 'GET', path: '/crm/accounts' });
            expect(r.bytes?.equals(body)).toBe(true);
            expect(r.read()).toEqual(JSON.parse(body.toString('utf8')));
          } else {
            const r = await client.request({ method: 'GET', path: '/crm/accounts' });
            expect(r.body).toEqual(JSON.parse(body.toString('utf8')));
          }
        },
      ),
      { numRuns: fuzzRuns(60) },
    );
  });

  it('keeps a body declared over 4 MB as its chunks, and reads it whole', async () => {
    const body = jsonBody('x'.repeat(5 * 1024 * 1024));
    server.script(inPieces(body, [1, 70_000, 3], true));
    const r = await client.requestBytes({ method: 'GET', path: '/crm/accounts' });
    expect(r.bytes?.equals(body)).toBe(true);
  });
});
