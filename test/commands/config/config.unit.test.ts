import { stripVTControlCharacters } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';

describe('bo config set/get/unset/list', () => {
  it('stores a validated setting for the current profile and reads it back', async () => {
    const t = tempConfig();
    const set = await runBo(['config', 'set', 'base-url', 'https://acme.example.com/'], { env: t.env });
    expect(set).toMatchObject({ code: 0, stdout: '' });
    expect(set.stderr).toContain('Set base-url to https://acme.example.com for profile "default"');
    expect(t.readJson(t.configFile)).toEqual({ profiles: { default: { 'base-url': 'https://acme.example.com' } } });
    expect(t.mode(t.configFile)).toBe(0o600);

    const get = await runBo(['config', 'get', 'base-url'], { env: t.env });
    expect(get).toMatchObject({ code: 0, stdout: 'https://acme.example.com\n' });
  });

  it('stores timeout as a number and the scheme word per profile (-p, BO_PROFILE)', async () => {
    const t = tempConfig();
    expect((await runBo(['-p', 'acme', 'config', 'set', 'timeout', '45'], { env: t.env })).code).toBe(0);
    expect((await runBo(['config', 'set', 'api-key-scheme', 'AcmeKey'], { env: { ...t.env, BO_PROFILE: 'acme' } })).code).toBe(0);
    expect(t.readJson(t.configFile).profiles).toEqual({ acme: { timeout: 45, 'api-key-scheme': 'AcmeKey' } });
    const json = await runBo(['-p', 'acme', 'config', 'get', 'timeout', '--json'], { env: t.env });
    expect(json.stdout).toBe('45\n');
  });

  it('get prints defaults for unset keys and nothing for an unset base-url', async () => {
    const t = tempConfig();
    expect((await runBo(['config', 'get', 'api-key-scheme'], { env: t.env })).stdout).toBe('bo\n');
    expect((await runBo(['config', 'get', 'timeout'], { env: t.env })).stdout).toBe('30\n');
    const url = await runBo(['config', 'get', 'base-url'], { env: t.env });
    expect(url).toMatchObject({ code: 0, stdout: '' });
    expect(url.stderr).toContain('base-url is not set for profile "default"');
  });

  it('rejects an unknown key with exit 2 naming the valid keys, writing nothing', async () => {
    const t = tempConfig();
    for (const argv of [['config', 'set', 'baseurl', 'x'], ['config', 'get', 'token'], ['config', 'unset', 'password']]) {
      const r = await runBo(argv, { env: t.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: unknown config key "\w+"; valid keys: base-url, api-key-scheme, timeout, max-response-mb, protected, ca-file, journal, csv-separator, csv-bom\n$/);
    }
    expect(() => readFileSync(t.configFile)).toThrow(/ENOENT/);
  });

  it('rejects a bad value with exit 2 naming the key, keeping the stored one', async () => {
    const t = tempConfig();
    await runBo(['config', 'set', 'base-url', 'https://ok.example.com'], { env: t.env });
    const cases: Array<[string, string, RegExp]> = [
      ['base-url', 'http://acme.example.com', /base-url must use https/],
      ['timeout', '-3', /timeout must be a number of seconds from 0.1 to 86400/],
      ['api-key-scheme', 'two words', /api-key-scheme must be one word/],
    ];
    for (const [key, value, message] of cases) {
      const r = await runBo(['config', 'set', key, value], { env: t.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(t.readJson(t.configFile)).toEqual({ profiles: { default: { 'base-url': 'https://ok.example.com' } } });
  });

  it('rejects a bad profile name with exit 2', async () => {
    const t = tempConfig();
    const r = await runBo(['-p', 'a/b', 'config', 'set', 'timeout', '3'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--profile must be a profile name of letters, digits, - and _');
  });

  it('unset removes the key and keeps the profile', async () => {
    const t = tempConfig();
    await runBo(['config', 'set', 'timeout', '5'], { env: t.env });
    const r = await runBo(['config', 'unset', 'timeout'], { env: t.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Unset timeout for profile "default"');
    expect(t.readJson(t.configFile)).toEqual({ profiles: { default: {} } });
    const again = await runBo(['config', 'unset', 'timeout'], { env: t.env });
    expect(again).toMatchObject({ code: 0 });
    expect(again.stderr).toContain('timeout was not set');
  });

  it('list shows every key with the value in effect; --json each with its source, defaults included', async () => {
    const t = tempConfig();
    await runBo(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { env: t.env });
    const piped = await runBo(['config', 'list'], { env: t.env });
    expect(piped.stdout).toBe('profile\tdefault\nbase-url\thttp://127.0.0.1:4010\napi-key-scheme\tbo\ntimeout\t30\nmax-response-mb\t32\nprotected\tfalse\nca-file\t\njournal\ton\ncsv-separator\t,\ncsv-bom\tfalse\n');
    const json = await runBo(['config', 'list', '--json'], { env: t.env });
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      settings: [
        { name: 'base-url', value: 'http://127.0.0.1:4010', source: 'config' },
        { name: 'api-key-scheme', value: 'bo', source: 'default' },
        { name: 'timeout', value: 30, source: 'default' },
        { name: 'max-response-mb', value: 32, source: 'default' },
        { name: 'protected', value: false, source: 'default' },
        { name: 'ca-file', value: null, source: 'default' },
        { name: 'journal', value: 'on', source: 'default' },
        { name: 'csv-separator', value: ',', source: 'default' },
        { name: 'csv-bom', value: false, source: 'default' },
      ],
    });
    // A flag or variable in effect wins, and says so.
    const env = await runBo(['--timeout', '12', 'config', 'list', '--json'], { env: { ...t.env, BO_BASE_URL: 'https://acme.example.com' } });
    expect(JSON.parse(env.stdout).settings.slice(0, 3)).toEqual([
      { name: 'base-url', value: 'https://acme.example.com', source: 'env' },
      { name: 'api-key-scheme', value: 'bo', source: 'default' },
      { name: 'timeout', value: 12, source: 'flag' },
    ]);
    const flagged = await runBo(['--base-url', 'https://b.example.com', 'config', 'list'], { env: t.env });
    expect(flagged.stdout).toContain('base-url\thttps://b.example.com\n');
    const tty = await runBo(['config', 'list'], { env: t.env, stdoutIsTTY: true });
    expect(stripVTControlCharacters(tty.stdout)).toMatch(/base-url\s*│\s*http:\/\/127\.0\.0\.1:4010/);
  });

  it('reports a corrupt config file with exit 2 and leaves it as it was', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, '{ "profiles": ');
    const r = await runBo(['config', 'set', 'timeout', '9'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: the config file ${t.configFile} is not valid JSON`);
    expect(readFileSync(t.configFile, 'utf8')).toBe('{ "profiles": ');
  });

  it('follows XDG_CONFIG_HOME when BO_CONFIG_DIR is unset', async () => {
    const t = tempConfig();
    const r = await runBo(['config', 'set', 'timeout', '7'], { env: { XDG_CONFIG_HOME: t.root } });
    expect(r.code).toBe(0);
    expect(t.readJson(`${t.root}/bo/config.json`)).toEqual({ profiles: { default: { timeout: 7 } } });
  });
});
