// `bo api <path>`: the path is sent as typed, or refused (exit 2, nothing sent) when a
// URL parser or the server would read it as another one: `//` (the first segment taken
// as a host), empty, `.` and `..` segments in any encoding, an encoded `/` or `\`, a
// `\`, a `#`. The endpoints sent without credentials are matched on the path as the
// server reads it. Properties over generated paths, against a recording server.
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../src/api/base-url.js';
import { buildApiRequest } from '../../src/input/raw-request.js';
import { UsageError } from '../../src/errors.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';

const RUNS = fuzzRuns(1000);

const server = useFaultServer(reply.json(200, { ok: true }));

const pathOf = (url: string) => url.split('?')[0]!;

/** A path as the server reads it: each segment's bytes, %XX escapes decoded, the rest as UTF-8. */
function segmentBytes(path: string): string[] {
  return path.split('/').map((segment) => {
    const bytes: number[] = [];
    for (let i = 0; i < segment.length; ) {
      if (segment[i] === '%' && /^[0-9a-f]{2}$/i.test(segment.slice(i + 1, i + 3))) {
        bytes.push(parseInt(segment.slice(i + 1, i + 3), 16));
        i += 3;
      } else {
        const ch = String.fromCodePoint(segment.codePointAt(i)!);
        bytes.push(...Buffer.from(ch, 'utf8'));
        i += ch.length;
      }
    }
    return Buffer.from(bytes).toString('hex');
  });
}

/** Where a typed path must go when it is sent: under /api/v1, the prefix not doubled. */
function expectedPath(typed: string): string {
  const path = typed.split('?')[0]!;
  const rooted = path.startsWith('/') ? path : `/${path}`;
  return /^\/api\/v1(?=\/|$)/.test(rooted) ? rooted : `/api/v1${rooted}`;
}

/** Paths made of the pieces that change a URL's shape, and plain endpoint names. */
const segment = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('crm', 'accounts', 'api', 'v1', 'drips', 'd_1', '%', '%zz', '%41', 'é', 'a b', '~', '...', '.a') },
  { weight: 2, arbitrary: fc.constantFrom('', '.', '..', '%2e', '%2E%2e', '.%2e', '%252e', '%2f', '%5C', '%252F', 'x?y', 'x#y') },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('.', '%', '2', '5', 'e', 'f', 'c', 'a', '/', '\\', '?', '#', ' ', '~', 'é', '😀'), maxLength: 6 }) },
);
const typedPath = fc
  .tuple(fc.constantFrom('', '/', '//', '/api/v1/', '/api/v1'), fc.array(segment, { maxLength: 5 }), fc.constantFrom('', '/', '?limit=1', '?q=a/../b'))
  .map(([lead, segments, tail]) => `${lead}${segments.join('/')}${tail}`);

describe('bo api paths', () => {
  const refused: Array<[string[], RegExp]> = [
    [['api', '//crm/accounts'], /^error: <path> has an empty segment \(\/\/ or a trailing \/\): "\/\/crm\/accounts"$/],
    [['api', '-X', 'DELETE', '//email/campaigns/drips/d1'], /^error: <path> has an empty segment/],
    [['api', '-X', 'POST', '/crm/people//requestMagicLink', '-F', 'Email=a@example.com'], /^error: <path> has an empty segment/],
    [['api', '-X', 'DELETE', '/email/campaigns/drips/'], /^error: <path> has an empty segment/],
    [['api', '/crm/deals/..'], /^error: <path> has a "\.\." segment, which would resolve to another endpoint/],
    [['api', '-X', 'PUT', '/billing/subscriptionaddons/./expire'], /^error: <path> has a "\." segment/],
    [['api', '/crm/%2e%2E/accounts'], /^error: <path> has a "%2e%2E" segment/],
    [['api', '/api/v1/crm/deals/%252e'], /^error: <path> has a "%252e" segment/],
    [['api', '/crm/deals/a%2Fb'], /^error: <path> has an encoded "\/" or "\\" in the segment "a%2Fb"/],
    [['api', '/crm\\accounts'], /^error: <path> contains a "\\", which URLs read as "\/"/],
    [['api', '/crm/deals/d1#x'], /^error: <path> contains "#", which would cut it short/],
    [['api', '/api/v1'], /^error: <path> names no endpoint/],
    [['api', '/'], /^error: <path> names no endpoint/],
  ];
  it.each(refused)('bo %j: exit 2, nothing sent', async (args, message) => {
    const r = await runBin(args, { env: testEnv(server()), timeoutMs: 60_000 });
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(r.code).toBe(2);
    expect(server().requests).toEqual([]);
  });

  it('sends a path that keeps its shape exactly as typed', async () => {
    const r = await runBo(['api', '-X', 'DELETE', '/email/campaigns/drips/d%20 1~é'], { env: testEnv(server()) });
    expect(r.code).toBe(0);
    expect(server().requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /api/v1/email/campaigns/drips/d%20%201~%C3%A9']);
  });

  it('matches the endpoints sent without credentials on the path as the server reads it', async () => {
    const r = await runBo(['api', '-X', 'POST', '/crm/people/request%4DagicLink', '-F', 'Email=a@example.com'], { env: testEnv(server()) });
    expect(r.code).toBe(0);
    const [sent] = server().requests;
    expect(pathOf(sent!.url)).toBe('/api/v1/crm/people/request%4DagicLink');
    expect(sent!.headers.authorization).toBeUndefined();
    const sub = await runBo(['api', '/public/email/lists/l%31/subscription%73', '--input', '-'], { env: testEnv(server()), stdin: '{"Person":{"Email":"a@example.com"}}' });
    expect(sub.code).toBe(0);
    expect(server().requests[1]!.headers.authorization).toBeUndefined();
  });

  it('property: a generated path is refused (exit 2, nothing sent) or sent to exactly that path', async () => {
    const e = testEnv(server());
    await fc.assert(
      fc.asyncProperty(typedPath, async (typed) => {
        server().requests.length = 0;
        const r = await runBo(['api', typed], { env: e });
        if (r.code === 2) {
          expect(r.stderr).toMatch(/^error: <path> /);
          expect(server().requests).toEqual([]);
          return;
        }
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(server().requests).toHaveLength(1);
        expect(segmentBytes(pathOf(server().requests[0]!.url))).toEqual(segmentBytes(expectedPath(typed)));
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  });

  it('property: the URL built for an accepted path is that path, under the base URL and /api/v1', async () => {
    const base = new URL('https://tenant.example.com/tenant-x');
    await fc.assert(
      fc.asyncProperty(typedPath, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), async (typed, method) => {
        let req;
        try {
          req = await buildApiRequest(Readable.from([]), typed, { method, field: [] });
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          return;
        }
        const url = buildUrl(base, req.path, { query: req.query });
        expect(url.host).toBe('tenant.example.com');
        expect(segmentBytes(url.pathname)).toEqual(segmentBytes(`/tenant-x${expectedPath(typed)}`));
      }),
      { numRuns: RUNS },
    );
  });
});
