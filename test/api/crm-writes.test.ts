// Contract tests: each CRM mutation request builder, sent through client.request, carries a body the sandbox accepts, and the
// sandbox stored the change (D17, D18, D21, D22, D29; D4 and D19 for the magic link).
import { describe, expect, it } from 'vitest';
import { cancelAccountRequest, extendTrialRequest, magicLinkRequest, updateDealRequest, updateMembershipRequest } from '../../src/api/crm.js';
import { useSandboxClient } from './sandbox-client.js';

const t = useSandboxClient();
const send = t.send;

async function currentSubscription(accountUid: string) {
  const account = await t.sb.record('Account', accountUid);
  return t.sb.record('Subscription', account.CurrentSubscription.Uid);
}

describe('CRM mutation requests against the sandbox', () => {
  it('extendTrialRequest sends ToDate and ExpirationDate; the trial end moves (D21)', async () => {
    const uid = t.sb.fixtures.trialAccounts[0]!;
    const before = await currentSubscription(uid);
    const to = new Date(Date.parse(before.EndDate) + 30 * 86_400_000).toISOString();
    const expiration = new Date(Date.parse(to) + 86_400_000).toISOString();
    const answer = await send(extendTrialRequest(uid, { ToDate: to, ExpirationDate: expiration }));
    expect(typeof answer).toBe('string');
    const after = await currentSubscription(uid);
    expect(after.EndDate).toBe(to);
    expect(after.ExpirationDate).toBe(expiration);
  });

  it('cancelAccountRequest sends CancelationReason (one l) and Comment; the request is stored (D22)', async () => {
    const uid = t.sb.fixtures.trialAccounts[1]!;
    const saved = (await send(cancelAccountRequest(uid, { CancelationReason: 'Too expensive', Comment: 'moving to annual elsewhere' }))) as Record<string, any>;
    expect(saved.CancelationReason).toBe('Too expensive');
    const stored = await t.sb.record('CancellationRequest', saved.Uid);
    expect(stored).toMatchObject({ CancelationReason: 'Too expensive', Comment: 'moving to annual elsewhere', Account: { Uid: uid } });
    expect((await t.sb.record('Account', uid)).AccountStage).toBe(4);
  });

  it('updateMembershipRequest changes only the properties sent (D18)', async () => {
    const { accountUid, uid } = t.sb.fixtures.memberships[0]!;
    const before = await t.sb.record('PersonAccount', uid);
    const answer = (await send(updateMembershipRequest(accountUid, uid, { ReceiveInvoices: !before.ReceiveInvoices, Role: 7 }))) as Record<string, any>;
    expect(answer.Uid).toBe(uid);
    const after = await t.sb.record('PersonAccount', uid);
    expect(after.ReceiveInvoices).toBe(!before.ReceiveInvoices);
    expect(after.Role).toBe(7);
    expect(after.IsPrimary).toBe(before.IsPrimary);
  });

  it('updateDealRequest sends PascalCase fields and the stage as a {"Uid"} reference (D29)', async () => {
    const uid = t.sb.fixtures.deals[0]!;
    const stage = t.sb.fixtures.pipelineStages[t.sb.fixtures.pipelineStages.length - 1]!;
    const answer = (await send(updateDealRequest(uid, {
      Name: 'Renewal 🎯',
      Amount: 1234.5,
      DueDate: '2027-01-31T23:59:59.000Z',
      Weight: 3,
      AssignedToPersonClientIdentifier: 'rep-42',
      DealPipelineStage: { Uid: stage },
      SchemaLessData: { region: 'EMEA' },
    }))) as Record<string, any>;
    expect(answer.Uid).toBe(uid);
    expect(await t.sb.record('Deal', uid)).toMatchObject({
      Name: 'Renewal 🎯',
      Amount: 1234.5,
      DueDate: '2027-01-31T23:59:59.000Z',
      Weight: 3,
      AssignedToPersonClientIdentifier: 'rep-42',
      DealPipelineStage: { Uid: stage },
      SchemaLessData: { region: 'EMEA' },
    });
  });

  it('magicLinkRequest goes without an Authorization header (the sandbox refuses one) and emails a known person', async () => {
    const email = t.sb.fixtures.users[0]!.username;
    const mailsBefore = (await t.sb.outbox()).length;
    expect(await send(magicLinkRequest(email))).toEqual({});
    const mails = (await t.sb.outbox()).slice(mailsBefore);
    expect(mails.map((m) => m.to)).toEqual([email]);
    const last = (await t.sb.activity()).at(-1)!;
    expect(last).toMatchObject({ method: 'POST', path: '/api/v1/crm/people/requestMagicLink', status: 200 });
  });
});
