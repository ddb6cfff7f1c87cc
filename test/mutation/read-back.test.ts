// The reads a mutation definition declares to tell whether its change is in place
// (`readBack`, for a re-send of a run whose outcome was never known): against a served
// sandbox, each says "not yet" before bo makes the change and "in place" after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/api/http.js';
import type { HttpClient, RequestOptions } from '../../src/api/http-types.js';
import { membershipIs, membershipRequest, trialEndRequest, trialEndsAt } from '../../src/api/crm.js';
import { listNamed, listNamedRequest } from '../../src/api/email.js';
import { USER_AGENT } from '../../src/connection.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
let client: HttpClient;
beforeAll(async () => {
  sb = await startTestSandbox();
  const { key, secret } = sb.fixtures.apiKey;
  client = createHttpClient({
    baseUrl: sb.url,
    credential: { kind: 'apiKey', key, secret },
    apiKeyScheme: sb.fixtures.apiKey.scheme,
    timeoutMs: 10_000,
    maxRetries: 0,
    noLog: false,
    userAgent: USER_AGENT,
    sleep: async () => {},
  });
});
afterAll(async () => {
  client.close();
  await sb.close();
});

const read = async (req: Pick<RequestOptions, 'method' | 'path' | 'query'>) => (await client.request<unknown>(req)).body;

describe('read-backs of the mutations whose re-send is checked first', () => {
  it('accounts extend-trial: the trial end', async () => {
    const account = sb.fixtures.trialAccounts[0]!;
    const to = '2031-03-31T23:59:59.000Z';
    expect(trialEndsAt(await read(trialEndRequest(account)), account)).not.toBe(Date.parse(to));
    const r = await runBo(['accounts', 'extend-trial', account, '--to', '2031-03-31'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(trialEndsAt(await read(trialEndRequest(account)), account)).toBe(Date.parse(to));
  });

  it('memberships update: the membership holds every field given', async () => {
    const { accountUid, uid } = sb.fixtures.memberships[0]!;
    const changes = { ReceiveInvoices: false, Role: 7 };
    expect(membershipIs(await read(membershipRequest(accountUid)), accountUid, uid, changes)).toBe(false);
    const r = await runBo(['memberships', 'update', accountUid, uid, '--no-receive-invoices', '--role', '7'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(membershipIs(await read(membershipRequest(accountUid)), accountUid, uid, changes)).toBe(true);
    expect(membershipIs(await read(membershipRequest(accountUid)), accountUid, uid, { Role: 8 })).toBe(false);
  });

  it('lists create: a list of that name', async () => {
    const name = 'Read-back check';
    expect(listNamed(await read(listNamedRequest(name)), name)).toBe(false);
    const r = await runBo(['lists', 'create', '--name', name], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(listNamed(await read(listNamedRequest(name)), name)).toBe(true);
  });
});
