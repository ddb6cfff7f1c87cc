// Transport-level refusals, each a D6 body and never a partial write: malformed JSON,
// wrong content type, oversized body, a body that is not an object.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const listCount = async () => (await sb.api('GET', '/email/lists?donotlog=1')).body.metadata.total;

describe('request bodies (D6)', () => {
  it('malformed JSON → 400 validation_failed, nothing stored', async () => {
    const before = await listCount();
    const r = await sb.api('POST', '/email/lists', { body: '{"Name": "Broken",', contentType: 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'validation_failed', error_description: expect.stringMatching(/malformed JSON/) });
    expect(await listCount()).toBe(before);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['']])('a body sent as "%s" → 415 (D6 shape)', async (type) => {
    const before = await listCount();
    const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL(`${sb.url}/api/v1/email/lists`);
      const req = request(url, { method: 'POST', headers: { authorization: sb.apiKeyHeader, ...(type ? { 'content-type': type } : {}) } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end('{"Name":"Typed"}');
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ error: 'unsupported_media_type', error_description: expect.any(String) });
    expect(await listCount()).toBe(before);
  });

  it('accepts application/json with a charset', async () => {
    const r = await sb.api('POST', '/email/lists', { body: { Name: 'Charset ok' }, contentType: 'application/json; charset=utf-8' });
    expect(r.status).toBe(201);
  });

  it('a body over 1 MiB → 413, nothing stored, and the server keeps serving', async () => {
    const before = await listCount();
    const r = await sb.api('POST', '/email/lists', { body: { Name: 'Huge', Description: 'x'.repeat(1024 * 1024 + 10) } });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'payload_too_large', error_description: expect.any(String) });
    expect(await listCount()).toBe(before);
  });

  it.each([['an array', '[1,2]'], ['a string', '"Name"'], ['null', 'null']])('a body that is %s → 400', async (_label, text) => {
    const r = await sb.api('POST', '/email/lists', { body: text, contentType: 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('body');
  });

  it('a missing body where one is required → 400', async () => {
    const r = await sb.api('PUT', `/crm/deals/${sb.fixtures.deals[0]}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_failed');
  });

  it('ignores unknown properties (D29)', async () => {
    const r = await sb.api('POST', '/email/lists', { body: { Name: 'Extra props', Colour: 'blue' } });
    expect(r.status).toBe(201);
    expect(await sb.record('EmailList', r.body.Uid)).not.toHaveProperty('Colour');
  });

  it('a path Uid with encoded characters is looked up literally (404, not a crash)', async () => {
    const r = await sb.api('PUT', '/crm/deals/%E2%9C%93%20x', { body: { Amount: 1 } });
    expect(r.status).toBe(404);
    const bad = await sb.api('PUT', '/crm/deals/%E0%A4%A', { body: { Amount: 1 } });
    expect(bad.status).toBe(404);
  });
});

describe('HTTP to HTTPS (§7 301)', () => {
  it('redirects a request a proxy marks as plain HTTP, with no body', async () => {
    const res = await fetch(`${sb.url}/api/v1/email/lists?limit=1`, { headers: { 'x-forwarded-proto': 'http' }, redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`https://${new URL(sb.url).host}/api/v1/email/lists?limit=1`);
    expect(await res.text()).toBe('');
  });
});

describe('a handler that fails unexpectedly', () => {
  it('answers 500 in the D6 shape, logs it, and keeps serving', async () => {
    const store = Store.memory({ seed: 1, accounts: 20 }, seedState);
    // A record no API call could produce: a segment whose member list is not a list.
    await store.transact((tx) => tx.put('Segment', { Uid: 'seg_broken', _objectType: 'Segment', Name: 'broken', AccountUids: 5 }));
    const broken = await startTestSandbox({ store });
    try {
      const r = await broken.api('GET', '/crm/accounts?segmentUid=seg_broken');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'server_error', error_description: expect.any(String) });
      expect((await broken.activity()).at(-1)).toMatchObject({ path: '/api/v1/crm/accounts', status: 500 });
      expect((await broken.api('GET', '/crm/accounts?limit=1')).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});
