// Email and support endpoints over HTTP (§4): lists (409, §8 bounds), broadcasts,
// drips (§3, D25), public subscriptions (D20), article tags (D26).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
beforeEach(() => sb.reset());
afterAll(() => sb.close());

describe('POST /email/lists', () => {
  it('creates a list (201) with the fields given', async () => {
    const r = await sb.api('POST', '/email/lists', { body: { Name: 'Beta testers', Description: 'Early access', RequiresDoubleOptIn: true } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ _objectType: 'EmailList', Name: 'Beta testers', Description: 'Early access', RequiresDoubleOptIn: true, CountSubscriptionsActive: 0 });
    expect(await sb.record('EmailList', r.body.Uid)).toMatchObject({ Name: 'Beta testers' });
    const list = await sb.api('GET', '/email/lists?Name=Beta%20testers');
    expect(list.body.items.map((l: { Uid: string }) => l.Uid)).toEqual([r.body.Uid]);
  });

  it('answers 409 conflict when the Name is taken (case-insensitive), storing nothing', async () => {
    const before = (await sb.api('GET', '/email/lists')).body.metadata.total;
    const r = await sb.api('POST', '/email/lists', { body: { Name: 'NEWSLETTER' } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'conflict', error_description: expect.any(String), errors: [{ field: 'Name', message: expect.any(String) }] });
    expect((await sb.api('GET', '/email/lists')).body.metadata.total).toBe(before);
  });

  it.each([
    ['missing', {}],
    ['empty', { Name: '' }],
    ['101 characters', { Name: 'x'.repeat(101) }],
    ['not a string', { Name: 42 }],
  ])('refuses a Name that is %s (§8: 1–100)', async (_label, body) => {
    const r = await sb.api('POST', '/email/lists', { body });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('Name');
  });

  it('accepts a 100-character Name', async () => {
    expect((await sb.api('POST', '/email/lists', { body: { Name: 'y'.repeat(100) } })).status).toBe(201);
  });
});

describe('GET /email/campaigns/broadcasts/{uid}', () => {
  it('returns each seeded broadcast, statuses 1–10 all present', async () => {
    const statuses: number[] = [];
    for (const uid of sb.fixtures.broadcasts) {
      const r = await sb.api('GET', `/email/campaigns/broadcasts/${uid}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ Uid: uid, _objectType: 'BroadcastCampaign', Campaign: { Name: expect.any(String) } });
      statuses.push(r.body.Status);
    }
    expect(statuses.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('the Error broadcast carries an ErrorMessage within §8\'s 500 characters', async () => {
    const all = await Promise.all(sb.fixtures.broadcasts.map((uid) => sb.api('GET', `/email/campaigns/broadcasts/${uid}`)));
    const error = all.map((r) => r.body).find((b) => b.Status === 7);
    expect(error.ErrorMessage).toEqual(expect.any(String));
    expect(error.ErrorMessage.length).toBeGreaterThan(0);
    expect(error.ErrorMessage.length).toBeLessThanOrEqual(500);
  });

  it('answers 404 for an unknown broadcast', async () => {
    const r = await sb.api('GET', '/email/campaigns/broadcasts/nope');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });
});

async function activeDrip(): Promise<string> {
  for (const uid of sb.fixtures.dripCampaigns) if ((await sb.record('DripCampaign', uid)).IsActive) return uid;
  throw new Error('no active drip');
}

describe('POST /email/campaigns/drips/{uid}/messages (§3, D25)', () => {
  it('creates the message (201) and deactivates the campaign', async () => {
    const uid = await activeDrip();
    const r = await sb.api('POST', `/email/campaigns/drips/${uid}/messages`, {
      body: { Message: { Name: 'Day 5', Subject: 'Checking in', Body: '<p>Hi</p>' }, DelayInHours: 120, DelayFromPriorDay: 2 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ _objectType: 'DripCampaignMessage', DelayInHours: 120, DelayFromPriorDay: 2, Message: { Subject: 'Checking in' } });
    expect(r.body.DripCampaign.Uid).toBe(uid);
    expect((await sb.record('DripCampaign', uid)).IsActive).toBe(false);
  });

  it('refuses a message without a Subject or with a negative delay, leaving the campaign active', async () => {
    const uid = await activeDrip();
    const a = await sb.api('POST', `/email/campaigns/drips/${uid}/messages`, { body: { Message: { Body: 'x' } } });
    expect(a.status).toBe(400);
    expect(a.body.errors[0].field).toBe('Subject');
    const b = await sb.api('POST', `/email/campaigns/drips/${uid}/messages`, { body: { Message: { Subject: 's' }, DelayInHours: -1 } });
    expect(b.body.errors[0].field).toBe('DelayInHours');
    expect((await sb.record('DripCampaign', uid)).IsActive).toBe(true);
  });

  it('answers 404 for an unknown campaign', async () => {
    expect((await sb.api('POST', '/email/campaigns/drips/nope/messages', { body: { Message: { Subject: 's' } } })).status).toBe(404);
  });
});

describe('DELETE /email/campaigns/drips/{uid} (D25)', () => {
  it('removes the campaign and its messages; a second delete is 404', async () => {
    const uid = sb.fixtures.dripCampaigns[0]!;
    const added = await sb.api('POST', `/email/campaigns/drips/${uid}/messages`, { body: { Message: { Subject: 'x' } } });
    const r = await sb.api('DELETE', `/email/campaigns/drips/${uid}`);
    expect(r.status).toBe(200);
    expect(typeof r.body).toBe('string');
    expect(await sb.record('DripCampaign', uid)).toBeNull();
    expect(await sb.record('DripCampaignMessage', added.body.Uid)).toBeNull();
    expect((await sb.api('DELETE', `/email/campaigns/drips/${uid}`)).status).toBe(404);
  });
});

describe('POST /public/email/lists/{uid}/subscriptions (D20)', () => {
  const subscribe = (listUid: string, body: unknown) =>
    sb.api('POST', `/public/email/lists/${listUid}/subscriptions`, { body, authorization: null });
  const listNamed = async (name: string) =>
    (await sb.api('GET', `/email/lists?Name=${encodeURIComponent(name)}`)).body.items[0];

  it('creates the person and an Active subscription; welcome email when asked and the list has a subject', async () => {
    const list = await listNamed('Newsletter');
    const r = await subscribe(list.Uid, { Person: { Email: 'New.Reader@Example.com', FirstName: 'New' }, SendWelcomeEmail: true, Source: 'site', EmailListSubscriberStatus: 3 });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ _objectType: 'EmailListPerson', EmailListSubscriberStatus: 1, Source: 'site' });
    expect(r.body.Person).toMatchObject({ Email: 'New.Reader@Example.com', FirstName: 'New' });
    expect(await sb.outbox()).toEqual([expect.objectContaining({ to: 'New.Reader@Example.com', subject: list.WelcomeSubject, code: null })]);
    expect((await sb.record('EmailList', list.Uid)).CountSubscriptionsActive).toBe(list.CountSubscriptionsActive + 1);
  });

  it('a double opt-in list makes the subscription NotConfirmed and emails a confirmation', async () => {
    const list = await listNamed('Product updates');
    const r = await subscribe(list.Uid, { Person: { Email: 'opt@example.com' } });
    expect(r.status).toBe(201);
    expect(r.body.EmailListSubscriberStatus).toBe(2);
    const outbox = await sb.outbox();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.subject).toMatch(/^Confirm/);
  });

  it('reuses a known person (case-insensitive email) and returns the existing subscription (200) on a repeat', async () => {
    const list = await listNamed('Staff announcements');
    const known = sb.fixtures.users[0]!.username;
    const first = await subscribe(list.Uid, { Person: { Email: known.toUpperCase() } });
    expect(first.status).toBe(201);
    expect(first.body.Person.Email).toBe(known);
    const again = await subscribe(list.Uid, { Person: { Email: known } });
    expect(again.status).toBe(200);
    expect(again.body.Uid).toBe(first.body.Uid);
  });

  it('refuses a missing or malformed email (400) and an unknown list (404)', async () => {
    const list = await listNamed('Newsletter');
    expect((await subscribe(list.Uid, {})).body.errors[0].field).toBe('Person');
    expect((await subscribe(list.Uid, { Person: { Email: 'not-an-email' } })).body.errors[0].field).toBe('Person.Email');
    expect((await subscribe('list_nope', { Person: { Email: 'a@b.co' } })).status).toBe(404);
  });
});

describe('DELETE /support/articles/{uid}/tags/{tagUid} (D26)', () => {
  it('removes the tag from the article only; the tag record stays', async () => {
    const { uid, tagUids } = sb.fixtures.articles[0]!;
    const r = await sb.api('DELETE', `/support/articles/${uid}/tags/${tagUids[0]}`);
    expect(r.status).toBe(200);
    expect(typeof r.body).toBe('string');
    expect((await sb.record('Article', uid)).Tags).toEqual(tagUids.slice(1).map((t) => ({ Uid: t })));
    expect(await sb.record('Tag', tagUids[0]!)).toMatchObject({ Uid: tagUids[0] });
  });

  it('succeeds and changes nothing when the article lacks the tag', async () => {
    const { uid } = sb.fixtures.articles[0]!;
    const before = await sb.record('Article', uid);
    const r = await sb.api('DELETE', `/support/articles/${uid}/tags/tag_not_there`);
    expect(r.status).toBe(200);
    expect(await sb.record('Article', uid)).toEqual(before);
  });

  it('answers 404 for an unknown article', async () => {
    expect((await sb.api('DELETE', '/support/articles/nope/tags/x')).status).toBe(404);
  });
});
