import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPath, currentProfileName, loadConfig, profileSettings, updateConfig, type BoConfig } from '../../src/config/config.js';
import type { Env } from '../../src/env.js';
import { parseApiKeyScheme, parseBaseUrl, parseProfileName, parseTimeout } from '../../src/config/settings.js';
import { tempConfig } from '../helpers/config-dir.js';

describe('configPath', () => {
  it('prefers BO_CONFIG_DIR, then XDG_CONFIG_HOME/bo, then HOME/.config/bo', () => {
    expect(configPath({ BO_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/c/config.json');
    expect(configPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/bo/config.json');
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/bo/config.json');
    // A relative XDG_CONFIG_HOME is invalid per the XDG spec.
    expect(configPath({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/bo/config.json');
  });

  it('names BO_CONFIG_DIR when there is no home folder', () => {
    expect(() => configPath({})).toThrow(/BO_CONFIG_DIR/);
  });
});

/** Replaces the whole config through updateConfig (the only writer). */
function save(env: Env, next: BoConfig): void {
  updateConfig(env, (cfg) => {
    for (const key of Object.keys(cfg)) delete cfg[key];
    Object.assign(cfg, structuredClone(next));
  });
}

describe('loadConfig / updateConfig', () => {
  it('reads a missing file as no profiles', () => {
    const t = tempConfig();
    expect(loadConfig(t.env)).toEqual({ profiles: {} });
  });

  it('writes 0600 in a 0700 folder, leaves no temp file, and reads back what it wrote', () => {
    const t = tempConfig();
    const cfg = { currentProfile: 'acme', profiles: { acme: { 'base-url': 'https://acme.example.com', timeout: 12 } } };
    save(t.env, cfg);
    expect(t.mode(t.configFile)).toBe(0o600);
    expect(t.mode(t.dir)).toBe(0o700);
    expect(readdirSync(t.dir)).toEqual(['config.json']);
    expect(t.readJson(t.configFile)).toEqual(cfg);
    expect(loadConfig(t.env)).toEqual(cfg);
  });

  it('replaces a loosely-permissioned file with a 0600 one', () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, '{"profiles":{}}');
    chmodSync(t.configFile, 0o644);
    save(t.env, { profiles: { a: {} } });
    expect(t.mode(t.configFile)).toBe(0o600);
  });

  it('keeps keys it does not know', () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ future: 1, profiles: { a: { 'base-url': 'https://a.example', later: true } } }));
    updateConfig(t.env, (cfg) => {
      cfg.profiles.a!.timeout = 5;
    });
    expect(t.readJson(t.configFile)).toEqual({ future: 1, profiles: { a: { 'base-url': 'https://a.example', later: true, timeout: 5 } } });
  });

  it('reports a corrupt file with its path and never rewrites it', () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, '{"profiles": {oops');
    expect(() => loadConfig(t.env)).toThrow(new RegExp(`${t.configFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
    expect(readFileSync(t.configFile, 'utf8')).toBe('{"profiles": {oops');
  });

  it('reports an invalid stored value naming the profile and key', () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { acme: { 'base-url': 'http://acme.example.com' } } }));
    expect(() => loadConfig(t.env)).toThrow(/profile "acme" key "base-url"/);
    writeFileSync(t.configFile, JSON.stringify({ profiles: { acme: { timeout: '5' } } }));
    expect(() => loadConfig(t.env)).toThrow(/profile "acme" key "timeout"/);
    writeFileSync(t.configFile, '[]');
    expect(() => loadConfig(t.env)).toThrow(/not a JSON object/);
  });
});

describe('currentProfileName and profileSettings', () => {
  it('uses -p/BO_PROFILE, then currentProfile, then "default"', () => {
    const cfg = { currentProfile: 'acme', profiles: { acme: { timeout: 3 } } };
    expect(currentProfileName({ profile: 'other' }, cfg)).toBe('other');
    expect(currentProfileName({ profile: '' }, cfg)).toBe('acme');
    expect(currentProfileName({ profile: '' }, { profiles: {} })).toBe('default');
    expect(() => currentProfileName({ profile: 'a b' }, cfg)).toThrow(/--profile must be a profile name/);
    expect(profileSettings(cfg, 'acme')).toEqual({ timeout: 3 });
    expect(profileSettings(cfg, 'toString')).toEqual({});
  });
});

describe('validators', () => {
  it('base-url: https, or http on loopback, without a trailing slash (D3)', () => {
    expect(parseBaseUrl('https://acme.example.com/')).toBe('https://acme.example.com');
    expect(parseBaseUrl('https://acme.example.com/tenant/')).toBe('https://acme.example.com/tenant');
    expect(parseBaseUrl('http://localhost:8080')).toBe('http://localhost:8080');
    expect(parseBaseUrl('http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
    expect(parseBaseUrl('http://[::1]:9')).toBe('http://[::1]:9');
    expect(() => parseBaseUrl('http://acme.example.com')).toThrow(/base-url must use https/);
    expect(() => parseBaseUrl('ftp://acme.example.com')).toThrow(/base-url must use https/);
    expect(() => parseBaseUrl('acme.example.com')).toThrow(/base-url must be a URL/);
    expect(() => parseBaseUrl('https://u:p@acme.example.com')).toThrow(/must not contain a user name or password/);
  });

  it('api-key-scheme: one word (D1)', () => {
    expect(parseApiKeyScheme('Acme_key-2')).toBe('Acme_key-2');
    expect(() => parseApiKeyScheme('two words')).toThrow(/api-key-scheme must be one word/);
    expect(() => parseApiKeyScheme('')).toThrow(/api-key-scheme/);
  });

  it('timeout: 0.1 s to 24 h (Node timers fire at once past 2^31-1 ms)', () => {
    expect(parseTimeout('2.5')).toBe(2.5);
    expect(parseTimeout('0.1')).toBe(0.1);
    expect(parseTimeout('86400')).toBe(86400);
    expect(parseTimeout(0.5)).toBe(0.5);
    for (const bad of ['0', '0.09', '-1', 'abc', '', 'Infinity', '86400.5', '2147484', '1e10']) {
      expect(() => parseTimeout(bad), bad).toThrow(/timeout must be a number of seconds from 0.1 to 86400 \(24 h\)/);
    }
  });

  it('profile names: letters, digits, - and _', () => {
    expect(parseProfileName('acme-prod_2')).toBe('acme-prod_2');
    for (const bad of ['a b', 'a/b', '', '__proto__', 'é']) expect(() => parseProfileName(bad)).toThrow(/profile name/);
  });
});

describe('atomic write', () => {
  it('replaces the file by rename: a reader of the old file never sees a partial new one', () => {
    const t = tempConfig();
    save(t.env, { profiles: { a: { timeout: 1 } } });
    const before = statSync(t.configFile).ino;
    const oldFd = openSync(t.configFile, 'r');
    try {
      save(t.env, { profiles: { b: { timeout: 2 } } });
      expect(statSync(t.configFile).ino).not.toBe(before);
      expect(JSON.parse(readFileSync(oldFd, 'utf8'))).toEqual({ profiles: { a: { timeout: 1 } } });
      expect(t.readJson(t.configFile)).toEqual({ profiles: { b: { timeout: 2 } } });
    } finally {
      closeSync(oldFd);
    }
  });

  it('cleans up its temp file when the final rename fails', () => {
    const t = tempConfig();
    mkdirSync(join(t.dir, 'config.json'), { recursive: true }); // a folder where the file should be
    expect(() => save(t.env, { profiles: {} })).toThrow();
    expect(readdirSync(t.dir)).toEqual(['config.json']);
  });
});
