// The public subscription endpoint takes no credentials (D4): the sandbox answers 400
// to a request carrying an Authorization header, so a success proves none was sent.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let newsletter: string;
let doubleOptIn: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  const lists = await Promise.all(sb.fixtures.emailLists.map((uid) => sb.record('EmailList', uid)));
  newsletter = lists.find((l) => l.RequiresDoubleOptIn === false && l.WelcomeSubject)!.Uid;
  doubleOptIn = lists.find((l) => l.RequiresDoubleOptIn === true)!.Uid;
});
afterAll(() => sb.close());

describe('bo lists subscribe', () => {
  it('piped: sends no Authorization (even with a key configured), stores the subscription and person, sends the welcome email', async () => {
    const email = 'grace@example.com';
    const before = (await sb.activity()).length;
    const mails = (await sb.outbox()).length;
    const r = await runBo(['lists', 'subscribe', newsletter, '--email', email, '--first-name', 'Grace', '--last-name', 'Hopper', '--send-welcome', '--source', 'signup-form'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${email}\tok\tEmailList=${newsletter};FirstName=Grace;LastName=Hopper;SendWelcomeEmail=true;Source=signup-form\n`);
    const again = await runBo(['lists', 'subscribe', newsletter, '--email', email, '--json'], { env: testEnv(sb) });
    const stored = await sb.record('EmailListPerson', JSON.parse(again.stdout).answer.Uid);
    expect(stored).toMatchObject({ EmailList: { Uid: newsletter }, Source: 'signup-form', SendWelcomeEmail: true, EmailListSubscriberStatus: 1 });
    expect(await sb.record('Person', stored.Person.Uid)).toMatchObject({ Email: email, FirstName: 'Grace', LastName: 'Hopper' });
    expect((await sb.outbox()).slice(mails).map((m) => [m.to, m.subject])).toEqual([[email, 'Welcome to the newsletter']]);
    expect((await sb.activity()).slice(before)).toEqual([
      expect.objectContaining({ method: 'POST', path: `/api/v1/public/email/lists/${newsletter}/subscriptions`, status: 201, who: null }),
      expect.objectContaining({ method: 'POST', path: `/api/v1/public/email/lists/${newsletter}/subscriptions`, status: 200, who: null }),
    ]);
  });

  it('an address already on the list keeps its subscription: says so (TTY and --json)', async () => {
    const email = 'GRACE@example.com';
    const tty = await runBo(['lists', 'subscribe', newsletter, '--email', email], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toBe(`${email} was already subscribed to list ${newsletter}; nothing changed\n`);
    // Nothing changed (D32): the line says so rather than list fields that were not set.
    expect(stripVTControlCharacters(tty.stdout)).toBe(`✔ Subscriber ${email} already subscribed\n`);
    const json = await runBo(['lists', 'subscribe', newsletter, '--email', email, '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ uid: email, ok: true, status: 200, changed: false, reason: 'already-subscribed' });
    expect(JSON.parse(json.stdout).answer).toMatchObject({ EmailList: { Uid: newsletter }, Source: 'signup-form' });
  });

  it('works with no credential configured at all; a double opt-in list stores NotConfirmed', async () => {
    const r = await runBo(['lists', 'subscribe', doubleOptIn, '--email', 'alan@example.com', '--json'], { env: { ...tempConfig().env, BO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    const saved = JSON.parse(r.stdout).answer;
    expect((await sb.record('EmailListPerson', saved.Uid)).EmailListSubscriberStatus).toBe(2);
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing', async () => {
    const before = (await sb.activity()).length;
    const argv = ['lists', 'subscribe', newsletter, '--email', 'ada@example.org', '--first-name', 'Ada', '--source', 'dry'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({
      method: 'POST',
      url: `${sb.url}/api/v1/public/email/lists/${newsletter}/subscriptions`,
      body: { EmailList: { Uid: newsletter }, Person: { Email: 'ada@example.org', FirstName: 'Ada' }, Source: 'dry' },
    });
    expect(await sb.activity()).toHaveLength(before);
    const real = await runBo([...argv, '--json'], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`POST ${planned.url}`]);
    const stored = await sb.record('EmailListPerson', JSON.parse(real.stdout).answer.Uid);
    expect(stored).toMatchObject({ EmailList: planned.body.EmailList, Source: planned.body.Source, SendWelcomeEmail: false });
    expect(await sb.record('Person', stored.Person.Uid)).toMatchObject(planned.body.Person);
  });

  it('exits 2 naming the flag, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[newsletter, '--email', 'not-an-email'], /^error: --email must be an email address/],
      [[newsletter], /^error: required option '--email <address>' not specified/],
      [['l/1', '--email', 'a@example.com'], /^error: <listUid> must be a Uid/],
      [[newsletter, '--email', 'a@example.com', '--source', ''], /^error: --source must not be empty/],
      [[newsletter, '--email', 'a@example.com', '--first-name', 'x'.repeat(101)], /^error: --first-name must be at most 100 characters/],
      [[newsletter, '--email', 'a@example.com', '--fail-fast'], /^error: --fail-fast applies to a batch/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['lists', 'subscribe', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming the list Uid for an unknown list', async () => {
    const r = await runBo(['lists', 'subscribe', 'list_missing', '--email', 'a@example.com'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('error: email list "list_missing" not found');
  });

  it('--email - subscribes every address on stdin (lines and JSON Lines with Email), none with credentials', async () => {
    const before = (await sb.activity()).length;
    const stdin = ['b1@example.com', JSON.stringify({ Email: 'b2@example.com' }), 'not-an-email', ''].join('\n');
    const r = await runBo(['lists', 'subscribe', newsletter, '--email', '-', '--source', 'import'], { env: testEnv(sb), stdin });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(
      [`b1@example.com\tok\tEmailList=${newsletter};Source=import`, `b2@example.com\tok\tEmailList=${newsletter};Source=import`, expect.stringMatching(/^-\tinvalid\tline 3 must be an email address/)].sort(),
    );
    expect(r.stderr).toMatch(new RegExp(`^2 subscribed, 1 invalid on ${sb.url} \\(profile default\\)\\n`));
    const sent = (await sb.activity()).slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.every((a) => a.who === null && a.status === 201)).toBe(true);
  });

  it('--email -: a record may name the address by the flag\'s name too (email), not by both', async () => {
    const stdin = [JSON.stringify({ email: 'b3@example.com', 'first-name': 'Bea' }), JSON.stringify({ Email: 'b4@example.com', email: 'b5@example.com' })].join('\n');
    const r = await runBo(['lists', 'subscribe', newsletter, '--email', '-'], { env: testEnv(sb), stdin });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual([
      `b3@example.com\tok\tEmailList=${newsletter};FirstName=Bea`,
      '-\tinvalid\tline 2: "Email" and "email" name the same value; give one',
    ].sort());
  });

  it('on a protected profile it needs --yes without a terminal, like every mutation, though it sends no credential', async () => {
    const t = tempConfig();
    expect((await runBo(['config', 'set', 'protected', 'true'], { env: t.env })).code).toBe(0);
    const protectedEnv = { ...t.env, BO_BASE_URL: sb.url };
    const before = (await sb.activity()).length;
    const refused = await runBo(['lists', 'subscribe', newsletter, '--email', 'p@example.com'], { env: protectedEnv });
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      `error: subscribe p@example.com to list ${newsletter} on profile "default" (${sb.url}) needs confirmation; pass --yes (profile "default" is protected)`,
    );
    expect(await sb.activity()).toHaveLength(before);
    const ok = await runBo(['lists', 'subscribe', newsletter, '--email', 'p@example.com', '--yes'], { env: protectedEnv });
    expect(ok.code).toBe(0);
    expect((await sb.activity()).slice(before)).toEqual([expect.objectContaining({ status: 201, who: null })]);
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['lists', 'subscribe', '--help']);
    expect(r.stdout).toMatch(/takes no credentials/);
    expect(r.stdout).toMatch(/\| bo lists subscribe list_\S+ --email - /);
  });
});
