// The magic-link endpoint takes no credentials (D4): the sandbox answers 400 to a
// request carrying an Authorization header, so a success proves none was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const NOTE = 'The link is emailed only if the address belongs to a person; the service does not say whether it does.\n';

describe('bo people magic-link', () => {
  it('sends no Authorization header even with a key configured; a known person gets the email; one outcome line and the note', async () => {
    const email = sb.fixtures.users[0]!.username;
    const mails = (await sb.outbox()).length;
    const before = (await sb.activity()).length;
    const r = await runBo(['people', 'magic-link', email], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${email}\tok\trequested\n`);
    expect(r.stderr).toBe(NOTE);
    expect((await sb.outbox()).slice(mails).map((m) => m.to)).toEqual([email]);
    const sent = (await sb.activity()).slice(before);
    expect(sent).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/crm/people/requestMagicLink', status: 200, who: null })]);
  });

  it('an unknown address: the same answer and message, no email (TTY and --json)', async () => {
    const mails = (await sb.outbox()).length;
    const tty = await runBo(['--no-color', 'people', 'magic-link', 'nobody@example.com'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe('✔ Sign-in link for nobody@example.com requested\n');
    expect(tty.stderr).toBe(NOTE);
    const json = await runBo(['people', 'magic-link', 'nobody@example.com', '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).answer).toEqual({});
    expect((await sb.outbox()).length).toBe(mails);
  });

  it('needs no credential at all', async () => {
    const email = sb.fixtures.users[0]!.username;
    const r = await runBo(['people', 'magic-link', email], { env: { ...tempConfig().env, BO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(NOTE);
  });

  it('--dry-run prints the request a real run then sends, and sends nothing', async () => {
    const email = sb.fixtures.users[1]!.username;
    const before = (await sb.activity()).length;
    const dry = await runBo(['people', 'magic-link', email, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'POST', url: `${sb.url}/api/v1/crm/people/requestMagicLink`, body: { Email: email } });
    expect(await sb.activity()).toHaveLength(before);
    const mails = (await sb.outbox()).length;
    expect((await runBo(['people', 'magic-link', email], { env: testEnv(sb) })).code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`POST ${planned.url}`]);
    expect((await sb.outbox()).slice(mails).map((m) => m.to)).toEqual([planned.body.Email]);
  });

  it('exits 2 for a malformed address or -, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [arg, message] of [
      ['not-an-email', /^error: <email> must be an email address like name@example.com/],
      ['a@b', /^error: <email> must be an email address/],
      ['-', /^error: <email> takes one value; - \(read from stdin\) is not accepted here/],
    ] as Array<[string, RegExp]>) {
      const r = await runBo(['people', 'magic-link', arg], { env: testEnv(sb), stdin: 'ada@example.com\n' });
      expect(r.code, arg).toBe(2);
      expect(r.stderr, arg).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('a failing server is a clear message and exit 1, no stack trace', async () => {
    const { startFaultServer, reply } = await import('../../helpers/fault-server.js');
    const server = await startFaultServer();
    try {
      server.script(reply.json(500, { error: { code: 'boom', message: 'internal error' } }));
      const r = await runBo(['people', 'magic-link', 'ada@example.com'], { env: { ...tempConfig().env, BO_BASE_URL: server.url } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('--help says the link goes only to a known person, with an example', async () => {
    const r = await runBo(['people', 'magic-link', '--help']);
    expect(r.stdout).toMatch(/only if\s+the address\s+belongs to a person/);
    expect(r.stdout).toMatch(/^  bo people magic-link \S+@\S+$/m);
    expect(r.stdout).not.toMatch(/\bD\d+\b/);
  });
});
