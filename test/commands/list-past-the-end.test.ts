// Every list command: --page past the end prints nothing and says on stderr that the
// page is empty and how many records there are; an empty --search is a usage error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function totalOf(path: string): Promise<number> {
  const r = await sb.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`);
  expect(r.status).toBe(200);
  return (r.body as { metadata: { total: number } }).metadata.total;
}

describe('--page past the end', () => {
  const cases = () => [
    { argv: ['accounts', 'list'], path: '/crm/accounts' },
    { argv: ['coupons', 'list'], path: '/billing/discountcoupons' },
    { argv: ['coupons', 'redemptions', sb.fixtures.coupons[0]!], path: `/billing/discountcoupons/${sb.fixtures.coupons[0]}/redemptions` },
    { argv: ['lists', 'list'], path: '/email/lists' },
  ];

  it('says the page is empty and how many records there are, for every list command', async () => {
    for (const { argv, path } of cases()) {
      const total = await totalOf(path);
      const r = await runBo([...argv, '--page', '9999', '--page-size', '1'], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout).toBe('');
      const range = total === 1 ? 'page 0 only' : `pages 0 to ${(total - 1).toLocaleString('en-US')}`;
      const expected =
        total === 0
          ? 'page 9,999 is empty: there are no records\n'
          : `page 9,999 is empty: there are ${total.toLocaleString('en-US')} record${total === 1 ? '' : 's'} (${range} with --page-size 1)\n`;
      expect(r.stderr, argv.join(' ')).toBe(expected);
    }
  });
});

describe('an empty --search', () => {
  it('is a usage error for coupons list and coupons redemptions, and nothing is sent', async () => {
    const before = (await sb.activity()).length;
    for (const argv of [['coupons', 'list', '--search', ''], ['coupons', 'redemptions', sb.fixtures.coupons[0]!, '--search', ' ']]) {
      const r = await runBo(argv, { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: --search needs some text to search for[^\n]*\n$/);
    }
    expect((await sb.activity()).length).toBe(before);
  });
});
