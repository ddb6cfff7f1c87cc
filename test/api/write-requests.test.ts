// What the mutation request builders put on the wire, sent through client.request, seen by a recording server: method,
// path (Uids encoded), PascalCase bodies with {"Uid"} references (D29), no
// Authorization header on the two public endpoints (D4); and the answers a real
// tenant may give instead of the sandbox's JSON: 204, an empty body, plain text (D17).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelAccountRequest, extendTrialRequest, magicLinkRequest, updateDealRequest, updateMembershipRequest } from '../../src/api/crm.js';
import { expireAddOnRequest, previewAddOn, requireUpgradeRequest, updatePaymentInformationRequest } from '../../src/api/billing.js';
import { addDripMessageRequest, createListRequest, deleteDripRequest, subscribeToListRequest } from '../../src/api/email.js';
import { untagArticleRequest } from '../../src/api/support.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { makeClient, TOKEN } from './client-fixture.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

function lastRequest() {
  const r = server.requests.at(-1)!;
  return { method: r.method, url: r.url, body: r.body === '' ? undefined : JSON.parse(r.body), authorization: r.headers.authorization };
}

describe('mutation request builders on the wire', () => {
  it('send the documented method, path and body with the credential', async () => {
    const { client } = makeClient(server.url);
    const cases: Array<[() => Promise<unknown>, string, string, unknown]> = [
      [() => client.request(extendTrialRequest('acc 1', { ToDate: '2027-01-01T23:59:59.000Z' })), 'PUT', '/api/v1/crm/accounts/acc%201/extend-trial', { ToDate: '2027-01-01T23:59:59.000Z' }],
      [() => client.request(cancelAccountRequest('acc_1', { CancelationReason: 'price', Comment: 'c' })), 'PUT', '/api/v1/crm/accounts/acc_1/cancel', { CancelationReason: 'price', Comment: 'c' }],
      [() => client.request(updateMembershipRequest('acc_1', 'mem_1', { IsPrimary: false, Role: 2 })), 'PUT', '/api/v1/crm/accounts/acc_1/memberships/mem_1', { IsPrimary: false, Role: 2 }],
      [() => client.request(updateDealRequest('deal_1', { DealPipelineStage: { Uid: 'st_1' } })), 'PUT', '/api/v1/crm/deals/deal_1', { DealPipelineStage: { Uid: 'st_1' } }],
      [() => previewAddOn(client, { subscriptionUid: 's', addOnUid: 'a', quantity: 2 }), 'POST', '/api/v1/billing/subscriptionaddons/addsubscriptionaddonpreview', { Subscription: { Uid: 's' }, AddOn: { Uid: 'a' }, Quantity: 2 }],
      [() => client.request(updatePaymentInformationRequest('acc_1', { PaymentToken: 'tok', LastFourDigits: '4242' })), 'POST', '/api/v1/billing/paymentinformation', { PaymentToken: 'tok', LastFourDigits: '4242', Account: { Uid: 'acc_1' } }],
      [() => client.request(requireUpgradeRequest('sub_1', { IsPlanUpgradeRequired: false })), 'PUT', '/api/v1/billing/subscriptions/sub_1/setsubscriptionupgraderequired', { IsPlanUpgradeRequired: false }],
      [() => client.request(expireAddOnRequest('sa_1')), 'PUT', '/api/v1/billing/subscriptionaddons/sa_1/expire', undefined],
      [() => client.request(createListRequest({ Name: 'N', RequiresDoubleOptIn: true })), 'POST', '/api/v1/email/lists', { Name: 'N', RequiresDoubleOptIn: true }],
      [() => client.request(addDripMessageRequest('d_1', { Message: { Subject: 'S', Body: 'B' }, DelayInHours: 4 })), 'POST', '/api/v1/email/campaigns/drips/d_1/messages', { Message: { Subject: 'S', Body: 'B' }, DelayInHours: 4 }],
      [() => client.request(deleteDripRequest('d_1')), 'DELETE', '/api/v1/email/campaigns/drips/d_1', undefined],
      [() => client.request(untagArticleRequest('art_1', 'tag#1')), 'DELETE', '/api/v1/support/articles/art_1/tags/tag%231', undefined],
    ];
    for (const [call, method, url, body] of cases) {
      server.script(reply.json(200, {}));
      await call();
      expect(lastRequest(), url).toEqual({ method, url, body, authorization: `bearer ${TOKEN}` });
    }
    client.close();
  });

  it('send the magic-link and public list subscription requests with no Authorization header', async () => {
    const { client } = makeClient(server.url);
    server.script(reply.json(200, {}), reply.json(201, { Uid: 'elp_1' }));
    await client.request(magicLinkRequest('ada@example.com'));
    expect(lastRequest()).toEqual({ method: 'POST', url: '/api/v1/crm/people/requestMagicLink', body: { Email: 'ada@example.com' }, authorization: undefined });
    await client.request(subscribeToListRequest('list_1', { Person: { Email: 'b@example.com' }, Source: 'web' }));
    expect(lastRequest()).toEqual({
      method: 'POST',
      url: '/api/v1/public/email/lists/list_1/subscriptions',
      body: { EmailList: { Uid: 'list_1' }, Person: { Email: 'b@example.com' }, Source: 'web' },
      authorization: undefined,
    });
    client.close();
  });

  it('accept 204, an empty body or plain text where the answer is "not shown" or a string', async () => {
    const { client } = makeClient(server.url);
    server.script(
      (_req, res) => {
        res.writeHead(204);
        res.end();
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end();
      },
      reply.text(200, 'Add-on expired'),
      reply.json(200, 'Drip campaign deleted'),
    );
    expect((await client.request(cancelAccountRequest('acc_1', { CancelationReason: 'x' }))).body).toBeUndefined();
    expect((await client.request(requireUpgradeRequest('sub_1', { IsPlanUpgradeRequired: true }))).body).toBeUndefined();
    expect((await client.request(expireAddOnRequest('sa_1'))).body).toBe('Add-on expired');
    expect((await client.request(deleteDripRequest('d_1'))).body).toBe('Drip campaign deleted');
    client.close();
  });
});
