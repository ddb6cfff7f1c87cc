// Authentication over HTTP (§5, D1, D2, D4, D5): API key with the scheme word, bearer
// tokens from POST /tokens, the JWKS, and the two unauthenticated endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const emails: string[] = [];
beforeAll(async () => {
  sb = await startTestSandbox({ apiKeyScheme: 'Acme', onEmail: (m) => emails.push(m.to) });
});
afterAll(() => sb.close());

const user = (kind: string) => sb.fixtures.users.find((u) => u.kind === kind)!;

describe('API key (D1)', () => {
  it('accepts the configured scheme word case-insensitively', async () => {
    const { key, secret } = sb.fixtures.apiKey;
    expect(sb.fixtures.apiKey.scheme).toBe('Acme');
    for (const scheme of ['Acme', 'acme', 'ACME']) {
      const r = await sb.api('GET', '/email/lists', { authorization: `${scheme} ${key}:${secret}` });
      expect(r.status, scheme).toBe(200);
    }
  });

  it.each([
    ['no header', null],
    ['another scheme word', 'bo KEY:SECRET'],
    ['a wrong secret', 'WRONG'],
    ['no colon', 'NOCOLON'],
    ['a garbage header', 'garbage'],
  ])('answers 401 unauthorized (D6) for %s', async (_label, header) => {
    const { key } = sb.fixtures.apiKey;
    const authorization =
      header === 'WRONG' ? `acme ${key}:nope` : header === 'NOCOLON' ? `acme ${key}` : header;
    const r = await sb.api('GET', '/crm/accounts', { authorization });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'unauthorized', error_description: expect.any(String) });
  });
});

describe('bearer tokens (D2, D5)', () => {
  it('POST /tokens for the plain user returns a token that authenticates API calls', async () => {
    const u = user('plain');
    const t = await sb.api('POST', '/tokens', { body: { username: u.username, password: u.password }, authorization: null });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', expires_in: 31536000, access_token: expect.any(String) });
    const r = await sb.api('GET', '/crm/accounts?limit=1', { authorization: `bearer ${t.body.access_token}` });
    expect(r.status).toBe(200);
    const log = await sb.activity();
    expect(log.at(-1)!.who).toMatch(/^person:/);
  });

  it('refuses a tampered token with 401', async () => {
    const u = user('plain');
    const t = await sb.api('POST', '/tokens', { body: { username: u.username, password: u.password }, authorization: null });
    const token: string = t.body.access_token;
    const tampered = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const r = await sb.api('GET', '/crm/accounts', { authorization: `bearer ${tampered}` });
    expect(r.status).toBe(401);
  });

  it('serves the JWK set outside /api/v1, with the kid of issued tokens', async () => {
    const u = user('plain');
    const t = await sb.api('POST', '/tokens', { body: { username: u.username, password: u.password }, authorization: null });
    const header = JSON.parse(Buffer.from(t.body.access_token.split('.')[0], 'base64url').toString());
    const jwks = await sb.raw('GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
  });

  it('ignores an Authorization header on /tokens, and an email challenge reaches the outbox', async () => {
    const u = user('email');
    const r = await sb.api('POST', '/tokens', { body: { username: u.username, password: u.password } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ two_factor_required: true, mechanism: 'Email' });
    const mail = (await sb.outbox()).at(-1)!;
    expect(mail.to).toBe(u.username);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(emails).toContain(u.username);
  });

  it('keeps a failed two-factor attempt (the engine state persists through 400s, D8)', async () => {
    const u = user('email');
    const start = await sb.api('POST', '/tokens', { body: { username: u.username, password: u.password }, authorization: null });
    const challenge = start.body.challenge_token;
    for (let i = 0; i < 5; i++) {
      const bad = await sb.api('POST', '/tokens/two-factor', { body: { challenge_token: challenge, code: '000000' }, authorization: null });
      expect(bad.status).toBe(400);
    }
    const code = (await sb.outbox()).at(-1)!.code;
    const locked = await sb.api('POST', '/tokens/two-factor', { body: { challenge_token: challenge, code }, authorization: null });
    expect(locked.status).toBe(400);
    expect(locked.body.error).toBe('invalid_grant');
  });
});

describe('unauthenticated endpoints (D4)', () => {
  it('requestMagicLink rejects an Authorization header with 400 and sends nothing', async () => {
    await sb.reset();
    const r = await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: user('plain').username } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_failed');
    expect(r.body.error_description).toMatch(/Authorization/);
    expect(await sb.outbox()).toEqual([]);
  });

  it('public list subscription rejects an Authorization header with 400 and stores nothing', async () => {
    const listUid = sb.fixtures.emailLists[0]!;
    const r = await sb.api('POST', `/public/email/lists/${listUid}/subscriptions`, { body: { Person: { Email: 'leak@example.com' } } });
    expect(r.status).toBe(400);
    const again = await sb.api('POST', `/public/email/lists/${listUid}/subscriptions`, { body: { Person: { Email: 'leak@example.com' } }, authorization: null });
    expect(again.status).toBe(201);
  });
});
