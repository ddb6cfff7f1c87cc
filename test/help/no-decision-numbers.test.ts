// No user-facing text cites an internal decision number ("D14", "per D4"): not the
// CLI's usage errors, not the errors it reports from the server, and not the
// sandbox's own error texts, which users of `bo sandbox serve` read too. This provokes
// as many failures as it can reach — every verb with bad flags, values and arguments,
// every sandbox route with bad auth, parameters and bodies, the two-factor endpoints
// through lock, expiry and rate limit — and scans everything a user would read.
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';
import { adminRoutes } from '../../src/sandbox/routes/admin.js';
import { billingRoutes } from '../../src/sandbox/routes/billing.js';
import { crmRoutes } from '../../src/sandbox/routes/crm.js';
import { emailRoutes } from '../../src/sandbox/routes/email.js';
import { supportRoutes } from '../../src/sandbox/routes/support.js';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const decisionNumber = /\bD[0-9]+\b/;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function verbs(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  return cmd.commands.flatMap((c) =>
    c.commands.length ? verbs(c, [...path, c.name()]) : [{ path: [...path, c.name()], cmd: c }],
  );
}

/** Every message a user read, with what provoked it, for a readable failure. */
const seen: Array<{ what: string; text: string }> = [];

function scan(what: string, text: string): void {
  seen.push({ what, text });
  const hit = decisionNumber.exec(text);
  expect(hit, `${what} shows "${hit?.[0]}": ${text}`).toBeNull();
}

async function bo(argv: string[], options: Parameters<typeof runBo>[1] = {}) {
  const r = await runBo(argv, { env: testEnv(sb), ...options });
  scan(`bo ${argv.join(' ')}`, r.stderr);
  return r;
}

describe('the CLI', () => {
  const tree = buildProgram(commands, async () => {});
  // `sandbox serve` would keep running once its flags are good: it gets its own cases.
  const all = verbs(tree).filter((v) => v.path.join(' ') !== 'sandbox serve');

  it('usage errors of every verb: unknown flag, extra and missing arguments', async () => {
    for (const { path, cmd } of verbs(tree)) {
      const args = cmd.registeredArguments;
      expect((await bo([...path, '--no-such-flag'])).code).toBe(2);
      expect((await bo([...path, ...args.map(() => 'x'), 'extra-1', 'extra-2', 'extra-3'])).code).toBe(2);
      if (args.some((a) => a.required)) expect((await bo(path)).code).toBe(2);
    }
  });

  it('every flag of every verb with an empty, a malformed and an odd value', async () => {
    for (const { path, cmd } of all) {
      const args = cmd.registeredArguments.filter((a) => a.required).map(() => 'acc nope/x');
      for (const option of cmd.options.filter((o) => o.required || o.optional)) {
        for (const value of ['', 'not a number/or date', '-1', '{"broken']) {
          await bo([...path, ...args, option.long ?? option.short!, value], { stdin: 'line\n' });
        }
      }
    }
  });

  it('sandbox serve refuses bad flags', async () => {
    for (const argv of [
      ['--port', 'x'],
      ['--port', '70000'],
      ['--host', '0.0.0.0'],
      ['--state', 'f.json', '--memory'],
      ['--accounts', '5'],
      ['--accounts', '200000'],
      ['--seed', '-3'],
      ['--api-key-scheme', 'two words'],
    ]) {
      expect((await bo(['sandbox', 'serve', ...argv])).code).toBe(2);
    }
  });

  it('global options with bad values', async () => {
    for (const argv of [
      ['--timeout', 'soon'],
      ['--max-retries', '99'],
      ['--base-url', 'ftp://example.com'],
      ['--base-url', 'not a url'],
      ['--json', '--jsonl'],
    ]) {
      expect((await bo([...argv, 'accounts', 'list'])).code).not.toBe(0);
    }
  });

  it('errors the server answered, as the CLI reports them (with --json too)', async () => {
    const cases: string[][] = [
      ['accounts', 'list', '--filter', 'Bogus=1'],
      ['accounts', 'list', '--order-by', 'Bogus desc'],
      ['accounts', 'list', '--fields', 'Name', '--filter', 'Nope=2'],
      ['accounts', 'get', 'acc_nope'],
      ['api', '/crm/accounts?limit=-1'],
      ['api', '/crm/accounts?offset=x'],
      ['api', '/no/such/endpoint'],
      ['api', '-X', 'DELETE', '/crm/accounts'],
      ['api', '-X', 'PUT', `/crm/accounts/${sb.fixtures.accounts[0]}/extend-trial`, '-F', 'ToDate=2000-01-01'],
      ['api', '-X', 'PUT', `/crm/accounts/${sb.fixtures.trialAccounts[0]}/extend-trial`, '-F', 'ToDate=2000-01-01'],
      ['api', '-X', 'POST', '/billing/subscriptionaddons/addsubscriptionaddonpreview', '-F', 'Quantity=0'],
      ['api', '-X', 'POST', '/crm/people/requestMagicLink', '-F', 'Email=a@example.com'],
      ['api', '-X', 'POST', `/public/email/lists/${sb.fixtures.emailLists[0]}/subscriptions`, '-F', 'Email=a@example.com'],
      ['api', '-X', 'POST', '/email/lists', '-F', 'Name='],
    ];
    for (const argv of cases) {
      await bo(argv);
      await bo(['--json', ...argv]);
    }
    // Wrong credentials: a bad token, a bad API secret, another scheme word.
    await bo(['accounts', 'list'], { env: testEnv(sb, { BO_API_SECRET: 'wrong' }) });
    await bo(['accounts', 'list'], { env: testEnv(sb, { BO_TOKEN: 'not.a.token' }) });
    await bo(['-p', 'other', 'config', 'set', 'api-key-scheme', 'acme']);
    await bo(['auth', 'status', '--verify'], { env: testEnv(sb, { BO_TOKEN: 'not.a.token' }) });
    await bo(['auth', 'status'], { env: { ...tempConfig().env, BO_BASE_URL: sb.url } });
    await bo(['auth', 'token'], { env: { ...tempConfig().env, BO_BASE_URL: sb.url } });
  });

  it('login failures without a terminal', async () => {
    const user = (kind: string) => sb.fixtures.users.find((u) => u.kind === kind)!;
    const noKey = { ...tempConfig().env, BO_BASE_URL: sb.url };
    await bo(['login'], { env: noKey });
    await bo(['login', '--username', user('plain').username], { env: noKey });
    await bo(['login', '--username', user('plain').username, '--password-stdin'], { env: noKey, stdin: 'wrong\n' });
    await bo(['login', '--username', user('plain').username, '--password-stdin'], { env: noKey, stdin: '' });
    await bo(['login', '--username', user('email').username, '--password-stdin'], { env: noKey, stdin: `${user('email').password}\n` });
    await bo(['login', '--username', user('totp').username, '--password-stdin', '--code', '000000'], {
      env: noKey,
      stdin: `${user('totp').password}\n`,
    });
    await bo(['login', '--username', user('totp').username, '--password-stdin', '--mechanism', 'email'], {
      env: noKey,
      stdin: `${user('totp').password}\n`,
    });
    await bo(['login', '--username', user('totp').username, '--password-stdin', '--recovery-code-stdin'], {
      env: noKey,
      stdin: `${user('totp').password}\nnot-a-code\n`,
    });
    await bo(['login', '--username', user('enroll').username, '--password-stdin'], { env: noKey, stdin: `${user('enroll').password}\n` });
    await bo(['login', '--username', user('enroll').username, '--password-stdin', '--enroll', 'totp', '--code-command', 'echo 000000'], {
      env: noKey,
      stdin: `${user('enroll').password}\n`,
    });
    await bo(['login', '--username', user('totp').username, '--password-stdin', '--code-command', 'exit 3'], {
      env: noKey,
      stdin: `${user('totp').password}\n`,
    });
  });
});

describe('the sandbox', () => {
  const paramValue = (name: string, real: boolean): string => {
    const f = sb.fixtures;
    if (!real) return name === 'kind' ? 'NoSuchKind' : 'nope';
    const first: Record<string, string | undefined> = {
      accountUid: f.accounts[0],
      membershipUid: f.memberships[0]?.uid,
      dealUid: f.deals[0],
      subscriptionUid: f.subscriptions[0],
      subscriptionAddOnUid: f.subscriptionAddOns[0],
      discountCouponUid: f.coupons[0],
      emailListUid: f.emailLists[0],
      broadcastCampaignUid: f.broadcasts[0],
      dripCampaignUid: f.dripCampaigns[0],
      entityUid: f.articles[0]?.uid,
      tagUid: f.articles[0]?.tagUids[0],
      kind: 'Account',
      uid: f.accounts[0],
    };
    return first[name] ?? 'nope';
  };

  const badValues: Record<string, unknown> = {
    ToDate: 'not a date',
    ExpirationDate: '2000-01-01',
    CancelationReason: '',
    Comment: 5,
    Name: '',
    Amount: 'lots',
    DueDate: 'soon',
    Weight: 900,
    Quantity: -1,
    StartDate: 'x',
    IsPrimary: 'maybe',
    ReceiveInvoices: 3,
    Role: 'boss',
    Email: 'not-an-email',
    Subject: '',
    Body: '',
    Message: {},
    DelayInHours: -5,
    DelayFromPriorDay: 'x',
    Subscription: 'nope',
    AddOn: { Uid: 'nope' },
    Account: 'nope',
    DealPipelineStage: { Uid: 'nope' },
    PaymentToken: '',
    NewRequiredQuantity: -1,
    IsPlanUpgradeRequired: 'x',
    RequiresDoubleOptIn: 'x',
    SchemaLessData: 'x',
    advanceSeconds: 'x',
  };
  const bodies: Array<unknown> = [undefined, '{', '[]', 'null', {}, badValues, ...Object.entries(badValues).map(([k, v]) => ({ [k]: v }))];

  it('every route with bad credentials, unknown and real Uids, and bad bodies', async () => {
    const routes = [...crmRoutes, ...billingRoutes, ...emailRoutes, ...supportRoutes, ...adminRoutes];
    let refusals = 0;
    for (const route of routes) {
      for (const real of [false, true]) {
        const path = route.pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(paramValue(name, real)));
        // Bad credentials once per route; bad bodies where there is a body to send.
        const auths: Array<string | null> = real ? [sb.apiKeyHeader] : [sb.apiKeyHeader, null, 'bo nokey:nosecret', 'basic abc', 'bearer not.a.jwt', 'bo'];
        for (const authorization of auths) {
          const withBodies = real && route.method !== 'GET' && route.method !== 'DELETE';
          for (const body of withBodies ? bodies : [undefined]) {
            const r = await sb.raw(route.method, path, { authorization, body });
            if (r.status >= 400) {
              refusals++;
              scan(`${route.method} ${path} (${authorization ?? 'no auth'}) ${JSON.stringify(body)}`, JSON.stringify(r.body));
            }
          }
        }
      }
    }
    await sb.reset();
    expect(refusals).toBeGreaterThan(300);
  }, 120_000);

  it('list queries with bad paging, filters, order and fields', async () => {
    const lists = ['/crm/accounts', '/billing/discountcoupons', `/billing/discountcoupons/${sb.fixtures.coupons[0]}/redemptions`, '/email/lists'];
    for (const list of lists) {
      for (const query of ['limit=0', 'limit=-1', 'limit=x', 'offset=-1', 'offset=1.5', 'Bogus=1', 'orderBy=Bogus', 'orderBy=Name%20sideways', 'isActive=maybe', 'fields=%2A%2A', 'segmentUid=nope']) {
        const r = await sb.api('GET', `${list}?${query}`);
        if (r.status >= 400) scan(`GET ${list}?${query}`, JSON.stringify(r.body));
      }
    }
    for (const [method, path] of [['GET', '/api/v1/nope'], ['PATCH', '/api/v1/crm/accounts'], ['DELETE', '/api/v1/crm/accounts'], ['GET', '/__sandbox/nope']]) {
      const r = await sb.raw(method!, path!, { authorization: sb.apiKeyHeader });
      expect(r.status).toBeGreaterThanOrEqual(400);
      scan(`${method} ${path}`, JSON.stringify(r.body));
    }
    const big = await sb.raw('POST', '/api/v1/email/lists', { authorization: sb.apiKeyHeader, body: JSON.stringify({ Name: 'x'.repeat(1_100_000) }) });
    scan('an oversized body', JSON.stringify(big.body));
  });

  it('the token endpoints: bad bodies, wrong codes to the lock, expiry, the rate limit', async () => {
    const post = async (sub: string, body: unknown) => {
      const r = await sb.raw('POST', `/api/v1/tokens${sub}`, { body });
      if (r.status >= 400) scan(`POST /tokens${sub} ${JSON.stringify(body)}`, JSON.stringify(r.body));
      return r;
    };
    const subs = ['', '/two-factor', '/two-factor/resend', '/two-factor/switch-mechanism', '/two-factor/recovery', '/two-factor/enroll/totp/begin', '/two-factor/enroll/totp/confirm', '/two-factor/enroll/email/begin', '/two-factor/enroll/email/confirm', '/two-factor/nope'];
    for (const sub of subs) {
      for (const body of [undefined, '{', {}, { username: 'x' }, { username: 'nobody@example.com', password: 'x' }, { challenge_token: 'nope', code: '12' }, { challenge_token: 'nope', code: '123456', mechanism: 'Pigeon' }, { enrollment_token: 'nope', challenge_token: 'nope', code: '123456' }, { challenge_token: 'nope', recovery_code: 'x' }]) {
        await post(sub, body);
      }
    }
    const user = (kind: string) => sb.fixtures.users.find((u) => u.kind === kind)!;
    // A Totp challenge: resend is not supported; six wrong codes lock it.
    const totp = (await post('', { username: user('totp').username, password: user('totp').password })).body as { challenge_token: string };
    await post('/two-factor/resend', { challenge_token: totp.challenge_token });
    await post('/two-factor/switch-mechanism', { challenge_token: totp.challenge_token, mechanism: 'Email' });
    const again = (await post('', { username: user('totp').username, password: user('totp').password })).body as { challenge_token: string };
    for (let i = 0; i < 6; i++) await post('/two-factor', { challenge_token: again.challenge_token, code: '000000' });
    await post('/two-factor/recovery', { challenge_token: again.challenge_token, recovery_code: user('totp').recoveryCodes[0] });
    // Expiry.
    const late = (await post('', { username: user('email').username, password: user('email').password })).body as { challenge_token: string };
    await sb.advanceClock(601);
    await post('/two-factor', { challenge_token: late.challenge_token, code: '000000' });
    await post('/two-factor/resend', { challenge_token: late.challenge_token });
    // Enrollment: a challenge token where an enrollment token belongs, then the rate limit.
    await post('/two-factor/enroll/totp/begin', { enrollment_token: late.challenge_token });
    const demand = (await post('', { username: user('enroll').username, password: user('enroll').password })).body as { challenge_token: string };
    const begun = (await post('/two-factor/enroll/totp/begin', { enrollment_token: demand.challenge_token })).body as { challenge_token: string };
    let limited = false;
    for (let i = 0; i < 12; i++) {
      const r = await post('/two-factor/enroll/totp/confirm', { enrollment_token: demand.challenge_token, challenge_token: begun.challenge_token, code: '000000' });
      limited ||= r.status === 429;
    }
    expect(limited).toBe(true);
    await sb.reset();
  });
});

describe('the scan itself', () => {
  it('saw a broad set of messages, and would catch a decision number', () => {
    expect(seen.filter((s) => s.text.trim() !== '').length).toBeGreaterThan(600);
    expect(() => scan('a planted message', 'error: unknown property "X" (D14)')).toThrow();
  });
});
