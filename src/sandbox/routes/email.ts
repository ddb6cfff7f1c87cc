// Email endpoints (§4): lists (unique Name → 409, D6), broadcasts, drip messages and
// deletion (D25), and the public list subscription (D4, D20).

import { randomUUID } from 'node:crypto';
import { page } from '../collections.js';
import { ref, refUid } from '../db.js';
import { HttpError, invalid } from '../http-error.js';
import { render } from '../render.js';
import { created, ok, rendered, type Route, type RouteRequest } from '../router.js';
import { SUBSCRIBER_STATUS } from '../schema.js';
import type { Tx } from '../tx.js';
import { bool, int, obj, objectBody, present, str } from '../validate.js';
import { merged, newRecord, V1 } from './common.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function createList(req: RouteRequest, tx: Tx) {
  const b = objectBody(req.body);
  const name = str(b, 'Name', { required: true, min: 1, max: 100 })!;
  const fields = present({
    Description: str(b, 'Description'),
    WelcomeSubject: str(b, 'WelcomeSubject'),
    WelcomeBody: str(b, 'WelcomeBody'),
    WelcomeFromName: str(b, 'WelcomeFromName'),
    WelcomeFromEmail: str(b, 'WelcomeFromEmail'),
    RequiresDoubleOptIn: bool(b, 'RequiresDoubleOptIn'),
    IsInternal: bool(b, 'IsInternal'),
    FieldConfigurationDataJSON: str(b, 'FieldConfigurationDataJSON'),
  });
  const key = name.trim().toLowerCase();
  if (tx.all('EmailList').some((l) => String(l.Name ?? '').trim().toLowerCase() === key)) {
    throw new HttpError(409, 'conflict', `an email list named ${JSON.stringify(name)} already exists`, [{ field: 'Name', message: 'is already taken' }]);
  }
  const list = tx.put('EmailList', newRecord(tx, 'EmailList', `list_${randomUUID()}`, {
    Name: name, Description: null, WelcomeSubject: null, WelcomeBody: null, WelcomeFromName: null, WelcomeFromEmail: null,
    RequiresDoubleOptIn: false, IsInternal: false, FieldConfigurationDataJSON: null, ...fields,
    CountSubscriptionsActive: 0, CountSubscriptionsBounce: 0, CountSubscriptionsIssues: 0,
    CountSubscriptionsNotConfirmed: 0, CountSubscriptionsSpam: 0, CountSubscriptionsUnsubscribed: 0,
  }));
  return created(rendered('EmailList', list.Uid));
}

function listLists(req: RouteRequest, tx: Tx) {
  return ok(page(tx.db, 'EmailList', tx.db.all('EmailList'), req.query));
}

function getBroadcast(req: RouteRequest, tx: Tx) {
  const broadcast = tx.need('BroadcastCampaign', req.params.broadcastCampaignUid!, 'broadcast campaign');
  return ok(render(tx.db, 'BroadcastCampaign', broadcast));
}

function addDripMessage(req: RouteRequest, tx: Tx) {
  const drip = tx.need('DripCampaign', req.params.dripCampaignUid!, 'drip campaign');
  const b = objectBody(req.body);
  const m = obj(b, 'Message');
  if (!m) throw invalid('Message', 'is required (an object with Subject and Body)');
  const message = {
    Template: null, Design: null, PreviewText: null,
    Name: str(m, 'Name', { max: 250 }) ?? null,
    Subject: str(m, 'Subject', { required: true, min: 1, max: 250 }),
    Body: str(m, 'Body') ?? null,
    CountSent: 0, CountDelivered: 0, CountBounce: 0, CountSpam: 0, CountOpen: 0, CountClick: 0, CountUnsubscribed: 0,
    CountTotalOpen: 0, CountTotalClick: 0, IgnoredSpamBounce: 0, IsBounceRatePaused: false, IsSpamScorePaused: false,
    EmailLinks: [], SpamAssassinScore: null, SpamStatus: null, SpamReason: null,
  };
  const saved = tx.put('DripCampaignMessage', newRecord(tx, 'DripCampaignMessage', `dripmsg_${randomUUID()}`, {
    DripCampaign: ref(drip.Uid),
    Message: message,
    DelayFromPriorDay: int(b, 'DelayFromPriorDay', { min: 0 }) ?? 0,
    DelayInHours: int(b, 'DelayInHours', { min: 0 }) ?? 0,
    Weight: int(b, 'Weight') ?? tx.db.children('DripCampaignMessage', 'DripCampaign', drip.Uid).length + 1,
  }));
  // §3 / D25: a new message holds the schedule for review.
  tx.put('DripCampaign', merged(tx, drip, { IsActive: false }));
  return created(rendered('DripCampaignMessage', saved.Uid));
}

function deleteDrip(req: RouteRequest, tx: Tx) {
  const drip = tx.need('DripCampaign', req.params.dripCampaignUid!, 'drip campaign');
  for (const m of tx.db.children('DripCampaignMessage', 'DripCampaign', drip.Uid)) tx.remove('DripCampaignMessage', m.Uid);
  tx.remove('DripCampaign', drip.Uid);
  return ok(`Drip campaign ${drip.Uid} deleted`);
}

const COUNTER: Record<number, string> = { 1: 'CountSubscriptionsActive', 2: 'CountSubscriptionsNotConfirmed' };

function subscribe(req: RouteRequest, tx: Tx) {
  const list = tx.need('EmailList', req.params.emailListUid!, 'email list');
  const b = objectBody(req.body);
  const p = obj(b, 'Person');
  if (!p) throw invalid('Person', 'is required (an object with Email)');
  const personUid = refUid(p.Uid);
  let person = personUid ? tx.need('Person', personUid, 'person') : undefined;
  if (!person) {
    const email = str(p, 'Email', { required: true, min: 3, max: 254 })!.trim();
    if (!EMAIL.test(email)) throw invalid('Person.Email', 'must be an email address');
    const firstName = str(p, 'FirstName', { max: 100 });
    const lastName = str(p, 'LastName', { max: 100 });
    person = tx.db.personByEmail(email);
    if (!person) {
      person = tx.put('Person', newRecord(tx, 'Person', `per_${randomUUID()}`, {
        Email: email, FirstName: firstName ?? null, LastName: lastName ?? null,
        FullName: [firstName, lastName].filter(Boolean).join(' ') || null,
        OptInToEmailList: true, HasUnsubscribed: false, HasLoggedIn: false, Account: null, SchemaLessData: {},
      }));
    }
  }
  const sendWelcome = bool(b, 'SendWelcomeEmail') ?? false;
  const source = str(b, 'Source', { max: 250 }) ?? null;
  const existing = tx.db.children('EmailListPerson', 'EmailList', list.Uid).find((s) => refUid(s.Person) === person.Uid);
  // D20: subscribing twice returns the existing subscription.
  if (existing) return ok(render(tx.db, 'EmailListPerson', existing));

  const doubleOptIn = list.RequiresDoubleOptIn === true;
  const status = doubleOptIn ? SUBSCRIBER_STATUS.NotConfirmed : SUBSCRIBER_STATUS.Active;
  const now = tx.now().toISOString();
  const subscription = tx.put('EmailListPerson', newRecord(tx, 'EmailListPerson', `elp_${randomUUID()}`, {
    EmailList: ref(list.Uid), Person: ref(person.Uid), EmailListSubscriberStatus: status, SubscribedDate: now,
    ConfirmedDate: doubleOptIn ? null : now, UnsubscribedDate: null, CleanedDate: null,
    WelcomeEmailDeliverDateTime: null, WelcomeEmailOpenDateTime: null, ConfirmationNotes: null,
    UnsubscribeReason: null, UnsubscribeReasonOther: null, SendWelcomeEmail: sendWelcome, Source: source,
  }));
  const counter = COUNTER[status]!;
  tx.put('EmailList', merged(tx, list, { [counter]: Number(list[counter] ?? 0) + 1 }));
  const to = String(person.Email);
  if (doubleOptIn) {
    tx.sendEmail({ to, subject: `Confirm your subscription to ${list.Name}`, text: `Confirm: ${req.server.issuer}/lists/confirm?s=${subscription.Uid}`, code: null });
  }
  if (sendWelcome && typeof list.WelcomeSubject === 'string' && list.WelcomeSubject !== '') {
    tx.sendEmail({ to, subject: list.WelcomeSubject, text: String(list.WelcomeBody ?? ''), code: null });
    tx.put('EmailListPerson', { ...subscription, WelcomeEmailDeliverDateTime: now });
  }
  return created(rendered('EmailListPerson', subscription.Uid));
}

export const emailRoutes: Route[] = [
  { method: 'POST', pattern: `${V1}/email/lists`, auth: 'required', handler: createList },
  { method: 'GET', pattern: `${V1}/email/lists`, auth: 'required', handler: listLists },
  { method: 'GET', pattern: `${V1}/email/campaigns/broadcasts/:broadcastCampaignUid`, auth: 'required', handler: getBroadcast },
  { method: 'POST', pattern: `${V1}/email/campaigns/drips/:dripCampaignUid/messages`, auth: 'required', handler: addDripMessage },
  { method: 'DELETE', pattern: `${V1}/email/campaigns/drips/:dripCampaignUid`, auth: 'required', handler: deleteDrip },
  { method: 'POST', pattern: `${V1}/public/email/lists/:emailListUid/subscriptions`, auth: 'none', handler: subscribe },
];
