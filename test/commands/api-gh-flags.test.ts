// `bo api` with the flags of `gh api`: -f/-F (typed, nested, lists), -H, -i, --silent.
// Against a recording server over loopback HTTP: each test asserts exactly what the
// server received (method, path, query, headers, body) and what bo printed; a refusal
// is exit 2 with one line naming the flag and no request at all.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';

const server = useFaultServer(reply.json(200, { ok: true }));

/** The one request the server received: its method, path, decoded query pairs, headers and parsed body. */
function received() {
  const requests = server().requests;
  expect(requests).toHaveLength(1);
  const r = requests[0]!;
  const url = new URL(r.url, 'http://x');
  return { method: r.method, path: url.pathname, query: [...url.searchParams], headers: r.headers, body: r.body === '' ? undefined : JSON.parse(r.body) };
}

describe('bo api fields', () => {
  it('-F nested keys and lists, typed values and -f text make one JSON body (POST without -X)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-api-'));
    writeFileSync(join(dir, 'body.txt'), 'from a file');
    const r = await runBo(
      [
        'api', '/crm/things',
        '-F', 'Account[Uid]=acc_1',
        '-F', 'EmailListUids[]=l1', '-F', 'EmailListUids[]=l2',
        '-F', 'Count=12', '-F', 'Rate=1.5', '-F', 'Active=true', '-F', 'Gone=null',
        '-f', 'Code=007', '-f', 'Flag=true',
        '-F', 'Items[][Name]=a', '-F', 'Items[][Qty]=1', '-F', 'Items[][Name]=b',
        '-F', 'Empty[]',
        '-F', `Notes=@${join(dir, 'body.txt')}`,
        '-F', 'Stdin=@-',
      ],
      { env: testEnv(server()), stdin: 'from stdin' },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true });
    const got = received();
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/api/v1/crm/things');
    expect(got.query).toEqual([]);
    expect(got.headers['content-type']).toBe('application/json');
    // -f fields come first, as gh reads them; each kind in the order given.
    expect(server().requests[0]!.body).toBe(
      JSON.stringify({
        Code: '007',
        Flag: 'true',
        Account: { Uid: 'acc_1' },
        EmailListUids: ['l1', 'l2'],
        Count: 12,
        Rate: 1.5,
        Active: true,
        Gone: null,
        Items: [{ Name: 'a', Qty: 1 }, { Name: 'b' }],
        Empty: [],
        Notes: 'from a file',
        Stdin: 'from stdin',
      }),
    );
  });

  it('-X GET puts the fields in the query string: nested keys as a[b]=c, lists as a[]=x, values as typed', async () => {
    const r = await runBo(
      ['api', '-X', 'GET', '/crm/accounts?q=acme', '-F', 'limit=10', '-F', 'Account[Uid]=acc_1', '-F', 'ids[]=1', '-F', 'ids[]=2', '-f', 'n=007', '-F', 'x=null'],
      { env: testEnv(server()) },
    );
    expect(r.code).toBe(0);
    const got = received();
    expect(got.method).toBe('GET');
    expect(got.body).toBeUndefined();
    expect(got.headers['content-type']).toBeUndefined();
    // The path's own query first, then -f fields, then -F ones (as gh).
    expect(got.query).toEqual([
      ['q', 'acme'],
      ['n', '007'],
      ['limit', '10'],
      ['Account[Uid]', 'acc_1'],
      ['ids[]', '1'],
      ['ids[]', '2'],
      ['x', 'null'],
    ]);
  });

  it('beside --input the fields go to the query string and the file is the body', async () => {
    const r = await runBo(['api', '/email/lists', '--input', '-', '-F', 'Tag[Name]=t'], { env: testEnv(server()), stdin: '{"Name":"x"}' });
    expect(r.code).toBe(0);
    const got = received();
    expect(got.method).toBe('POST');
    expect(got.query).toEqual([['Tag[Name]', 't']]);
    expect(got.body).toEqual({ Name: 'x' });
  });

  it('refuses a bad field or header with exit 2, one line naming the flag, and sends nothing', async () => {
    const cases: Array<[string[], string]> = [
      [['-F', 'a=1', '-F', 'a[b]=2'], 'error: -F a[b]=2: a is already a value (-F a=1); it cannot also be an object'],
      [['-F', 'a[b]=2', '-F', 'a=1'], 'error: -F a=1: a is already an object; it cannot also be a value'],
      [['-F', 'a[]=1', '-F', 'a[b]=2'], 'error: -F a[b]=2: a is already a list; it cannot also be an object'],
      [['-F', 'a=1', '-F', 'a[]=2'], 'error: -F a[]=2: a is already a value (-F a=1); it cannot also be a list'],
      [['-f', 'a=1', '-F', 'a=2'], 'error: -F a=2: a is already given (-f a=1); to send a list, name it a[] each time'],
      [['-F', 'a[]=1', '-F', 'a[][b]=2'], 'error: -F a[][b]=2: a[] already holds values; it cannot also hold objects'],
      [['-F', 'a[b=1'], 'error: -F/--field has a key "a[b" that is not name, name[key] or name[]: "a[b=1"'],
      [['-F', 'a[b]c=1'], 'error: -F/--field has a key "a[b]c" that is not name, name[key] or name[]: "a[b]c=1"'],
      [['-F', 'a[][]=1'], 'error: -F/--field "a[][]=1" asks for a list of lists, which fields cannot make; give the body with --input'],
      [['-f', 'novalue'], 'error: -f/--raw-field must be key=value (or key[] for an empty list), got "novalue"'],
      [['-F', 'a=@-', '-F', 'b=@-'], 'error: stdin can be read once, but -F a=@- and -F b=@- both read it'],
      [['-H', 'Authorization: bearer x'], "error: -H/--header cannot set Authorization: bo sets it itself from the profile's credential"],
      [['-H', 'host: evil.example.com'], 'error: -H/--header cannot set host: bo sets it itself'],
      [['-H', 'Content-Length: 0'], 'error: -H/--header cannot set Content-Length: bo sets it itself'],
      [['-H', 'X-A: one\r\nX-B: two'], 'error: -H/--header X-A has a line break (CR or LF) in its value: a header is one line'],
      [['-H', 'X-A: one\ntwo'], 'error: -H/--header X-A has a line break (CR or LF) in its value: a header is one line'],
      [['-H', 'X-A: bell\u0007'], 'error: -H/--header X-A has a control character in its value'],
      [['-H', 'Bad Name: x'], "error: -H/--header has an invalid header name \"Bad Name\": letters, digits and !#$%&'*+.^_`|~- only, no spaces"],
      [['-H', 'X-Nocolon'], 'error: -H/--header must be "Name: value", got "X-Nocolon"'],
      [['-H', 'X-A: €'], 'error: -H/--header X-A has a character HTTP headers cannot carry (only Latin-1 text)'],
      [['--paginate', '-i'], 'error: -i/--include prints the headers of one answer; it does not go with --paginate'],
    ];
    for (const [args, message] of cases) {
      const r = await runBo(['api', '/crm/things', ...args], { env: testEnv(server()), stdin: 'x' });
      expect(r.stderr, args.join(' ')).toBe(`${message}\n`);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(server().requests).toHaveLength(0);
  });
});

describe('bo api -H', () => {
  it('sends each header; a name given twice sends both values; a Content-Type given replaces JSON', async () => {
    const r = await runBo(
      ['api', '/crm/things', '-F', 'a=1', '-H', 'X-Request-Id: r-1', '-H', 'Accept-Language:  de ', '-H', 'x-tag: a', '-H', 'X-Tag: b', '-H', 'Content-Type: application/json; charset=utf-8'],
      { env: testEnv(server()) },
    );
    expect(r.code).toBe(0);
    const got = received();
    expect(got.headers['x-request-id']).toBe('r-1');
    expect(got.headers['accept-language']).toBe('de');
    expect(got.headers['x-tag']).toBe('a, b');
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(got.headers.authorization).toBe('bo key:secret');
    expect(got.body).toEqual({ a: 1 });
  });

  it('--verbose shows a plain header and redacts one whose name looks secret, in the trace and everywhere else', async () => {
    const secret = 'hdr-s3cr3t-value';
    const names = ['X-Auth-Token', 'X-Api-Key', 'X-Key-Id', 'Cookie', 'X-Client-Password', 'X-Authz'];
    const r = await runBo(['--verbose', 'api', '/crm/things', '-H', 'X-Trace: visible', ...names.flatMap((n, i) => ['-H', `${n}: ${secret}${i}`])], {
      env: testEnv(server()),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> x-trace: visible\n');
    for (const n of names) expect(r.stderr).toContain(`> ${n.toLowerCase()}: [redacted]\n`);
    expect(r.stderr).not.toContain(secret);
    // The server got them all as given.
    expect(received().headers['x-auth-token']).toBe(`${secret}0`);
  });

  it('--dry-run shows the headers (secret-named ones redacted) with method, URL and body; --json has them as "headers"', async () => {
    const args = ['api', '/crm/things', '-F', 'a[b]=1', '-H', 'X-Trace: t1', '-H', 'X-Api-Key: k-s3cr3t', '--dry-run'];
    const text = await runBo(args, { env: testEnv(server()) });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`POST ${server().url}/api/v1/crm/things\nX-Trace: t1\nX-Api-Key: [redacted]\n{\n  "a": {\n    "b": 1\n  }\n}\n`);
    const json = await runBo(['--json', ...args], { env: testEnv(server()) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      method: 'POST',
      url: `${server().url}/api/v1/crm/things`,
      headers: { 'X-Trace': 't1', 'X-Api-Key': '[redacted]' },
      body: { a: { b: 1 } },
    });
    expect(JSON.stringify(json)).not.toContain('k-s3cr3t');
    // Without -H the plan keeps its shape.
    const plain = await runBo(['--json', 'api', '-X', 'DELETE', '/crm/things/1', '--dry-run'], { env: testEnv(server()) });
    expect(JSON.parse(plain.stdout)).toEqual({ method: 'DELETE', url: `${server().url}/api/v1/crm/things/1`, body: null });
    expect(server().requests).toHaveLength(0);
  });
});

describe('bo api -i and --silent', () => {
  it('-i prints the status line and the response headers, a blank line, then the body', async () => {
    server().script(reply.json(201, { Uid: 'x_1' }, { 'x-request-id': 'r-9' }));
    const r = await runBo(['api', '-i', '/crm/things', '-F', 'a=1'], { env: testEnv(server()) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    const lines = head!.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 201 Created');
    expect(lines).toContain('content-type: application/json; charset=utf-8');
    expect(lines).toContain('x-request-id: r-9');
    expect(lines.slice(1).every((l) => /^[a-z0-9-]+: /.test(l))).toBe(true);
    expect(JSON.parse(body!)).toEqual({ Uid: 'x_1' });
  });

  it('-i on a refusal prints its status and headers, the error goes to stderr with its exit code', async () => {
    server().script(reply.json(404, { error: 'not_found', error_description: 'No such thing' }, { 'x-request-id': 'r-404' }));
    const r = await runBo(['api', '-i', '/crm/things/nope'], { env: testEnv(server()) });
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(r.stdout).toContain('\nx-request-id: r-404\n');
    expect(r.stdout.endsWith('\n\n')).toBe(true);
    expect(r.stderr).toMatch(/^error: 404 Not Found: No such thing\n/);
  });

  it('--silent sends the request and prints no body; with -i only the head', async () => {
    const r = await runBo(['api', '/crm/things', '-F', 'a=1', '--silent'], { env: testEnv(server()) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(received().body).toEqual({ a: 1 });
    server().requests.splice(0);
    const head = await runBo(['api', '-i', '--silent', '/crm/things'], { env: testEnv(server()) });
    expect(head.code).toBe(0);
    expect(head.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(?:[a-z0-9-]+: .*\n)+\n$/);
    expect(received().method).toBe('GET');
  });
});
