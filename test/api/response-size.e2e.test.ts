// Hostile answers against the BUILT binary as a real process, measuring its peak memory
// (/usr/bin/time -v): an endless body, a 200 MB body (stated up front or chunked) and a
// gzip bomb are cut off at the response cap with exit 1 and a clear message, and the
// process never holds more than 150 MB. Needs dist/ (npm test builds it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { gzipBomb, reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

let server: FaultServer;
let bomb: Buffer;
beforeAll(async () => {
  server = await startFaultServer();
  bomb = await gzipBomb(512 * 1024 * 1024);
});
afterAll(() => server.close());

const tooLarge = (mb: number) =>
  new RegExp(`^error: GET http://127\\.0\\.0\\.1:\\d+/api/v1/crm/accounts: the answer is larger than ${mb} MB, more than bo accepts for one response\\n`);

describe('the response cap (32 MB by default)', () => {
  it.each([
    ['an endless body', () => reply.endless()],
    ['a 200 MB body sent in chunks', () => reply.big(200 * 1024 * 1024, false)],
    ['a 200 MB body with its content-length', () => reply.big(200 * 1024 * 1024, true)],
    ['a gzip bomb (512 MB decompressed)', () => reply.gzipBomb(bomb)],
  ])('%s: exit 1, a clear message, peak memory under 150 MB', async (_name, step) => {
    server.script(step());
    const r = await runBin(['accounts', 'list'], { env: testEnv(server, { BO_TOKEN: 'tok-size-test' }), measure: true });
    expect(r.stderr).toMatch(tooLarge(32));
    expect(r.stderr).toContain('BO_MAX_RESPONSE_MB');
    expect(r.stderr).not.toMatch(/RangeError|heap|    at /);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.peakMb).toBeLessThan(150);
  });

  it('BO_MAX_RESPONSE_MB lowers the cap', async () => {
    server.script(reply.big(6 * 1024 * 1024, false));
    const r = await runBin(['accounts', 'list'], { env: testEnv(server, { BO_TOKEN: 'tok-size-test', BO_MAX_RESPONSE_MB: '5' }), measure: true });
    expect(r.stderr).toMatch(tooLarge(5));
    expect(r.code).toBe(1);
  });

  it('a body under the cap is read in full', async () => {
    server.script(reply.big(6 * 1024 * 1024, false));
    const r = await runBin(['api', '/crm/accounts'], { env: testEnv(server, { BO_TOKEN: 'tok-size-test', BO_MAX_RESPONSE_MB: '7' }), measure: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).items.at(-1)).toEqual({ Uid: 'acc_last' });
  });
});
