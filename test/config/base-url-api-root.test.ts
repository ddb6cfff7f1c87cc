// `bo` adds /api/v1 to every request, so a base URL that carries it already would send
// everything to …/api/v1/api/v1/…. It is refused wherever a base URL comes in (the
// flag, BO_BASE_URL, `config set`, a config file, login, set-key) with a hint naming
// the URL to use; a tenant under another path prefix keeps working.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../src/config/settings.js';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';

const server = useFaultServer(reply.json(200, { items: [], metadata: { total: 0, limit: 100, offset: 0 } }));

const keys = { BO_API_KEY: 'k1', BO_API_SECRET: 's1' };
const message = (name: string, url: string) =>
  `error: ${name} must be the tenant's URL without /api/v1 (bo adds it to every request), got "${url}"`;

describe('a base URL with /api/v1', () => {
  it('parseBaseUrl refuses it in any case and position, with the root to use; other prefixes pass', () => {
    const refused: Array<[string, string]> = [
      ['https://acme.example.com/api/v1', 'https://acme.example.com'],
      ['https://acme.example.com/api/v1/', 'https://acme.example.com'],
      ['https://acme.example.com/API/V1', 'https://acme.example.com'],
      ['https://acme.example.com/tenant-x/api/v1', 'https://acme.example.com/tenant-x'],
      ['https://acme.example.com/api/v1/crm/accounts', 'https://acme.example.com'],
    ];
    for (const [url, root] of refused) {
      let hint: string | undefined;
      expect(() => {
        try {
          parseBaseUrl(url);
        } catch (err) {
          hint = (err as { hint?: string }).hint;
          throw err;
        }
      }, url).toThrow(/^base-url must be the tenant's URL without \/api\/v1/);
      expect(hint).toBe(`drop /api/v1 and what follows: ${root}`);
    }
    for (const fine of ['https://acme.example.com/tenant-x', 'https://acme.example.com/api/v2', 'https://acme.example.com/apiv1', 'https://acme.example.com/api/v10', 'https://acme.example.com/v1']) {
      expect(parseBaseUrl(fine)).toBe(fine);
    }
  });

  it('bo config set base-url refuses it, exit 2 with the hint, and stores nothing', async () => {
    const t = tempConfig();
    const r = await runBo(['config', 'set', 'base-url', 'https://acme.example.com/api/v1'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${message('base-url', 'https://acme.example.com/api/v1')}\nhint: drop /api/v1 and what follows: https://acme.example.com\n`);
    expect((await runBo(['config', 'get', 'base-url'], { env: t.env })).stdout).toBe('');
    const ok = await runBo(['config', 'set', 'base-url', 'https://acme.example.com/tenant-x'], { env: t.env });
    expect(ok.code).toBe(0);
  });

  it('--base-url and BO_BASE_URL are refused by name, exit 2, nothing sent', async () => {
    const t = tempConfig();
    const flag = await runBo(['--base-url', `${server().url}/api/v1`, 'accounts', 'list'], { env: { ...t.env, ...keys } });
    expect(flag.stderr.split('\n')[0]).toBe(message('--base-url', `${server().url}/api/v1`));
    expect(flag.code).toBe(2);
    const env = await runBo(['accounts', 'list'], { env: { ...t.env, ...keys, BO_BASE_URL: `${server().url}/api/v1/` } });
    expect(env.stderr.split('\n')[0]).toBe(message('BO_BASE_URL', `${server().url}/api/v1`));
    expect(env.code).toBe(2);
    const verify = await runBo(['auth', 'status', '--verify'], { env: { ...t.env, ...keys, BO_BASE_URL: `${server().url}/api/v1` } });
    expect(verify.code).toBe(2);
    expect(server().requests).toEqual([]);
  });

  it('a config file that holds one is named with the command that fixes it; nothing sent', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { default: { 'base-url': `${server().url}/api/v1` } } }));
    const r = await runBo(['accounts', 'list'], { env: { ...t.env, ...keys } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`has an invalid setting: profile "default" key "base-url" must be the tenant's URL without /api/v1`);
    expect(r.stderr).toContain('bo -p default config set base-url <value>');
    expect(server().requests).toEqual([]);
    expect((await runBo(['config', 'set', 'base-url', server().url], { env: t.env })).code).toBe(0);
  });

  it('login and auth set-key refuse it before anything is sent', async () => {
    const t = tempConfig();
    const login = await runBo(['--base-url', `${server().url}/api/v1`, 'login', '--username', 'a@example.com', '--password-stdin', '--insecure-storage'], {
      env: t.env,
      stdin: 'pw\n',
    });
    expect(login.stderr.split('\n')[0]).toBe(message('--base-url', `${server().url}/api/v1`));
    expect(login.code).toBe(2);
    const setKey = await runBo(['--base-url', `${server().url}/api/v1`, 'auth', 'set-key', '--key', 'k', '--secret-stdin', '--insecure-storage'], {
      env: t.env,
      stdin: 's\n',
    });
    expect(setKey.code).toBe(2);
    expect(server().requests).toEqual([]);
  });

  it('a tenant under another path prefix keeps working: requests go to <prefix>/api/v1/…', async () => {
    const t = tempConfig();
    const r = await runBo(['--base-url', `${server().url}/tenant-x`, 'accounts', 'list'], { env: { ...t.env, ...keys } });
    expect(r.code).toBe(0);
    expect(server().requests.map((q) => q.url.split('?')[0])).toEqual(['/tenant-x/api/v1/crm/accounts']);
  });
});
