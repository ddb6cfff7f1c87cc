// CRM endpoints (§4): accounts list, extend-trial (D21), cancel (D22), membership
// and deal updates (D18), magic link (D4, D19).

import { randomBytes, randomUUID } from 'node:crypto';
import { page } from '../collections.js';
import { ref, refUid, type Db } from '../db.js';
import { invalid, notFound } from '../http-error.js';
import { ok, rendered, type Route, type RouteRequest } from '../router.js';
import { ACCOUNT_STAGES, type Rec } from '../schema.js';
import type { Tx } from '../tx.js';
import { bool, date, int, num, obj, objectBody, present, refField, str } from '../validate.js';
import { merged, newRecord, V1 } from './common.js';

function listAccounts(req: RouteRequest, tx: Tx) {
  const db = tx.db;
  const all = db.all('Account');
  let candidates = all;
  const q = req.query.get('q');
  if (q !== null && q !== '') candidates = searchAccounts(db, all, q);
  const segmentUid = req.query.get('segmentUid');
  if (segmentUid !== null && segmentUid !== '') {
    const segment = db.get('Segment', segmentUid);
    if (!segment) throw notFound('segment', segmentUid);
    const members = new Set(segment.AccountUids as string[]);
    candidates = candidates.filter((a) => members.has(a.Uid));
  }
  return ok(page(db, 'Account', candidates, req.query, ['q', 'segmentUid']));
}

/**
 * `q`: part of the name (case-insensitive) or the exact Uid. The lower-cased names are
 * kept as one newline-joined string per state version, so a search over 100,000
 * accounts is one indexOf scan plus a binary search per match: about a millisecond.
 */
function searchAccounts(db: Db, all: Rec[], q: string): Rec[] {
  const needle = q.toLowerCase();
  const index = db.memo('Account', 'nameIndex', () => {
    const names = all.map((a) => String(a.Name ?? '').toLowerCase().replace(/\n/g, ' '));
    const starts = new Int32Array(names.length + 1);
    let at = 0;
    names.forEach((n, i) => {
      starts[i] = at;
      at += n.length + 1;
    });
    starts[names.length] = at;
    return { text: names.join('\n'), starts };
  });
  const hits: number[] = [];
  if (!needle.includes('\n')) {
    let from = 0;
    for (;;) {
      const pos = index.text.indexOf(needle, from);
      if (pos < 0) break;
      let lo = 0;
      let hi = all.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (index.starts[mid]! <= pos) lo = mid;
        else hi = mid - 1;
      }
      hits.push(lo);
      from = index.starts[lo + 1]!;
    }
  }
  const exact = db.get('Account', q);
  if (exact) {
    const i = all.indexOf(exact);
    if (i >= 0 && !hits.includes(i)) {
      hits.push(i);
      hits.sort((a, b) => a - b);
    }
  }
  return hits.map((i) => all[i]!);
}

function currentSubscription(tx: Tx, account: Rec): Rec | undefined {
  const uid = refUid(account.CurrentSubscription);
  return uid ? tx.get('Subscription', uid) : undefined;
}

function extendTrial(req: RouteRequest, tx: Tx) {
  const account = tx.need('Account', req.params.accountUid!, 'account');
  const b = objectBody(req.body);
  const to = date(b, 'ToDate', true)!;
  const expiration = date(b, 'ExpirationDate') ?? to;
  const sub = currentSubscription(tx, account);
  if (account.AccountStage !== 2 || !sub) {
    throw invalid('accountUid', `account is not in trial (stage ${account.AccountStage} ${account.AccountStageLabel ?? ''})`.trim());
  }
  const end = typeof sub.EndDate === 'string' ? sub.EndDate : undefined;
  if (end && Date.parse(to) <= Date.parse(end)) throw invalid('ToDate', `must be later than the current trial end ${end}`);
  tx.put('Subscription', merged(tx, sub, { EndDate: to, ExpirationDate: expiration }));
  return ok(`Trial extended to ${to}`);
}

function cancel(req: RouteRequest, tx: Tx) {
  const account = tx.need('Account', req.params.accountUid!, 'account');
  const b = objectBody(req.body);
  const reason = str(b, 'CancelationReason', { max: 1000 });
  const comment = str(b, 'Comment', { max: 4000 });
  const submitted = date(b, 'SubmittedDateTime');
  const lastPlanUid = refField(b, 'LastPlan');
  if (lastPlanUid) tx.need('Plan', lastPlanUid, 'plan');
  const sub = currentSubscription(tx, account);
  if (!sub || account.AccountStage === 5) {
    throw invalid('accountUid', `account has no running subscription to cancel (stage ${account.AccountStage})`);
  }
  const request = newRecord(tx, 'CancellationRequest', `cancel_${randomUUID()}`, {
    SubmittedDateTime: submitted ?? tx.now().toISOString(),
    CancelationReason: reason ?? null,
    Comment: comment ?? null,
    Account: ref(account.Uid),
    LastPlan: lastPlanUid ? ref(lastPlanUid) : (sub.Plan ?? null),
    SubscribingStartDate: date(b, 'SubscribingStartDate') ?? sub.StartDate ?? null,
  });
  tx.put('CancellationRequest', request);
  tx.put('Account', merged(tx, account, { AccountStage: 4, AccountStageLabel: ACCOUNT_STAGES[4] }));
  tx.put('Subscription', merged(tx, sub, { EndDate: sub.RenewalDate ?? null }));
  return ok(rendered('CancellationRequest', request.Uid));
}

function updateMembership(req: RouteRequest, tx: Tx) {
  const accountUid = req.params.accountUid!;
  tx.need('Account', accountUid, 'account');
  const membership = tx.need('PersonAccount', req.params.membershipUid!, 'membership');
  if (refUid(membership.Account) !== accountUid) throw notFound(`membership in account ${accountUid}:`, membership.Uid);
  const b = objectBody(req.body);
  const personUid = refField(b, 'Person');
  if (personUid) tx.need('Person', personUid, 'person');
  const changes = present({
    IsPrimary: bool(b, 'IsPrimary'),
    ReceiveInvoices: bool(b, 'ReceiveInvoices'),
    Role: int(b, 'Role'),
    Person: personUid ? ref(personUid) : undefined,
  });
  tx.put('PersonAccount', merged(tx, membership, changes));
  return ok(rendered('PersonAccount', membership.Uid));
}

function updateDeal(req: RouteRequest, tx: Tx) {
  const deal = tx.need('Deal', req.params.dealUid!, 'deal');
  const b = objectBody(req.body);
  const stageUid = refField(b, 'DealPipelineStage');
  if (stageUid) tx.need('DealPipelineStage', stageUid, 'pipeline stage');
  const accountUid = refField(b, 'Account');
  if (accountUid) tx.need('Account', accountUid, 'account');
  const ownerUid = refField(b, 'Owner');
  if (ownerUid) tx.need('Person', ownerUid, 'person');
  const changes = present({
    Name: str(b, 'Name', { min: 1, max: 250, required: b.Name !== undefined }),
    Amount: num(b, 'Amount'),
    DueDate: date(b, 'DueDate'),
    AssignedToPersonClientIdentifier: str(b, 'AssignedToPersonClientIdentifier', { max: 50 }),
    Weight: int(b, 'Weight'),
    Contacts: str(b, 'Contacts'),
    PipelineUid: str(b, 'PipelineUid'),
    AccountId: int(b, 'AccountId'),
    SchemaLessData: obj(b, 'SchemaLessData'),
    DealPipelineStage: stageUid ? ref(stageUid) : undefined,
    Account: accountUid ? ref(accountUid) : undefined,
    Owner: ownerUid ? ref(ownerUid) : undefined,
  });
  tx.put('Deal', merged(tx, deal, changes));
  return ok(rendered('Deal', deal.Uid));
}

function requestMagicLink(req: RouteRequest, tx: Tx) {
  const b = objectBody(req.body);
  const email = str(b, 'Email', { required: true, min: 1, max: 254 })!;
  const person = tx.db.personByEmail(email.trim());
  // D19: the same answer whether or not the address is known.
  if (person) {
    const token = randomBytes(18).toString('base64url');
    tx.sendEmail({
      to: String(person.Email),
      subject: 'Your sign-in link',
      text: `Sign in with this link (valid for 15 minutes): ${req.server.issuer}/login/magic?token=${token}`,
      code: null,
    });
  }
  return ok({});
}


export const crmRoutes: Route[] = [
  { method: 'GET', pattern: `${V1}/crm/accounts`, auth: 'required', handler: listAccounts },
  { method: 'PUT', pattern: `${V1}/crm/accounts/:accountUid/extend-trial`, auth: 'required', handler: extendTrial },
  { method: 'PUT', pattern: `${V1}/crm/accounts/:accountUid/cancel`, auth: 'required', handler: cancel },
  { method: 'PUT', pattern: `${V1}/crm/accounts/:accountUid/memberships/:membershipUid`, auth: 'required', handler: updateMembership },
  { method: 'PUT', pattern: `${V1}/crm/deals/:dealUid`, auth: 'required', handler: updateDeal },
  { method: 'POST', pattern: `${V1}/crm/people/requestMagicLink`, auth: 'none', handler: requestMagicLink },
];
