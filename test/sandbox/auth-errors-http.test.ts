// The §7 rows of the two-factor flow over real HTTP, through the server's token
// adapter and the store (the engine itself is tested in tokens*/twofactor* files):
// 400 invalid_grant, 400 not_supported, 401, 403, 410 challenge_expired, 429.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { totpCode } from '../helpers/totp.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
beforeEach(() => sb.reset());
afterAll(() => sb.close());

const user = (kind: string) => sb.fixtures.users.find((u) => u.kind === kind)!;
const post = (path: string, body: unknown) => sb.api('POST', `/tokens${path}`, { body, authorization: null });
const login = (kind: string) => post('', { username: user(kind).username, password: user(kind).password });

describe('§7 over HTTP', () => {
  it('a TOTP user completes login with the app code from the fixtures secret', async () => {
    const start = await login('totp');
    expect(start.status).toBe(202);
    expect(start.body).toMatchObject({ two_factor_required: true, mechanism: 'Totp', masked_destination: null });
    const code = totpCode(user('totp').totpSecret!, Date.now());
    const done = await post('/two-factor', { challenge_token: start.body.challenge_token, code });
    expect(done.status).toBe(200);
    expect(done.body.token_type).toBe('Bearer');
  });

  it('400 invalid_grant for a wrong code; 400 not_supported for resend on a Totp challenge', async () => {
    const start = await login('totp');
    const wrong = await post('/two-factor', { challenge_token: start.body.challenge_token, code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const resend = await post('/two-factor/resend', { challenge_token: start.body.challenge_token });
    expect(resend.status).toBe(400);
    expect(resend.body.error).toBe('not_supported');
  });

  it('410 challenge_expired after 10 minutes on the sandbox clock', async () => {
    const start = await login('email');
    const code = (await sb.outbox()).at(-1)!.code;
    await sb.advanceClock(601);
    const late = await post('/two-factor', { challenge_token: start.body.challenge_token, code });
    expect(late.status).toBe(410);
    expect(late.body.error).toBe('challenge_expired');
  });

  it('401 for an unknown enrollment token, 403 when enrollment does not apply', async () => {
    const unknown = await post('/two-factor/enroll/totp/begin', { enrollment_token: 'nope' });
    expect(unknown.status).toBe(401);
    const challenge = await login('email');
    const forbidden = await post('/two-factor/enroll/totp/begin', { enrollment_token: challenge.body.challenge_token });
    expect(forbidden.status).toBe(403);
  });

  it('429 with Retry-After after 10 totp/confirm requests a minute', async () => {
    const start = await login('enroll');
    expect(start.body.two_factor_enrollment_required).toBe(true);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await post('/two-factor/enroll/totp/confirm', { enrollment_token: start.body.challenge_token, challenge_token: 'x', code: '000000' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses[10]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('reset clears rate limits (POST /__sandbox/reset)', async () => {
    const start = await login('enroll');
    for (let i = 0; i < 11; i++) {
      await post('/two-factor/enroll/totp/confirm', { enrollment_token: start.body.challenge_token, challenge_token: 'x', code: '000000' });
    }
    await sb.reset();
    const again = await login('enroll');
    const r = await post('/two-factor/enroll/totp/confirm', { enrollment_token: again.body.challenge_token, challenge_token: 'x', code: '000000' });
    expect(r.status).not.toBe(429);
  });
});
