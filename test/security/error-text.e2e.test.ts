// Secrets in error text: a server that echoes a secret (in a redirect's Location, in an
// error_description) must not get it printed, on stdout or stderr, plain, --json or
// --verbose, in any form: as sent, base64 (of key:secret too), percent-encoded or
// JSON-escaped. The built binary against a scripted fault server, with an API key and
// with a bearer token; the payment token, the password and a two-factor code as well.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

const KEY = 'AKbo7Qx2Lm9';
// Characters a regular expression or a URL would treat specially.
const SECRET = 'sk_9f+T/r$(x)*.?[q]^|{2}';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnLXNlY3JldC14eQ';
const PAYMENT_TOKEN = 'tok_live_4eC39HqLyjWDarjtT1zdp7dc';
const PASSWORD = 'correct horse+battery/staple';
const CODE = '493017';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Every form a server could echo a secret in. */
function forms(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    b64(secret),
    b64(secret).replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
  ];
}

function expectNoForm(text: string, secrets: string[]): void {
  for (const secret of secrets) {
    for (const form of forms(secret)) expect(text, `${JSON.stringify(form)} of ${JSON.stringify(secret)}`).not.toContain(form);
  }
}

const credentials = {
  'an API key': { env: { BO_API_KEY: KEY, BO_API_SECRET: SECRET }, secrets: [SECRET, `${KEY}:${SECRET}`] }, // the key's id alone is shown by auth status
  'a bearer token': { env: { BO_TOKEN: TOKEN }, secrets: [TOKEN] },
};

const modes = [[], ['--json'], ['--verbose'], ['--verbose', '--json']];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.script();
  server.requests.length = 0;
});

function run(argv: string[], env: Record<string, string>, stdin?: string) {
  return runBin(argv, { env: { ...tempConfig().env, BO_BASE_URL: server.url, ...env }, stdin });
}

describe.each(Object.entries(credentials))('with %s', (_name, credential) => {
  it('a redirect whose Location echoes the credential (as sent, in base64, percent-encoded): exit 1, no form of it printed', async () => {
    const [first] = credential.secrets.slice(-1);
    const locations = [
      `https://elsewhere.example/${first}`,
      `https://elsewhere.example/${b64(first!)}/next`,
      `https://elsewhere.example/x/${encodeURIComponent(first!)}`,
      `https://elsewhere.example/${Buffer.from(first!).toString('base64url')}`,
    ];
    for (const location of locations) {
      for (const mode of modes) {
        server.script(reply.redirect(302, location));
        const r = await run([...mode, 'accounts', 'list'], credential.env);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain('error: 302 Found: the server redirects to https://elsewhere.example/');
        if (mode.includes('--json')) expect(r.stderr).toContain('"code":"redirect"');
        expectNoForm(r.stdout + r.stderr, credential.secrets);
      }
    }
  });

  it('a 400 naming the payment token: exit 1, the token never printed', async () => {
    const said = `token ${PAYMENT_TOKEN} is invalid`;
    for (const mode of modes) {
      server.script(
        reply.json(400, {
          error: 'invalid_request',
          error_description: `Payment information was refused: ${said} (${b64(PAYMENT_TOKEN)})`,
          errors: [{ field: 'PaymentToken', message: said }],
        }),
      );
      const r = await run([...mode, 'payment-info', 'update', '--account', 'acc_0001', '--payment-token', PAYMENT_TOKEN], credential.env);
      expect(r.code, r.stderr).toBe(1);
      expect(server.requests.at(-1)!.body).toContain(PAYMENT_TOKEN); // it was sent, to the server only
      expect(r.stderr).toContain('error: 400 Bad Request: Payment information was refused: token [redacted] is invalid');
      expectNoForm(r.stdout + r.stderr, [PAYMENT_TOKEN, ...credential.secrets]);
    }
  });
});

describe('a batch', () => {
  it('each refused record echoing the credential: the outcome lines (piped, --json) and the summary hold no form of it', async () => {
    for (const [name, credential] of Object.entries(credentials)) {
      for (const mode of [[], ['--json']]) {
        const echoed = credential.secrets.at(-1)!;
        server.fallback(reply.json(400, { error: 'invalid_request', error_description: `credential ${echoed} / ${b64(echoed)} not valid here` }));
        const r = await run([...mode, 'accounts', 'extend-trial', '-', '--to', '2050-01-01'], credential.env, 'acc_0001\nacc_0002\n');
        server.fallback(undefined);
        expect(r.code, `${name}: ${r.stderr}`).toBe(1);
        expect(server.requests.filter((q) => q.method === 'PUT')).toHaveLength(2);
        expect(r.stdout).toContain('credential [redacted] / [redacted] not valid here');
        expectNoForm(r.stdout + r.stderr, credential.secrets);
        server.requests.length = 0;
      }
    }
  });
});

describe('bo login', () => {
  it('a 401 that echoes the password: exit 4, the password never printed', async () => {
    for (const mode of modes) {
      server.script(
        reply.json(401, { error: 'invalid_client', error_description: `password "${PASSWORD}" (${b64(`ada:${PASSWORD}`)}) rejected` }),
      );
      const r = await run([...mode, 'login', '--insecure-storage', '--username', 'ada', '--password-stdin'], {}, `${PASSWORD}\n`);
      expect(r.code, r.stderr).toBe(4);
      expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ username: 'ada', password: PASSWORD });
      expect(r.stderr).toContain('error: 401 Unauthorized: password "[redacted]" (');
      expectNoForm(r.stdout + r.stderr, [PASSWORD]);
    }
  });

  it('a two-factor code and its challenge echoed by a refusal: neither printed', async () => {
    const challenge = { two_factor_required: true, challenge_token: 'chl_8d7f6e5d4c3b', mechanism: 'Totp', masked_destination: null, expires_in: 600, available_mechanisms: ['Totp'] };
    for (const mode of [[], ['--json']]) {
      server.script(
        reply.json(202, challenge),
        reply.json(403, { error: 'forbidden', error_description: `code ${CODE} for challenge ${challenge.challenge_token} is not allowed` }),
      );
      const r = await run([...mode, 'login', '--insecure-storage', '--username', 'ada', '--password-stdin', '--code', CODE], {}, `${PASSWORD}\n`);
      expect(r.code, r.stderr).toBe(4);
      expect(JSON.parse(server.requests.at(-1)!.body)).toMatchObject({ code: CODE });
      expect(r.stderr).toContain('error: 403 Forbidden: code [redacted] for challenge [redacted] is not allowed');
      expectNoForm(r.stdout + r.stderr, [PASSWORD, CODE, challenge.challenge_token]);
    }
  });

  it('a TOTP secret received during enrollment, echoed by a later refusal: never printed', async () => {
    const totpSecret = 'JBSWY3DPEHPK3PXPKRUGS4ZA';
    const dir = tempConfig();
    for (const mode of modes) {
      server.script(
        reply.json(202, { two_factor_enrollment_required: true, challenge_token: 'enr_5a4b3c2d1e', expires_in: 600 }),
        reply.json(200, {
          challenge_token: 'chl_9z8y7x6w',
          secret: totpSecret,
          otpauth_uri: `otpauth://totp/acme:ada?secret=${totpSecret}&issuer=acme`,
          qr_code_png_base64: 'iVBORw0KGgo=',
          expires_in: 600,
        }),
        reply.json(409, { error: 'conflict', error_description: `the authenticator ${totpSecret} (${b64(totpSecret)}) is already confirmed` }),
      );
      const codes = `${dir.root}/codes-${modes.indexOf(mode)}.txt`;
      const r = await run(
        [...mode, 'login', '--insecure-storage', '--username', 'ada', '--password-stdin', '--enroll', 'totp', '--code-command', 'echo 123456', '--recovery-codes-file', codes],
        {},
        `${PASSWORD}\n`,
      );
      expect(r.code, r.stderr).toBe(1);
      expect(JSON.parse(server.requests.at(-1)!.body)).toMatchObject({ code: '123456' });
      expect(r.stderr).toContain('error: 409 Conflict: the authenticator [redacted] ([redacted]) is already confirmed');
      expectNoForm(r.stdout + r.stderr, [PASSWORD, totpSecret]);
    }
  });
});
