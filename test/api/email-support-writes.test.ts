// Contract tests: the email and support functions and mutation request builders (sent
// through client.request) send bodies the sandbox accepts
// (D4, D17, D20, D25, D26, D29), and what they change is stored.
import { describe, expect, it } from 'vitest';
import { addDripMessageRequest, createListRequest, deleteDripRequest, getBroadcast, subscribeToListRequest } from '../../src/api/email.js';
import { untagArticleRequest } from '../../src/api/support.js';
import { useSandboxClient } from './sandbox-client.js';

const t = useSandboxClient();
const send = t.send;

describe('email functions against the sandbox', () => {
  it('createListRequest sends the list fields; the list is stored', async () => {
    const list = await send(createListRequest({
      Name: 'Contract list ✉️',
      Description: 'made by a test',
      RequiresDoubleOptIn: true,
      IsInternal: true,
      WelcomeSubject: 'Welcome',
      WelcomeBody: 'Hello',
      WelcomeFromName: 'Team',
      WelcomeFromEmail: 'team@example.com',
    }));
    expect(await t.sb.record('EmailList', list.Uid)).toMatchObject({
      Name: 'Contract list ✉️',
      Description: 'made by a test',
      RequiresDoubleOptIn: true,
      IsInternal: true,
      WelcomeSubject: 'Welcome',
      WelcomeFromEmail: 'team@example.com',
    });
  });

  it('getBroadcast reads one broadcast', async () => {
    const uid = t.sb.fixtures.broadcasts[0]!;
    const broadcast = await getBroadcast(t.client, uid);
    expect(broadcast.Uid).toBe(uid);
    expect(broadcast.Status).toBe((await t.sb.record('BroadcastCampaign', uid)).Status);
  });

  it('addDripMessageRequest sends Message{Name,Subject,Body} and the delays; the campaign turns inactive (D25)', async () => {
    const drip = t.sb.fixtures.dripCampaigns[0]!;
    const message = await send(addDripMessageRequest(drip, {
      Message: { Name: 'Day 3', Subject: 'Tips 💡', Body: '<p>Hi</p>' },
      DelayInHours: 72,
      DelayFromPriorDay: 2,
    }));
    expect(await t.sb.record('DripCampaignMessage', message.Uid)).toMatchObject({
      DripCampaign: { Uid: drip },
      Message: { Name: 'Day 3', Subject: 'Tips 💡', Body: '<p>Hi</p>' },
      DelayInHours: 72,
      DelayFromPriorDay: 2,
    });
    expect((await t.sb.record('DripCampaign', drip)).IsActive).toBe(false);
  });

  it('deleteDripRequest removes the campaign; a second delete is 404 (D25)', async () => {
    const drip = t.sb.fixtures.dripCampaigns[t.sb.fixtures.dripCampaigns.length - 1]!;
    expect(typeof (await send(deleteDripRequest(drip)))).toBe('string');
    expect(await t.sb.record('DripCampaign', drip)).toBeNull();
    await expect(send(deleteDripRequest(drip))).rejects.toMatchObject({ status: 404, exitCode: 3 });
  });

  it('subscribeToListRequest goes without an Authorization header and stores the subscription (D4, D20)', async () => {
    const list = t.sb.fixtures.emailLists[0]!;
    const subscription = await send(subscribeToListRequest(list, {
      Person: { Email: 'new.subscriber@example.com', FirstName: 'New', LastName: 'Subscriber' },
      SendWelcomeEmail: false,
      Source: 'contract-test',
    }));
    const stored = await t.sb.record('EmailListPerson', subscription.Uid);
    expect(stored).toMatchObject({ EmailList: { Uid: list }, Source: 'contract-test', SendWelcomeEmail: false });
    expect((await t.sb.record('Person', stored.Person.Uid)).Email).toBe('new.subscriber@example.com');
    // Twice: the same subscription back (D20).
    const again = await send(subscribeToListRequest(list, { Person: { Email: 'NEW.subscriber@example.com' } }));
    expect(again.Uid).toBe(subscription.Uid);
  });
});

describe('support functions against the sandbox', () => {
  it('untagArticleRequest removes the tag from the article only; a missing tag still succeeds (D26)', async () => {
    const article = t.sb.fixtures.articles.find((a) => a.tagUids.length > 0)!;
    const tag = article.tagUids[0]!;
    expect(typeof (await send(untagArticleRequest(article.uid, tag)))).toBe('string');
    const tags = ((await t.sb.record('Article', article.uid)).Tags as Array<{ Uid: string }>).map((t) => t.Uid ?? t);
    expect(tags).not.toContain(tag);
    expect(tags).toEqual(article.tagUids.slice(1));
    expect(typeof (await send(untagArticleRequest(article.uid, tag)))).toBe('string');
  });
});
