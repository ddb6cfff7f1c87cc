// CRM endpoints over HTTP (§4): accounts list filters, extend-trial (D21), cancel (D22),
// membership and deal PUT merges (D18, D29), magic link (D19).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
beforeEach(() => sb.reset());
afterAll(() => sb.close());

describe('GET /crm/accounts', () => {
  it('q matches part of a name, case-insensitively', async () => {
    const r = await sb.api('GET', '/crm/accounts?q=ACME&fields=Name');
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const a of r.body.items) expect(a.Name.toLowerCase()).toContain('acme');
    expect(r.body.metadata.total).toBe(r.body.items.length);
  });

  it('q with an exact Uid returns that account', async () => {
    const uid = sb.fixtures.accounts[7]!;
    const r = await sb.api('GET', `/crm/accounts?q=${uid}`);
    expect(r.body.items.map((a: { Uid: string }) => a.Uid)).toEqual([uid]);
  });

  it('segmentUid keeps the segment members only; an unknown segment is 404', async () => {
    const seg = sb.fixtures.segments[0]!; // "Trialing accounts"
    const r = await sb.api('GET', `/crm/accounts?segmentUid=${seg}`);
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const a of r.body.items) expect(sb.fixtures.trialAccounts).toContain(a.Uid);
    const missing = await sb.api('GET', '/crm/accounts?segmentUid=seg_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('not_found');
  });

  it('sends AccountStageLabel with AccountStage', async () => {
    const r = await sb.api('GET', '/crm/accounts?limit=20');
    for (const a of r.body.items) expect(typeof a.AccountStageLabel).toBe('string');
    const stages = new Set(r.body.items.map((a: { AccountStage: number }) => a.AccountStage));
    expect([...stages].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('PUT /crm/accounts/{uid}/extend-trial (D21)', () => {
  const trialEnd = async (accountUid: string) => {
    const account = await sb.record('Account', accountUid);
    return sb.record('Subscription', account.CurrentSubscription.Uid);
  };

  it('moves the trial end to ToDate and ExpirationDate defaults to ToDate; answers a string', async () => {
    const uid = sb.fixtures.trialAccounts[0]!;
    const before = await trialEnd(uid);
    const to = new Date(Date.parse(before.EndDate) + 7 * 86_400_000).toISOString();
    const r = await sb.api('PUT', `/crm/accounts/${uid}/extend-trial`, { body: { ToDate: to } });
    expect(r.status).toBe(200);
    expect(typeof r.body).toBe('string');
    const after = await trialEnd(uid);
    expect(after.EndDate).toBe(to);
    expect(after.ExpirationDate).toBe(to);
  });

  it('sets ExpirationDate when given', async () => {
    const uid = sb.fixtures.trialAccounts[1]!;
    const before = await trialEnd(uid);
    const to = new Date(Date.parse(before.EndDate) + 86_400_000).toISOString();
    const exp = new Date(Date.parse(before.EndDate) + 3 * 86_400_000).toISOString();
    await sb.api('PUT', `/crm/accounts/${uid}/extend-trial`, { body: { ToDate: to, ExpirationDate: exp } });
    expect((await trialEnd(uid)).ExpirationDate).toBe(exp);
  });

  it('refuses a ToDate not later than the trial end (400), changing nothing; a repeat is refused', async () => {
    const uid = sb.fixtures.trialAccounts[0]!;
    const before = await trialEnd(uid);
    const r = await sb.api('PUT', `/crm/accounts/${uid}/extend-trial`, { body: { ToDate: before.EndDate } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('ToDate');
    expect(await trialEnd(uid)).toEqual(before);
  });

  it('requires ToDate, a real date, and an account in trial', async () => {
    const uid = sb.fixtures.trialAccounts[0]!;
    expect((await sb.api('PUT', `/crm/accounts/${uid}/extend-trial`, { body: {} })).body.errors[0].field).toBe('ToDate');
    expect((await sb.api('PUT', `/crm/accounts/${uid}/extend-trial`, { body: { ToDate: 'next week' } })).status).toBe(400);
    const notTrial = (await sb.api('GET', '/crm/accounts?AccountStage=3&limit=1')).body.items[0].Uid;
    const r = await sb.api('PUT', `/crm/accounts/${notTrial}/extend-trial`, { body: { ToDate: '2099-01-01T00:00:00Z' } });
    expect(r.status).toBe(400);
    expect(r.body.error_description).toMatch(/not in trial/);
  });

  it('answers 404 for an unknown account', async () => {
    const r = await sb.api('PUT', '/crm/accounts/acc_nope/extend-trial', { body: { ToDate: '2099-01-01T00:00:00Z' } });
    expect(r.status).toBe(404);
  });
});

describe('PUT /crm/accounts/{uid}/cancel (D22)', () => {
  it('stores the request, moves the account to Cancelling, ends the subscription at renewal', async () => {
    const uid = (await sb.api('GET', '/crm/accounts?AccountStage=3&limit=1')).body.items[0].Uid;
    const account = await sb.record('Account', uid);
    const sub = await sb.record('Subscription', account.CurrentSubscription.Uid);
    const r = await sb.api('PUT', `/crm/accounts/${uid}/cancel`, { body: { CancelationReason: 'Too expensive', Comment: 'bye' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ _objectType: 'CancellationRequest', CancelationReason: 'Too expensive', Comment: 'bye' });
    expect(Date.parse(r.body.SubmittedDateTime)).not.toBeNaN();
    const stored = await sb.record('CancellationRequest', r.body.Uid);
    expect(stored.Account.Uid).toBe(uid);
    expect(await sb.record('Account', uid)).toMatchObject({ AccountStage: 4, AccountStageLabel: 'Cancelling' });
    expect((await sb.record('Subscription', sub.Uid)).EndDate).toBe(sub.RenewalDate);
  });

  it('keeps SubmittedDateTime when the caller sends one', async () => {
    const uid = (await sb.api('GET', '/crm/accounts?AccountStage=3&limit=1')).body.items[0].Uid;
    const r = await sb.api('PUT', `/crm/accounts/${uid}/cancel`, { body: { CancelationReason: 'x', SubmittedDateTime: '2026-01-02T03:04:05Z' } });
    expect(r.body.SubmittedDateTime).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('PUT /crm/accounts/{uid}/memberships/{uid} (D18)', () => {
  it('merges the fields present and answers the updated membership', async () => {
    const m = sb.fixtures.memberships[0]!;
    const before = await sb.record('PersonAccount', m.uid);
    const r = await sb.api('PUT', `/crm/accounts/${m.accountUid}/memberships/${m.uid}`, { body: { Role: 7 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Uid: m.uid, Role: 7, IsPrimary: before.IsPrimary });
    const after = await sb.record('PersonAccount', m.uid);
    expect(after).toMatchObject({ Role: 7, IsPrimary: before.IsPrimary, ReceiveInvoices: before.ReceiveInvoices });
  });

  it('lets the path Uid win over one in the body', async () => {
    const m = sb.fixtures.memberships[0]!;
    const r = await sb.api('PUT', `/crm/accounts/${m.accountUid}/memberships/${m.uid}`, { body: { Uid: 'other', IsPrimary: false } });
    expect(r.body.Uid).toBe(m.uid);
    expect((await sb.record('PersonAccount', m.uid)).IsPrimary).toBe(false);
  });

  it('answers 404 for a membership of another account, 400 for a wrong type', async () => {
    const [a, b] = [sb.fixtures.memberships[0]!, sb.fixtures.memberships.find((m) => m.accountUid !== sb.fixtures.memberships[0]!.accountUid)!];
    expect((await sb.api('PUT', `/crm/accounts/${a.accountUid}/memberships/${b.uid}`, { body: { Role: 1 } })).status).toBe(404);
    const bad = await sb.api('PUT', `/crm/accounts/${a.accountUid}/memberships/${a.uid}`, { body: { IsPrimary: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'IsPrimary', message: expect.any(String) }]);
  });
});

describe('PUT /crm/deals/{uid} (D18, D29)', () => {
  it('merges fields and accepts a stage reference as {Uid} or a bare string', async () => {
    const uid = sb.fixtures.deals[0]!;
    const before = await sb.record('Deal', uid);
    const [s1, s2] = sb.fixtures.pipelineStages;
    const r = await sb.api('PUT', `/crm/deals/${uid}`, { body: { Amount: 1234.5, DealPipelineStage: { Uid: s1 } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Uid: uid, Name: before.Name, Amount: 1234.5 });
    expect(r.body.DealPipelineStage.Uid).toBe(s1);
    await sb.api('PUT', `/crm/deals/${uid}`, { body: { DealPipelineStage: s2 } });
    expect((await sb.record('Deal', uid)).DealPipelineStage).toEqual({ Uid: s2 });
  });

  it('bounds Name to 1–250 characters (§8) and stores nothing on refusal', async () => {
    const uid = sb.fixtures.deals[0]!;
    const before = await sb.record('Deal', uid);
    for (const Name of ['', 'x'.repeat(251)]) {
      const r = await sb.api('PUT', `/crm/deals/${uid}`, { body: { Name, Amount: 1 } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].field).toBe('Name');
    }
    expect(await sb.record('Deal', uid)).toEqual(before);
    expect((await sb.api('PUT', `/crm/deals/${uid}`, { body: { Name: 'x'.repeat(250) } })).status).toBe(200);
  });

  it('answers 404 for an unknown deal or stage, without a partial write', async () => {
    const uid = sb.fixtures.deals[0]!;
    const before = await sb.record('Deal', uid);
    expect((await sb.api('PUT', '/crm/deals/deal_nope', { body: { Amount: 1 } })).status).toBe(404);
    const r = await sb.api('PUT', `/crm/deals/${uid}`, { body: { Amount: 99, DealPipelineStage: { Uid: 'stage_nope' } } });
    expect(r.status).toBe(404);
    expect(await sb.record('Deal', uid)).toEqual(before);
  });
});

describe('POST /crm/people/requestMagicLink (D19)', () => {
  it('answers 200 {} for a known and an unknown address; emails only the known one', async () => {
    const known = sb.fixtures.users[0]!.username;
    const a = await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: known.toUpperCase() }, authorization: null });
    const b = await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: 'nobody@example.com' }, authorization: null });
    expect([a.status, a.body, b.status, b.body]).toEqual([200, {}, 200, {}]);
    const outbox = await sb.outbox();
    expect(outbox.map((m) => m.to)).toEqual([known]);
    expect(outbox[0]!.text).toContain('/login/magic?token=');
  });
});
