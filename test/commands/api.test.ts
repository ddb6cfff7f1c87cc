import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe('bo api', () => {
  it('sends a GET with -F fields as the query and prints the JSON body', async () => {
    const r = await runBo(['api', '-X', 'GET', '/crm/accounts', '-F', 'limit=2', '-F', 'q=acme'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await sb.api('GET', '/crm/accounts?limit=2&q=acme')).body);
  });

  it('POSTs -F fields as a typed JSON body, and the sandbox stores it', async () => {
    const r = await runBo(['api', '/email/lists', '-F', 'Name=Field notes', '-F', 'RequiresDoubleOptIn=true'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ Name: 'Field notes', RequiresDoubleOptIn: true });
    expect(await sb.record('EmailList', created.Uid)).toMatchObject({ Name: 'Field notes', RequiresDoubleOptIn: true });
  });

  it('reads a JSON body from stdin with --input -', async () => {
    const r = await runBo(['api', '/email/lists', '--input', '-'], { env: testEnv(sb), stdin: '{"Name":"From stdin"}' });
    expect(r.code).toBe(0);
    expect(await sb.record('EmailList', JSON.parse(r.stdout).Uid)).toMatchObject({ Name: 'From stdin' });
  });

  it('walks every page with --paginate into one JSON array, or lines with --jsonl', async () => {
    const total = (await sb.api('GET', '/crm/accounts?limit=1')).body.metadata.total as number;
    const r = await runBo(['--verbose', 'api', '/crm/accounts', '--paginate', '-F', 'limit=25'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as Array<{ Uid: string }>;
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.Uid)).size).toBe(total);
    // Pages of the size asked for: ceil(total / 25) GETs.
    expect(r.stderr.match(/^> GET .*\/crm\/accounts\?.*limit=25/gm)).toHaveLength(Math.ceil(total / 25));
    const lines = await runBo(['--jsonl', 'api', '/crm/accounts', '--paginate'], { env: testEnv(sb) });
    expect(lines.stdout.trimEnd().split('\n')).toHaveLength(total);
  });

  it('sends no credential with --no-auth (D4), and the sandbox refuses one sent anyway', async () => {
    const person = await sb.record('Person', sb.fixtures.people[0]!);
    const ok = await runBo(['api', '/crm/people/requestMagicLink', '-F', `Email=${person.Email}`, '--no-auth'], { env: testEnv(sb) });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({});
    const refused = await sb.api('POST', '/crm/people/requestMagicLink', { body: { Email: person.Email } });
    expect(refused.status).toBe(400);
  });

  it('sends no credential to the magic-link endpoint even without --no-auth (D4)', async () => {
    const person = await sb.record('Person', sb.fixtures.people[0]!);
    const r = await runBo(['api', '/crm/people/requestMagicLink', '-X', 'post', '-F', `Email=${person.Email}`], { env: testEnv(sb) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({});
    expect((await sb.outbox()).at(-1)).toMatchObject({ to: person.Email });
  });

  it('sends no credential to the public subscription endpoint even without --no-auth (D4)', async () => {
    const list = (await sb.api('GET', '/email/lists?limit=1')).body.items[0];
    const r = await runBo(['api', `/public/email/lists/${list.Uid}/subscriptions`, '--input', '-'], {
      env: testEnv(sb),
      stdin: JSON.stringify({ Person: { Email: 'auto.anon@example.com' } }),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).Person).toMatchObject({ Email: 'auto.anon@example.com' });
  });

  it('takes the method in any case', async () => {
    for (const method of ['get', 'Get', 'GET']) {
      const r = await runBo(['api', '-X', method, '/crm/accounts', '-F', 'limit=1'], { env: testEnv(sb) });
      expect(r.code, method).toBe(0);
      expect(JSON.parse(r.stdout).items).toHaveLength(1);
    }
    const created = await runBo(['api', '-X', 'post', '/email/lists', '-F', 'Name=Lower case post'], { env: testEnv(sb) });
    expect(created.code).toBe(0);
    expect(await sb.record('EmailList', JSON.parse(created.stdout).Uid)).toMatchObject({ Name: 'Lower case post' });
  });

  it('exits 3 on a 404 and prints the server message', async () => {
    const r = await runBo(['api', '-X', 'DELETE', '/email/campaigns/drips/drip_nope'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: 404 /);
  });

  it('refuses malformed input with exit 2 before sending', async () => {
    const before = (await sb.activity()).length;
    const cases: Array<[string[], RegExp, string?]> = [
      [['api', '/email/lists', '-F', 'novalue'], /-F\/--field must be key=value/],
      [['api', 'https://evil.example.com/crm/accounts'], /<path> must be a path under \/api\/v1/],
      [['api', '/email/lists', '--input', '-'], /--input is not valid JSON/, '{"Name":'],
      [['api', '/crm/accounts', '-X', 'PATCH'], /^error: -X\/--method must be one of GET, POST, PUT, DELETE, got "PATCH"\n/],
      [['api', ''], /^error: <path> is empty/],
      [['api', '   '], /^error: <path> is empty/],
      [['api', '/crm/acc\nounts'], /^error: <path> contains control characters: "\/crm\/acc\\nounts"\n/],
      [['api', '/crm/accounts\t'], /^error: <path> contains control characters/],
      [['api', '/crm/accounts', '--paginate', '-X', 'POST'], /--paginate walks GET lists/],
    ];
    for (const [args, message, stdin] of cases) {
      const r = await runBo(args, { env: testEnv(sb), stdin });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await sb.activity()).length).toBe(before);
  });
});
