// Timeouts are 0.1 s to 24 h wherever they come from: --timeout, BO_TIMEOUT, the
// profile's `timeout` setting and BO_KEYCHAIN_TIMEOUT. Node's timers fire after 1 ms
// past 2^31-1 ms (2,147,483 s), so a larger value would time out at once. A value out
// of range is exit 2 naming where it came from, and nothing is sent; a config file that
// already holds one says how to repair it, and `bo config set/unset` still can.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';

let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer();
});
afterAll(async () => {
  await fault.close();
});
afterEach(() => {
  fault.requests.splice(0);
  fault.verify();
});

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ';
const faultEnv = (t = tempConfig()) => ({ ...t.env, BO_BASE_URL: fault.url, BO_TOKEN: TOKEN });
const RANGE = 'must be a number of seconds from 0.1 to 86400 (24 h)';
const OUT_OF_RANGE = ['1e10', '2147484', '86401', '0.05', '0', '-1', 'soon'];

function expectUsageError(r: { code: number; stderr: string }, name: string, value: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toBe(`error: ${name} ${RANGE}, got "${value}"\n`);
}

describe('timeout range', () => {
  it('--timeout outside 0.1 s..24 h is exit 2 naming the flag, and nothing is sent', async () => {
    for (const value of OUT_OF_RANGE) {
      const r = await runBo(['--timeout', value, 'accounts', 'list'], { env: faultEnv() });
      expectUsageError(r, '--timeout', value);
    }
    expect(fault.requests).toHaveLength(0);
  });

  it('BO_TIMEOUT outside the range is exit 2 naming the variable, never a stack trace', async () => {
    for (const value of OUT_OF_RANGE) {
      const r = await runBo(['accounts', 'list'], { env: { ...faultEnv(), BO_TIMEOUT: value } });
      expectUsageError(r, 'BO_TIMEOUT', value);
    }
    expect(fault.requests).toHaveLength(0);
  });

  it('the range ends are accepted: 0.1 s and 86400 s', async () => {
    for (const value of ['0.1', '86400']) {
      fault.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: 0 }, items: [] }));
      const r = await runBo(['--timeout', value, 'accounts', 'list'], { env: faultEnv() });
      // Accepted means sent under that limit. On a loaded machine 0.1 s can pass before
      // the answer is read: then the request timed out, which is the limit at work.
      if (r.code !== 0) expect(r.stderr, `--timeout ${value}`).toMatch(/^error: .*timed out/);
    }
    expect(fault.requests).toHaveLength(2);
  });

  it('config set timeout outside the range is exit 2 naming the key, and the file keeps its value', async () => {
    const t = tempConfig();
    expect((await runBo(['config', 'set', 'timeout', '45'], { env: t.env })).code).toBe(0);
    for (const value of ['1e10', '86401', '0.05']) {
      const r = await runBo(['config', 'set', 'timeout', value], { env: t.env });
      expectUsageError(r, 'timeout', value);
    }
    expect(t.readJson(t.configFile)).toEqual({ profiles: { default: { timeout: 45 } } });
    expect((await runBo(['config', 'set', 'timeout', '86400'], { env: t.env })).code).toBe(0);
    expect((await runBo(['config', 'set', 'timeout', '0.1'], { env: t.env })).code).toBe(0);
    expect(t.readJson(t.configFile)).toEqual({ profiles: { default: { timeout: 0.1 } } });
  });

  it('BO_KEYCHAIN_TIMEOUT outside the range is exit 2 naming it', async () => {
    for (const value of ['1e10', '2147484', '0.01']) {
      const r = await runBo(['auth', 'status'], { env: { ...tempConfig().env, BO_KEYCHAIN_TIMEOUT: value } });
      expectUsageError(r, 'BO_KEYCHAIN_TIMEOUT', value);
    }
  });

  it('a sub-second timeout from the profile is reported as such ("0.5 s", not "0 s")', async () => {
    const t = tempConfig();
    expect((await runBo(['config', 'set', 'timeout', '0.5'], { env: t.env })).code).toBe(0);
    fault.script(reply.hang());
    const started = Date.now();
    const r = await runBo(['--max-retries', '0', 'accounts', 'list'], { env: faultEnv(t) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/timed out after 0\.5 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});

describe('a config file that already holds an out-of-range timeout', () => {
  function brokenProfile() {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    const cfg = { currentProfile: 'acme', profiles: { acme: { 'base-url': fault.url, timeout: 1e10 }, other: { timeout: 5 } } };
    writeFileSync(t.configFile, JSON.stringify(cfg));
    return t;
  }

  it('other commands name the setting and the command that repairs it, and send nothing', async () => {
    const t = brokenProfile();
    // A request sent would find no scripted answer, which fails the test (fault-server.ts).
    const r = await runBo(['--max-retries', '0', 'accounts', 'list'], { env: { ...t.env, BO_TOKEN: TOKEN } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: the config file ${t.configFile} has an invalid setting: profile "acme" key "timeout" ${RANGE}, got "10000000000"\n` +
        'hint: fix it with: bo -p acme config unset timeout, or bo -p acme config set timeout <value>\n',
    );
    expect(fault.requests).toHaveLength(0);
    const get = await runBo(['config', 'get', 'timeout'], { env: t.env });
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('bo -p acme config unset timeout');
  });

  it('bo config unset timeout repairs it and keeps every other setting', async () => {
    const t = brokenProfile();
    const r = await runBo(['config', 'unset', 'timeout'], { env: t.env });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain('Unset timeout for profile "acme"');
    expect(t.readJson(t.configFile)).toEqual({ currentProfile: 'acme', profiles: { acme: { 'base-url': fault.url }, other: { timeout: 5 } } });
    expect((await runBo(['config', 'get', 'timeout'], { env: t.env })).stdout).toBe('30\n');
  });

  it('bo config set timeout repairs it too', async () => {
    const t = brokenProfile();
    const r = await runBo(['config', 'set', 'timeout', '60'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(t.readJson(t.configFile).profiles.acme).toEqual({ 'base-url': fault.url, timeout: 60 });
    const listed = JSON.parse((await runBo(['config', 'list', '--json'], { env: t.env })).stdout) as { settings: Array<{ name: string; value: unknown; source: string }> };
    expect(listed.settings.find((s) => s.name === 'timeout')).toEqual({ name: 'timeout', value: 60, source: 'config' });
  });

  it('setting another key of the broken profile keeps the bad value for the user to see', async () => {
    const t = brokenProfile();
    const r = await runBo(['-p', 'other', 'config', 'set', 'api-key-scheme', 'acme'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(t.configFile, 'utf8')).profiles).toEqual({
      acme: { 'base-url': fault.url, timeout: 1e10 },
      other: { timeout: 5, 'api-key-scheme': 'acme' },
    });
  });
});
