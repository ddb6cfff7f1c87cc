// The response cap as a setting: `max-response-mb` per profile, BO_MAX_RESPONSE_MB over
// it, both checked before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

describe('max-response-mb', () => {
  it('is a config key: set, read back, and applied to requests', async () => {
    const cfg = tempConfig();
    const env = { ...cfg.env, BO_BASE_URL: server.url, BO_TOKEN: 'tok-cap' };
    expect((await runBo(['config', 'set', 'max-response-mb', '1'], { env })).code).toBe(0);
    expect(cfg.readJson(cfg.configFile).profiles.default['max-response-mb']).toBe(1);
    expect((await runBo(['config', 'get', 'max-response-mb'], { env })).stdout.trim()).toBe('1');
    server.script(reply.big(2 * 1024 * 1024, false));
    const r = await runBo(['api', '/crm/accounts'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/: the answer is larger than 1 MB, more than bo accepts for one response$/);
    // The environment wins over the setting.
    server.script(reply.big(2 * 1024 * 1024, false));
    const wider = await runBo(['api', '/crm/accounts'], { env: { ...env, BO_MAX_RESPONSE_MB: '3' } });
    expect(wider.code).toBe(0);
  });

  it('defaults to 32 MB (bo config get shows it)', async () => {
    const r = await runBo(['config', 'get', 'max-response-mb'], { env: tempConfig().env });
    expect(r.stdout.trim()).toBe('32');
  });

  it.each(['0', '-1', '1.5', 'lots', '5000'])('refuses %s: exit 2, naming the key', async (value) => {
    const r = await runBo(['config', 'set', 'max-response-mb', value], { env: tempConfig().env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: max-response-mb must be a whole number of megabytes from 1 to 4096/);
  });

  it('a bad BO_MAX_RESPONSE_MB is exit 2 and nothing is sent', async () => {
    const before = server.requests.length;
    const r = await runBo(['api', '/crm/accounts'], { env: testEnv(server, { BO_TOKEN: 't', BO_MAX_RESPONSE_MB: 'big' }) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: BO_MAX_RESPONSE_MB must be a whole number of megabytes from 1 to 4096, got "big"');
    expect(server.requests.length).toBe(before);
  });
});
