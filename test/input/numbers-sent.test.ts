// A number typed on the command line reaches the server with the value typed, or is
// refused (exit 2 naming the flag, nothing sent): every numeric flag goes through
// src/input/number.ts, and `bo api -F` numbers bound for a JSON body too.
import { describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';

const fault = useFaultServer(reply.json(200, { Uid: 'deal_1' }));

describe('numbers sent exactly', () => {
  it('--amount with more digits than a double keeps is exit 2 naming the flag, with or without --dry-run; nothing is sent', async () => {
    const cases: Array<[string, string]> = [
      ['12345678901234567890', 'whole numbers go up to 9007199254740991'],
      ['1200.123456789012345678', 'at most 15 significant digits are always kept'],
      ['9007199254740993', 'whole numbers go up to 9007199254740991'],
    ];
    for (const [amount, why] of cases) {
      for (const dry of [['--dry-run'], []]) {
        const r = await runBo(['deals', 'update', 'deal_1', '--amount', amount, ...dry], { env: testEnv(fault()) });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(`error: --amount ${amount} has more digits than can be sent exactly (${why})\n`);
        expect(r.stdout).toBe('');
      }
    }
    expect(fault().requests).toHaveLength(0);
  });

  it('--amount 1200.50 is sent as 1200.5; --quantity past 2^53 - 1 is refused', async () => {
    const r = await runBo(['deals', 'update', 'deal_1', '--amount', '+01200.50'], { env: testEnv(fault()) });
    expect(r.code, r.stderr).toBe(0);
    expect(fault().requests.map((q) => [q.method, q.body])).toEqual([['PUT', '{"Amount":1200.5}']]);
    const q = await runBo(['addons', 'preview', '--subscription', 'sub_1', '--addon', 'addon_1', '--quantity', '9007199254740992'], { env: testEnv(fault()) });
    expect(q.code).toBe(2);
    expect(q.stderr).toMatch(/^error: --quantity 9007199254740992 has more digits than can be sent exactly/);
    expect(fault().requests).toHaveLength(1);
  });

  it('bo api -F: a number for a JSON body that would change is exit 2 naming -F and the key, with a hint', async () => {
    for (const value of ['123456789012345678901', '0.1000000000000000055511151231257827']) {
      const r = await runBo(['api', '-X', 'POST', '/crm/deals', '-F', `Amount=${value}`], { env: testEnv(fault()) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: -F Amount=${value} has more digits than can be sent exactly .*\\n.*--input`));
    }
    expect(fault().requests).toHaveLength(0);
  });

  it('bo api -F: exact numbers go in the body as numbers; a query parameter carries the text as typed', async () => {
    const post = await runBo(['api', '-X', 'POST', '/crm/deals', '-F', 'Amount=1200.50', '-F', 'Big=9007199254740991'], { env: testEnv(fault()) });
    expect(post.code, post.stderr).toBe(0);
    const get = await runBo(['api', '-X', 'GET', '/crm/accounts', '-F', 'q=123456789012345678901', '-F', 'limit=1.50'], { env: testEnv(fault()) });
    expect(get.code, get.stderr).toBe(0);
    expect(fault().requests.map((q) => [q.method, q.url, q.body])).toEqual([
      ['POST', '/api/v1/crm/deals', '{"Amount":1200.5,"Big":9007199254740991}'],
      ['GET', '/api/v1/crm/accounts?q=123456789012345678901&limit=1.50', ''],
    ]);
  });
});
