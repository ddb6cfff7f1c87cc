// The --verbose trace: what it shows, and that no secret ever reaches it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { TOKEN, faultServerEach, makeClient } from './client-fixture.js';
import { SECRET_NAMES, secretValue } from './secrets-fixture.js';

describe('trace lines', () => {
  const faults = faultServerEach();
  const fixture = faults.fixture;

  it('shows the request line, headers with the Authorization redacted, and the answer', async () => {
    faults.server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: 1 }, items: [{ Name: 'Acme' }] }));
    const { client, lines } = fixture();
    await client.request({ method: 'GET', path: '/crm/accounts', query: { limit: 100 } });
    expect(lines[0]).toBe(`> GET ${faults.server.url}/api/v1/crm/accounts?limit=100`);
    expect(lines).toContain('> authorization: bearer [redacted]');
    expect(lines).toContain('> accept: application/json');
    expect(lines.find((l) => l.startsWith('< 2'))).toMatch(/^< 200 OK \(\d+ ms\)$/);
    expect(lines).toContain('< content-type: application/json; charset=utf-8');
    expect(lines).toContain('< {"metadata":{"limit":100,"offset":0,"total":1},"items":[{"Name":"Acme"}]}');
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('redacts the password sent and the token received (POST /tokens)', async () => {
    faults.server.script(reply.json(200, { access_token: 'jwt-abc-123456', token_type: 'Bearer', expires_in: 31536000 }, { 'set-cookie': 'sid=zzz999' }));
    const { client, lines } = fixture({ credential: null });
    await client.request({ method: 'POST', path: '/tokens', body: { username: 'ann@example.com', password: 'hunter2-pw' } });
    expect(lines).toContain('> {"username":"ann@example.com","password":"[redacted]"}');
    expect(lines).toContain('< {"access_token":"[redacted]","token_type":"Bearer","expires_in":31536000}');
    expect(lines).toContain('< set-cookie: [redacted]');
    const all = lines.join('\n');
    for (const secret of ['hunter2-pw', 'jwt-abc-123456', 'zzz999']) expect(all).not.toContain(secret);
  });

  it('redacts the TOTP enrollment secrets and recovery codes', async () => {
    const begin = {
      challenge_token: 'chal-111111',
      secret: 'JBSWY3DPEHPK3PXP',
      otpauth_uri: 'otpauth://totp/Acme:ann?secret=JBSWY3DPEHPK3PXP',
      qr_code_png_base64: 'iVBORw0KGgoAAAANSUhEUg',
      expires_in: 600,
    };
    faults.server.script(reply.json(200, begin), reply.json(200, { confirmed: true, recovery_codes: ['rc-aaaa-1111', 'rc-bbbb-2222'] }));
    const { client, lines } = fixture({ credential: null });
    await client.request({ method: 'POST', path: '/tokens/two-factor/enroll/totp/begin', body: { enrollment_token: 'enr-222222' } });
    await client.request({ method: 'POST', path: '/tokens/two-factor/enroll/totp/confirm', body: { code: '123456', challenge_token: 'chal-111111' } });
    const all = lines.join('\n');
    for (const secret of ['chal-111111', 'JBSWY3DPEHPK3PXP', 'iVBORw0KGgoAAAANSUhEUg', 'enr-222222', '123456', 'rc-aaaa-1111', 'rc-bbbb-2222']) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain('"expires_in":600');
  });

  it('shows an API key as its scheme word only', async () => {
    faults.server.script(reply.json(200, {}));
    const { client, lines } = fixture({ credential: { kind: 'apiKey', key: 'key-id-77', secret: 'sec-88888888' }, apiKeyScheme: 'acme' });
    await client.request({ method: 'GET', path: '/x', query: { access_token: 'qs-secret-1', q: 'visible' } });
    expect(lines).toContain('> authorization: acme [redacted]');
    expect(lines[0]).toBe(`> GET ${faults.server.url}/api/v1/x?q=visible&access_token=[redacted]`);
    const all = lines.join('\n');
    for (const secret of ['key-id-77', 'sec-88888888', 'qs-secret-1']) expect(all).not.toContain(secret);
  });

  it('scrubs the credential even where no field name gives it away', async () => {
    faults.server.script(reply.text(500, `invalid token ${TOKEN} for this tenant`));
    const { client, lines } = fixture({ maxRetries: 0 });
    await client.request({ method: 'GET', path: '/x' }).catch(() => undefined);
    expect(lines).toContain('< invalid token [redacted] for this tenant');
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('notes retries, cuts long bodies at about 2 KB, and keeps every line one line', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ Name: `Account ${i}` }));
    faults.server.script(reply.json(503, {}), reply.json(200, { items }), reply.text(200, 'line one\nline two\u001b[2J'));
    const { client, lines } = fixture();
    await client.request({ method: 'GET', path: '/x' });
    await client.request({ method: 'GET', path: '/y' });
    expect(lines.some((l) => /^\* 503 Service Unavailable; retrying in [\d.]+ s \(retry 1 of 3\)$/.test(l))).toBe(true);
    const body = lines.find((l) => l.startsWith('< {"items"'))!;
    expect(body.length).toBeLessThan(2200);
    expect(body).toMatch(/… \(\d+ more characters\)$/);
    expect(lines).toContain('< line one\\x0aline two\\x1b[2J');
    for (const l of lines) expect(l).not.toMatch(/[\n\r\u001b]/);
  });
});

describe('property: no secret reaches the trace', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('for random secrets in the credential, request body, query, response body and a malformed answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          token: secretValue,
          key: secretValue,
          keySecret: secretValue,
          useKey: fc.boolean(),
          names: fc.array(fc.constantFrom(...SECRET_NAMES), { minLength: 4, maxLength: 4 }),
          values: fc.array(secretValue, { minLength: 4, maxLength: 4 }),
          malformed: fc.boolean(),
        }),
        async (c) => {
          const [n0, n1, n2, n3] = c.names as [string, string, string, string];
          const [v0, v1, v2, v3] = c.values as [string, string, string, string];
          const answer = { Uid: 'u1', [n2]: v2, deeper: { list: [{ [n3]: v3 }] } };
          server.script(
            c.malformed
              ? reply.malformed(200, `${JSON.stringify(answer).slice(0, -1)},`)
              : reply.json(200, answer),
          );
          const credential = c.useKey
            ? { kind: 'apiKey' as const, key: c.key, secret: c.keySecret }
            : { kind: 'token' as const, token: c.token };
          const { client, lines } = makeClient(server.url, { credential, maxRetries: 0 });
          try {
            await client
              .request({ method: 'POST', path: '/x', query: { [n0]: v0, q: 'x' }, body: { Name: 'n', inner: { [n1]: v1 } } })
              .catch(() => undefined);
          } finally {
            client.close();
          }
          const all = lines.join('\n');
          const secrets = [...c.values, c.useKey ? c.keySecret : c.token, ...(c.useKey ? [c.key] : [])];
          for (const s of secrets) {
            expect(all).not.toContain(s);
            expect(all).not.toContain(JSON.stringify(s).slice(1, -1));
            expect(all).not.toContain(encodeURIComponent(s));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
