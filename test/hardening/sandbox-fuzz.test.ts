// The sandbox under fuzz: generated requests (methods, paths built from every route and
// mangled, query strings, headers, bodies of every shape and type) go over real HTTP to
// a sandbox on a state file. None may get a 500 or an answer that is not JSON, the
// server keeps answering, and the state file still loads in a fresh store afterwards.
// Fixed seed; BO_FUZZ_RUNS raises the number of requests (`npm run fuzz`).
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { fuzzRequest, type FuzzRequest } from './fuzz-requests.js';

const RUNS = fuzzRuns(1500);
const SEED = Number(process.env.BO_FUZZ_SEED ?? 13);
const PARAMS = { seed: 1, accounts: 20 };

let dir: string;
let sb: TestSandbox;
let store: Store;
let sent = 0;
let writes = 0;
const statuses = new Map<number, number>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bo-fuzz-'));
  store = await Store.file({ file: join(dir, 'state.json'), params: PARAMS, seeder: seedState });
  sb = await startTestSandbox({ store });
});

afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
  const spread = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`[hardening] sandbox fuzz: ${sent} requests (seed ${SEED}), ${writes} writes accepted, 0 answers with 500, state reloads; statuses ${spread}`);
});

/** One raw request with node:http (fetch refuses some methods and headers a hostile client sends). */
function send(m: string, url: string, headers: Record<string, string>, payload: string | undefined): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: m, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

let uids: string[] = [];
const PREFIX: Record<string, string> = { accountUid: 'acc_', membershipUid: 'mem_', dealUid: 'deal_', subscriptionUid: 'sub_', subscriptionAddOnUid: 'subaddon_',
  dripCampaignUid: 'drip_', emailListUid: 'list_', entityUid: 'art_', tagUid: 'tag_', kind: '', uid: '' };

/** A seeded Uid for a path parameter: of the kind the parameter names, most of the time. */
function uidFor(param: string, pick: number): string {
  const prefix = PREFIX[param];
  const fitting = prefix && pick % 5 !== 0 ? uids.filter((u) => u.startsWith(prefix)) : uids;
  const from = fitting.length ? fitting : uids;
  return from[pick % Math.max(1, from.length)] ?? 'x';
}

/** Sends one generated request and checks its answer. */
async function check(r: FuzzRequest, pick: number): Promise<void> {
  const m = r.otherMethod ?? r.target.method;
  // Reset and clock are fuzzed too, but rarely: they replace or shift the whole state.
  if (/__sandbox\/(reset|clock)/.test(r.target.path) && pick % 10 !== 0) return;
  const p = r.target.path.replace(/__REAL:(\w+)__/g, (_m, name: string) => encodeURIComponent(uidFor(name, pick)));
  const headers: Record<string, string> = {};
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  if (r.authorization === 'apiKey') headers.authorization = sb.apiKeyHeader;
  else if (r.authorization !== 'none') headers.authorization = r.authorization;
  if (r.forwardedHttp && pick % 7 === 0) headers['x-forwarded-proto'] = 'http';
  let next = pick;
  const real = () => uids[next++ % Math.max(1, uids.length)] ?? 'x';
  const payload = m === 'GET' || m === 'HEAD' ? undefined : r.body?.replace(/__REAL__/g, real);
  // Framed as a client frames it (node:http sends a DELETE body unframed otherwise).
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  sent++;
  const res = await send(m, sb.url + p + r.query, headers, payload);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (m !== 'GET' && m !== 'HEAD' && res.status < 300) writes++;
  const what = `${m} ${p}${r.query} (${res.status}): ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  if (res.text !== '' && m !== 'HEAD') {
    if (/json/.test(res.type)) expect(() => JSON.parse(res.text), what).not.toThrow();
    else expect(res.type, what).toMatch(/^(image\/png|text\/plain)/);
  }
}

/** Still answering, and the file a fresh process would open still loads and serves. */
async function expectStateLoads(): Promise<void> {
  expect((await sb.api('GET', '/crm/accounts?limit=1')).status).toBe(200);
  const reopened = await Store.file({ file: join(dir, 'state.json'), params: PARAMS, seeder: seedState });
  expect(await reopened.read((db) => db.state.apiKey.key)).toBe(sb.fixtures.apiKey.key);
  const again = await startTestSandbox({ store: reopened });
  try {
    expect((await again.api('GET', '/crm/accounts?limit=1')).status).toBe(200);
    expect((await again.raw('GET', '/__sandbox/activity')).status).toBe(200);
  } finally {
    await again.close();
  }
}

describe('sandbox under fuzz', () => {
  beforeAll(async () => {
    const fixtures = (await sb.raw('GET', '/__sandbox/fixtures')).body as Record<string, unknown>;
    uids = [...new Set(JSON.stringify(fixtures).match(/(?<=")[a-z]+_[a-z0-9]+(?=")/g) ?? [])].filter((u) => !u.startsWith('sbx_'));
  });

  it(`${RUNS} generated requests, one at a time: never a 500, always a JSON answer or an empty one, and the state still loads`, async () => {
    await fc.assert(fc.asyncProperty(fuzzRequest, fc.nat(), check), { numRuns: RUNS, seed: SEED, endOnFailure: true });
    await expectStateLoads();
  }, 120_000);

  it(`${Math.ceil(RUNS / 5)} bursts of up to 8 generated requests at once: the same, with writes racing on the state file`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fuzzRequest, fc.nat()), { minLength: 2, maxLength: 8 }), async (burst) => {
        await Promise.all(burst.map(([r, pick]) => check(r, pick)));
      }),
      { numRuns: Math.ceil(RUNS / 5), seed: SEED + 1, endOnFailure: true },
    );
    await expectStateLoads();
  }, 120_000);
});

/** One request with the request-target exactly as given (clients normalise `..` and `//`); the status line and body of the answer. */
function sendRaw(target: string, authorization: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`);
    });
    let raw = '';
    socket.setEncoding('utf8').on('data', (d) => (raw += d));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), text: raw.split('\r\n\r\n').slice(1).join('\r\n\r\n') }));
    socket.on('error', reject);
  });
}

describe('request targets the fuzz found', () => {
  // A target starting with "//" was parsed as a URL with a host: "//%5BL/%" answered 500
  // ("Invalid URL"), and "//other.example/api/v1/…" was served as /api/v1/….
  it.each([
    ['//%5BL/%', 404],
    ['//other.example/api/v1/crm/accounts?limit=1', 404],
    ['//api/v1/crm/accounts', 404],
    ['/api/v1//crm/accounts', 404],
    ['*', 404],
    ['http://other.example/api/v1/crm/accounts', 404],
  ])('GET %s: %i with a JSON error, not routed as another host', async (target, status) => {
    const r = await sendRaw(target, sb.apiKeyHeader);
    sent++;
    expect(r.status, r.text).toBe(status);
    expect(JSON.parse(r.text.replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''))).toMatchObject({ error: 'not_found' });
  });
});
