// A Uid names one record, at the endpoint the verb names: never `.` or `..` (a URL
// would resolve them, and the write would land on another endpoint), never `-` where
// the verb reads no stdin, never invisible or bidirectional characters. On the built
// binary, against a server that answers 200 to anything and records what it received.
import { describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

const server = useFaultServer(reply.json(200, { Uid: 'answered', Name: 'answered' }));

const bo = (args: string[], stdin?: string) => runBin(args, { env: testEnv(server()), stdin, timeoutMs: 60_000 });
const sent = () => server().requests.map((r) => `${r.method} ${r.url}`);

describe('"." and ".." are never Uids', () => {
  const cases: Array<[string[], string, string]> = [
    [['drips', 'delete', '..', '--yes'], '<dripUid>', '..'],
    [['articles', 'untag', 'art1', '..', '--yes'], '<tagUid>', '..'],
    [['memberships', 'update', 'acc1', '..', '--primary'], '<membershipUid>', '..'],
    [['deals', 'update', '..', '--name', 'X'], '<dealUid>', '..'],
    [['broadcasts', 'get', '..'], '<broadcastUid>', '..'],
    [['drips', 'delete', '.', '--yes'], '<dripUid>', '.'],
    [['accounts', 'extend-trial', '%2e%2E', '--to', '2050-01-01'], '<accountUid>', '%2e%2E'],
    [['subscriptions', 'require-upgrade', '.%2e'], '<subscriptionUid>', '.%2e'],
    [['coupons', 'redemptions', '%252e'], '<couponUid>', '%252e'],
    [['lists', 'subscribe', '..', '--email', 'a@example.com'], '<listUid>', '..'],
    [['addons', 'preview', '--subscription', 'sub_1', '--addon', '..'], '--addon', '..'],
  ];
  it.each(cases)('bo %j: exit 2 naming the argument, nothing sent', async (args, label, value) => {
    const r = await bo(args);
    expect(r.stderr.split('\n')[0]).toBe(`error: ${label} cannot be ${JSON.stringify(value)}: "." and ".." are not Uids`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(sent()).toEqual([]);
  });

  it('in a batch, such a line is invalid and named; the other lines are sent', async () => {
    const r = await bo(['addons', 'expire', '-', '--yes', '--concurrency', '1'], '..\nsa_1\n%2e%2E\n{"Uid":"."}\nsa_2\n');
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n').sort()).toEqual([
      '-\tinvalid\tline 1 cannot be "..": "." and ".." are not Uids',
      '-\tinvalid\tline 3 cannot be "%2e%2E": "." and ".." are not Uids',
      '-\tinvalid\tline 4 cannot be ".": "." and ".." are not Uids',
      // The server's answer is not the sentence that tells an add-on was expired (D32): done.
      'sa_1\tok\tdone',
      'sa_2\tok\tdone',
    ]);
    expect(sent()).toEqual([
      'PUT /api/v1/billing/subscriptionaddons/sa_1/expire',
      'PUT /api/v1/billing/subscriptionaddons/sa_2/expire',
    ]);
  });
});

describe('- is read from stdin only where the verb says so', () => {
  const same = '(read from stdin) is not accepted here';
  const cases: Array<[string[], string]> = [
    [['memberships', 'update', 'acc1', '-', '--primary'], '<membershipUid>'],
    [['articles', 'untag', 'art1', '-', '--yes'], '<tagUid>'],
    [['lists', 'subscribe', '-', '--email', 'x@example.com'], '<listUid>'],
    [['broadcasts', 'get', '-'], '<broadcastUid>'],
    [['drips', 'add-message', '-', '--subject', 'S', '--body', 'B'], '<dripUid>'],
  ];
  it.each(cases)('bo %j: exit 2 in the same words, nothing sent', async (args, label) => {
    const r = await bo(args, 'from_stdin\n');
    expect(r.stderr.split('\n')[0]).toBe(`error: ${label} takes one value; - ${same}`);
    expect(r.code).toBe(2);
    expect(sent()).toEqual([]);
  });
});

describe('invisible and bidirectional characters are refused in a Uid, as spaces are', () => {
  const hidden = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\ufeff', '\u2060'];

  it('as an argument: exit 2, the character shown escaped, nothing sent', async () => {
    for (const ch of ['\u200b', '\u202e', '\u2066', '\ufeff']) {
      const r = await bo(['drips', 'delete', `drip${ch}1`, '--yes']);
      const escaped = `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
      expect(r.stderr.split('\n')[0]).toBe(`error: <dripUid> must be a Uid without spaces, "/" or control characters, got "drip${escaped}1"`);
      expect(r.code).toBe(2);
    }
    expect(sent()).toEqual([]);
  });

  it('as a batch line: an invalid line; the others are sent', async () => {
    const lines = hidden.map((ch, i) => `sa${ch}${i}`);
    const r = await bo(['addons', 'expire', '-', '--yes'], [...lines, 'sa_ok'].join('\n'));
    expect(r.code).toBe(1);
    const out = r.stdout.trimEnd().split('\n');
    // A byte-order mark after the first line is named as such (files joined with cat).
    expect(out.filter((l) => /^-\tinvalid\tline \d+ must be a Uid without spaces/.test(l))).toHaveLength(hidden.length - 1);
    expect(out.filter((l) => /^-\tinvalid\tline 15\b.*byte-order mark in the middle/.test(l))).toHaveLength(1);
    expect(out).toContain('sa_ok\tok\tdone');
    expect(sent()).toEqual(['PUT /api/v1/billing/subscriptionaddons/sa_ok/expire']);
  });
});
