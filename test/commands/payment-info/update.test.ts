// The payment token is a secret: it must never reach stdout, stderr, the --dry-run
// output or the --verbose trace; card numbers are refused before anything is sent.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikeCardNumber } from '../../../src/commands/payment-info/token.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { reply, startFaultServer } from '../../helpers/fault-server.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const account = (i: number) => sb.fixtures.accounts[i]!;
const savedFor = async (accountUid: string) => sb.record('PaymentInformation', (await sb.record('Account', accountUid)).PaymentInformation.Uid);
const nextYear = String(new Date().getUTCFullYear() + 1);

describe('bo payment-info update', () => {
  it('- reads the token from stdin; piped: one outcome line without it; the token is stored', async () => {
    const uid = account(0);
    const token = 'tok_stdin_5f2a9c';
    const r = await runBo(
      ['payment-info', 'update', '--account', uid, '--payment-token', '-', '--payment-method-type', 'card', '--name-on-card', 'Ada Lovelace', '--last4', '4242', '--exp-month', '12', '--exp-year', nextYear],
      { env: testEnv(sb), stdin: `${token}\nignored second line\n` },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${uid}\tok\tPaymentMethodType=card;NameOnCard=Ada Lovelace;LastFourDigits=4242;ExpirationMonth=12;ExpirationYear=${nextYear}\n`);
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(await savedFor(uid)).toMatchObject({
      PaymentToken: token, PaymentMethodType: 'card', NameOnCard: 'Ada Lovelace', LastFourDigits: '4242', ExpirationMonth: '12', ExpirationYear: nextYear, Account: { Uid: uid },
    });
  });

  it('TTY one ✔ line, --json the saved record; the token appears in neither, nor in the --verbose trace', async () => {
    const uid = account(1);
    const token = 'tok_verbose_81d0e3';
    const tty = await runBo(['payment-info', 'update', '--account', uid, '--payment-token', token, '--last4', '1881'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toBe(`✔ Payment information of account ${uid}: LastFourDigits=1881\n`);
    expect(tty.stdout + tty.stderr).not.toContain(token);
    const verbose = await runBo(['--verbose', 'payment-info', 'update', '--account', uid, '--payment-token', '-', '--json'], { env: testEnv(sb), stdin: `${token}\n` });
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/> POST .*\/api\/v1\/billing\/paymentinformation/);
    expect(verbose.stderr).toMatch(/"PaymentToken":"\[redacted\]"/);
    expect(JSON.parse(verbose.stdout).answer).toMatchObject({ Account: { Uid: uid }, LastFourDigits: '1881' });
    expect(verbose.stdout + verbose.stderr).not.toContain(token);
    expect((await savedFor(uid)).PaymentToken).toBe(token);
  });

  it('--dry-run shows the token redacted and otherwise the body a real run then sends; nothing is sent', async () => {
    const uid = account(2);
    const token = 'tok_dry_77aa01';
    const before = (await sb.activity()).length;
    const argv = ['payment-info', 'update', '--account', uid, '--payment-token', '-', '--name-on-card', 'Grace Hopper', '--exp-month', '3', '--exp-year', nextYear];
    for (const extra of [['--json'], []]) {
      const dry = await runBo([...argv, '--dry-run', ...extra], { env: testEnv(sb), stdin: `${token}\n` });
      expect(dry.code).toBe(0);
      expect(dry.stdout + dry.stderr).not.toContain(token);
      expect(dry.stdout).toContain('[redacted]');
    }
    const planned = JSON.parse((await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb), stdin: `${token}\n` })).stdout);
    expect(planned).toEqual({
      method: 'POST',
      url: `${sb.url}/api/v1/billing/paymentinformation`,
      body: { PaymentToken: '[redacted]', NameOnCard: 'Grace Hopper', ExpirationMonth: '3', ExpirationYear: nextYear, Account: { Uid: uid } },
    });
    expect(await sb.activity()).toHaveLength(before);
    expect((await runBo(argv, { env: testEnv(sb), stdin: `${token}\n` })).code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`POST ${planned.url}`]);
    expect(await savedFor(uid)).toMatchObject({ ...planned.body, PaymentToken: token });
  });

  it('refuses a card number as the token (argv or stdin) without echoing it, and bad card details; exit 2, nothing sent', async () => {
    const uid = account(3);
    const before = (await sb.activity()).length;
    const pastYear = String(new Date().getUTCFullYear() - 1);
    for (const [argv, stdin, message] of [
      [['--payment-token', '4242 4242 4242 4242'], '', /^error: --payment-token looks like a card number: only a payment provider's token is accepted, never a card number\n$/],
      [['--payment-token', '5555-5555-5555-4444'], '', /^error: --payment-token looks like a card number/],
      [['--payment-token', '-'], '4111111111111111\n', /^error: --payment-token \(read from stdin\) looks like a card number/],
      [['--payment-token', '-'], '', /^error: --payment-token \(read from stdin\) must not be empty/],
      [['--payment-token', 'tok_1', '--last4', '424'], '', /^error: --last4 must be exactly 4 digits/],
      [['--payment-token', 'tok_1', '--last4', '42a2'], '', /^error: --last4 must be exactly 4 digits/],
      [['--payment-token', 'tok_1', '--exp-month', '13'], '', /^error: --exp-month must be a whole number from 1 to 12/],
      [['--payment-token', 'tok_1', '--exp-year', '30'], '', /^error: --exp-year must be a four-digit year/],
      [['--payment-token', 'tok_1', '--exp-year', pastYear], '', new RegExp(`^error: --exp-year ${pastYear} is in the past`)],
      [['--payment-token', 'tok 1'], '', /^error: --payment-token must be a token without spaces/],
      [['--payment-token', '-'], Buffer.from('tok_caf\xe9\n', 'latin1'), /^error: --payment-token: stdin is not valid UTF-8\n/],
    ] as Array<[string[], string | Buffer, RegExp]>) {
      const r = await runBo(['payment-info', 'update', '--account', uid, ...argv], { env: testEnv(sb), stdin });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
      for (const secret of ['4242 4242', '5555-5555', '4111111111111111', 'tok_caf']) expect(r.stderr).not.toContain(secret);
    }
    const noAccount = await runBo(['payment-info', 'update', '--account', '-', '--payment-token', 'tok_1'], { env: testEnv(sb), stdin: `${uid}\n` });
    expect(noAccount.code).toBe(2);
    expect(noAccount.stderr).toMatch(/^error: --account takes one value/);
    expect(await sb.activity()).toHaveLength(before);
  });

  it('tells a card number from a token by length and the Luhn check', () => {
    expect(looksLikeCardNumber('4242424242424242')).toBe(true);
    expect(looksLikeCardNumber('3782 822463 10005')).toBe(true);
    expect(looksLikeCardNumber('4242424242424241')).toBe(false);
    expect(looksLikeCardNumber('42424242424')).toBe(false);
    expect(looksLikeCardNumber('tok_4242424242424242')).toBe(false);
  });

  it('exits 3 naming the Uid for an unknown account', async () => {
    const r = await runBo(['payment-info', 'update', '--account', 'acc_missing', '--payment-token', 'tok_1'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('error: account "acc_missing" not found');
  });

  it('a server that echoes the token back: it is still not printed', async () => {
    const server = await startFaultServer();
    try {
      const token = 'tok_echoed_3c9d';
      server.script(reply.json(200, { Uid: 'pay_1', PaymentToken: token, LastFourDigits: '4242' }));
      const env2 = { ...tempConfig().env, BO_BASE_URL: server.url, BO_API_KEY: 'k', BO_API_SECRET: 's' };
      const r = await runBo(['payment-info', 'update', '--account', 'acc_1', '--payment-token', '-', '--json'], { env: env2, stdin: `${token}\n` });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).answer).toEqual({ Uid: 'pay_1', PaymentToken: '[redacted]', LastFourDigits: '4242' });
      expect(r.stdout + r.stderr).not.toContain(token);
      expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ PaymentToken: token, Account: { Uid: 'acc_1' } });
    } finally {
      await server.close();
    }
  });

  it('--help says tokens only, with examples reading the token from stdin', async () => {
    const r = await runBo(['payment-info', 'update', '--help']);
    expect(r.stdout).toMatch(/Card\s+numbers are never\s+accepted, only tokens/);
    expect(r.stdout).toMatch(/\| bo payment-info update --account acc_\S+ --payment-token - /);
  });
});
