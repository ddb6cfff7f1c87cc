import { stripVTControlCharacters } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';

function seed(t: ReturnType<typeof tempConfig>, cfg: unknown, credentials?: unknown) {
  mkdirSync(t.dir, { recursive: true });
  writeFileSync(t.configFile, JSON.stringify(cfg));
  if (credentials) writeFileSync(t.credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
}

const token = { kind: 'token', token: 'header.payload.sig' } as const;

describe('bo profiles', () => {
  it('list marks the current profile and shows base URLs (piped, TTY and --json)', async () => {
    const t = tempConfig();
    seed(t, {
      currentProfile: 'acme',
      profiles: {
        acme: { 'base-url': 'https://acme.example.com', 'credential-store': 'keychain' },
        staging: { 'credential-store': 'file' },
        spare: {},
      },
    });
    const piped = await runBo(['profiles', 'list'], { env: t.env });
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    // A profile that records no stored credential says so: the keychain is not asked.
    expect(piped.stdout).toBe('*\tacme\thttps://acme.example.com\tkeychain\n\tspare\t\tnone\n\tstaging\t\tfile\n');
    const other = await runBo(['-p', 'staging', 'profiles', 'list', '--json'], { env: t.env });
    // camelCase keys, as in every JSON shape bo makes (auth status --json: baseUrl).
    expect(JSON.parse(other.stdout)).toEqual([
      { name: 'acme', current: false, baseUrl: 'https://acme.example.com', apiKeyScheme: null, timeout: null, credentialStore: 'keychain' },
      { name: 'spare', current: false, baseUrl: null, apiKeyScheme: null, timeout: null, credentialStore: null },
      { name: 'staging', current: true, baseUrl: null, apiKeyScheme: null, timeout: null, credentialStore: 'file' },
    ]);
    const tty = await runBo(['profiles', 'list'], { env: t.env, stdoutIsTTY: true });
    expect(stripVTControlCharacters(tty.stdout)).toMatch(/Current.*Name.*Base URL/);
    expect(stripVTControlCharacters(tty.stdout)).toMatch(/\*\s*│\s*acme/);
  });

  it('list shows "default" as current on a fresh machine', async () => {
    const t = tempConfig();
    const r = await runBo(['profiles', 'list'], { env: t.env });
    expect(r.stdout).toBe('*\tdefault\t\tnone\n');
  });

  it('use switches the current profile; later commands follow it', async () => {
    const t = tempConfig();
    seed(t, { profiles: { acme: { timeout: 5 } } });
    const r = await runBo(['profiles', 'use', 'acme'], { env: t.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Now using profile "acme"');
    expect(t.readJson(t.configFile)).toEqual({ currentProfile: 'acme', profiles: { acme: { timeout: 5 } } });
    expect((await runBo(['config', 'get', 'timeout'], { env: t.env })).stdout).toBe('5\n');
    // BO_PROFILE still wins over the stored choice.
    expect((await runBo(['config', 'get', 'timeout'], { env: { ...t.env, BO_PROFILE: 'x' } })).stdout).toBe('30\n');
  });

  it('use: unknown profile exit 3, bad name exit 2', async () => {
    const t = tempConfig();
    seed(t, { profiles: { acme: {} } });
    const unknown = await runBo(['profiles', 'use', 'acem'], { env: t.env });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('no profile "acem" (known: acme)');
    const bad = await runBo(['profiles', 'use', 'a b'], { env: t.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('profile name must be a profile name');
    expect(t.readJson(t.configFile)).toEqual({ profiles: { acme: {} } });
  });

  it('remove deletes the settings and the credentials in the keychain stand-in and the file', async () => {
    const t = tempConfig();
    seed(
      t,
      { currentProfile: 'gone', profiles: { gone: { 'credential-store': 'file' }, kept: {} } },
      { profiles: { gone: token, kept: token } },
    );
    const keychain = createMemoryStore({ gone: { kind: 'apiKey', key: 'k', secret: 's' }, kept: token });
    const r = await runBo(['profiles', 'remove', 'gone'], { env: t.env, credentials: keychain });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Removed profile "gone"');
    expect(r.stderr).toContain(`from ${t.credentialsFile}`);
    expect(t.readJson(t.configFile)).toEqual({ profiles: { kept: {} } });
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { kept: token } });
    expect([...keychain.items.keys()]).toEqual(['kept']);
  });

  it('remove: unknown profile exit 3, nothing changed', async () => {
    const t = tempConfig();
    seed(t, { profiles: { acme: {} } });
    const keychain = createMemoryStore({ ghost: token });
    const r = await runBo(['profiles', 'remove', 'ghost'], { env: t.env, credentials: keychain });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no profile "ghost"');
    expect(keychain.items.has('ghost')).toBe(true);
  });
});
