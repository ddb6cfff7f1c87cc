// One rule for what every mutation prints when it succeeds (a sandbox over HTTP): on a
// terminal `✔ <Kind> <Uid>: Field=value, …` (the fields sent, with the values the
// server's answer holds, or as sent when it answered a string or nothing), piped
// `<uid>\tok\t<Field=value;…>` as a batch outcome line, `--json` the outcome with the
// API's answer unchanged in it; nothing else on stderr, except a note of true information (nothing changed,
// a campaign now inactive). The same formatter writes a batch's outcome lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { shownInText } from '../helpers/local-time.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const tty = { stdoutIsTTY: true };
// No colour, so the lines are compared as text.
const bo = (argv: string[], more: Record<string, unknown> = {}) => runBo(argv, { env: { ...testEnv(sb), LANG: 'C.UTF-8', NO_COLOR: '1' }, ...more });

describe('a single mutation on a terminal: one ✔ line on stdout, nothing on stderr', () => {
  it('addons expire: the answer is a string, so no field but the kind and Uid; the string is not a second answer', async () => {
    const uid = sb.fixtures.subscriptionAddOns[2]!;
    const r = await bo(['addons', 'expire', uid], tty);
    expect(r).toEqual({ code: 0, stdout: `✔ Subscription add-on ${uid} expired\n`, stderr: '' });
    // Again: the add-on had already ended: the line says so (D32), the server's words are a note.
    const again = await bo(['addons', 'expire', uid], tty);
    expect(again.stdout).toBe(`✔ Subscription add-on ${uid} already ended\n`);
    expect(again.stderr).toMatch(/^Add-on already ended at \S+\n$/);
  });

  it('deals update: the fields sent, with the values the server holds, not the whole record', async () => {
    const deal = sb.fixtures.deals[0]!;
    const r = await bo(['deals', 'update', deal, '--amount', '1200', '--due', '2030-03-01'], tty);
    expect(r.code).toBe(0);
    const stored = await sb.record('Deal', deal);
    expect(r.stdout).toBe(`✔ Deal ${deal}: Amount=${stored.Amount}, DueDate=${shownInText(stored.DueDate)}\n`);
    expect(r.stdout).not.toContain('_objectType');
    expect(r.stderr).toBe('');
  });

  it('subscriptions require-upgrade: the fields sent', async () => {
    const sub = sb.fixtures.subscriptions[0]!;
    const r = await bo(['subscriptions', 'require-upgrade', sub, '--quantity', '25', '--message', 'More seats'], tty);
    expect(r).toEqual({
      code: 0,
      stdout: `✔ Subscription ${sub}: IsPlanUpgradeRequired=true, NewRequiredQuantity=25, PlanUpgradeRequiredMessage=More seats\n`,
      stderr: '',
    });
  });

  it('memberships update: the membership and the fields sent', async () => {
    const { accountUid, uid } = sb.fixtures.memberships[0]!;
    const r = await bo(['memberships', 'update', accountUid, uid, '--no-receive-invoices', '--role', '3'], tty);
    expect(r).toEqual({ code: 0, stdout: `✔ Membership ${uid}: ReceiveInvoices=false, Role=3\n`, stderr: '' });
  });

  it('lists create: the new list by its Uid from the answer', async () => {
    const r = await bo(['lists', 'create', '--name', 'Success output list', '--internal'], tty);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✔ Email list (\S+): Name=Success output list, IsInternal=true\n$/);
    const uid = /^✔ Email list (\S+):/.exec(r.stdout)![1]!;
    expect((await sb.record('EmailList', uid))?.Name).toBe('Success output list');
    expect(r.stderr).toBe('');
  });

  it('articles untag: one answer; "nothing changed" is a note only when the article lacked the tag', async () => {
    const { uid, tagUids } = sb.fixtures.articles.find((a) => a.tagUids.length > 0)!;
    const tag = tagUids[0]!;
    const first = await bo(['articles', 'untag', uid, tag], tty);
    expect(first).toEqual({ code: 0, stdout: `✔ Article ${uid}: RemovedTag=${tag}\n`, stderr: '' });
    // The tag was not there: no tag was removed (D32), so the line names no RemovedTag.
    const second = await bo(['articles', 'untag', uid, tag], tty);
    expect(second.stdout).toBe(`✔ Article ${uid} had no such tag\n`);
    expect(second.stderr).toBe(`Article ${uid} has no tag ${tag}; nothing changed\n`);
    expect(second.stderr).not.toContain('no longer has');
  });

  it('accounts extend-trial: the instant sent for a bare date', async () => {
    const acc = sb.fixtures.trialAccounts[0]!;
    const r = await bo(['accounts', 'extend-trial', acc, '--to', '2030-06-30'], tty);
    expect(r).toEqual({ code: 0, stdout: `✔ Account ${acc}: ToDate=${shownInText('2030-06-30T23:59:59.000Z')}\n`, stderr: '' });
  });

  it('a long value (an email body) is cut on a terminal, never piped', async () => {
    const drip = sb.fixtures.dripCampaigns[0]!;
    const body = `<p>${'Welcome aboard. '.repeat(10)}</p>`;
    const shown = await bo(['drips', 'add-message', drip, '--subject', 'Hi', '--body', body], tty);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`, Body=${[...body].slice(0, 59).join('')}…\n`);
    const piped = await bo(['drips', 'add-message', drip, '--subject', 'Hi', '--body', body]);
    expect(piped.stdout).toContain(`;Body=${body}\n`);
  });

  it('LANG=C: the mark is ASCII', async () => {
    const uid = sb.fixtures.subscriptionAddOns[3]!;
    const r = await runBo(['addons', 'expire', uid], { env: { ...testEnv(sb), LANG: 'C', NO_COLOR: '1' }, ...tty });
    expect(r.stdout).toBe(`+ Subscription add-on ${uid} expired\n`);
  });
});

describe('piped: one outcome line, as a batch writes it', () => {
  it('deals update: <uid>\\tok\\t<Field=value;…>', async () => {
    const deal = sb.fixtures.deals[1]!;
    const r = await bo(['deals', 'update', deal, '--name', 'Renewal', '--weight', '3']);
    expect(r).toEqual({ code: 0, stdout: `${deal}\tok\tName=Renewal;Weight=3\n`, stderr: '' });
  });

  it('addons expire: <uid>\\tok\\texpired, the same line its batch writes', async () => {
    const [a, b] = [sb.fixtures.subscriptionAddOns[4]!, sb.fixtures.subscriptionAddOns[5]!];
    const one = await bo(['addons', 'expire', a]);
    expect(one).toEqual({ code: 0, stdout: `${a}\tok\texpired\n`, stderr: '' });
    const batch = await bo(['addons', 'expire', '-'], { stdin: `${b}\n` });
    expect(batch.code).toBe(0);
    expect(batch.stdout).toBe(`${b}\tok\texpired\n`);
  });

  it('a batch of changes: each line carries the fields, on a terminal too', async () => {
    const [d1, d2] = [sb.fixtures.deals[2]!, sb.fixtures.deals[3]!];
    const piped = await bo(['deals', 'update', '-', '--weight', '7'], { stdin: `${d1}\n` });
    expect(piped.stdout).toBe(`${d1}\tok\tWeight=7\n`);
    const onTty = await bo(['deals', 'update', '-', '--weight', '8'], { stdin: `${d2}\n`, ...tty });
    expect(onTty.stdout).toBe(`✔ Deal ${d2}: Weight=8\n`);
  });

  it('payment-info update never shows the token', async () => {
    const acc = sb.fixtures.accounts[0]!;
    const r = await bo(['payment-info', 'update', '--account', acc, '--payment-token', '-', '--last4', '4242'], { stdin: 'tok_visa_success_output\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${acc}\tok\tLastFourDigits=4242\n`);
    expect(r.stdout + r.stderr).not.toContain('tok_visa_success_output');
  });
});

describe('--json: the outcome, with the API answer unchanged', () => {
  it('deals update prints the record the server answered', async () => {
    const deal = sb.fixtures.deals[4]!;
    const r = await bo(['--json', 'deals', 'update', deal, '--amount', '99']);
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    expect(outcome).toMatchObject({ uid: deal, ok: true, status: 200, changed: true, reason: null, error: null });
    const answer = outcome.answer;
    // The whole record as the API sends it, its own bookkeeping fields included.
    expect(answer).toMatchObject({ Uid: deal, Amount: 99, _objectType: expect.any(String) });
    expect(Object.keys(answer).length).toBeGreaterThan(10);
    expect(r.stderr).toBe('');
  });

  it('addons expire prints the answer string as JSON', async () => {
    const uid = sb.fixtures.subscriptionAddOns[6]!;
    const r = await bo(['--json', 'addons', 'expire', uid]);
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    expect(Object.keys(outcome)).toEqual(['uid', 'ok', 'status', 'changed', 'reason', 'error', 'answer']);
    expect(outcome).toMatchObject({ uid, ok: true, status: 200, changed: true, reason: null });
    expect(outcome.answer).toMatch(/^Add-on expired at /);
    expect(r.stderr).toBe('');
  });
});

describe('a 404 shows the server\'s words when it gave some', () => {
  it('deals update --stage stage_nope: the server names the stage, not "no deal … (or no pipeline stage …)"', async () => {
    const deal = sb.fixtures.deals[0]!;
    const r = await bo(['deals', 'update', deal, '--stage', 'stage_nope']);
    expect(r).toEqual({ code: 3, stdout: '', stderr: 'error: pipeline stage "stage_nope" not found\n' });
  });

  it('a 404 with no words of its own: the likeliest reading, naming both Uids', async () => {
    const server = await startFaultServer();
    try {
      server.script(reply.json(404, {}));
      const r = await runBo(['deals', 'update', 'deal_1', '--stage', 'stage_2'], { env: testEnv(server.url) });
      expect(r).toEqual({ code: 3, stdout: '', stderr: 'error: no deal with Uid deal_1 (or no pipeline stage with Uid stage_2)\n' });
    } finally {
      await server.close();
    }
  });
});
