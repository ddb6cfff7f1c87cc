import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { createMemoryStore } from '../../src/auth/stores/memory.js';

const token = { kind: 'token', token: 'aaa.bbb.ccc' } as const;

describe('bo logout', () => {
  it('forgets the keychain and file credentials of the profile and says a token stays valid', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { acme: { 'credential-store': 'file', timeout: 5 } } }));
    writeFileSync(t.credentialsFile, JSON.stringify({ profiles: { acme: token, other: token } }));
    const keychain = createMemoryStore({ acme: token, other: token });
    const r = await runBo(['-p', 'acme', 'logout'], { env: t.env, credentials: keychain });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'Removed the credential of profile "acme" from memory (tests).',
        `Removed the credential of profile "acme" from ${t.credentialsFile}.`,
        'Signed out of profile "acme".',
        'A token already issued stays valid until it expires: the API has no way to revoke it.',
        '',
      ].join('\n'),
    );
    expect([...keychain.items.keys()]).toEqual(['other']);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { other: token } });
    // The next login goes to the keychain again; other settings stay.
    expect(t.readJson(t.configFile)).toEqual({ profiles: { acme: { timeout: 5 } } });
    const status = await runBo(['-p', 'acme', 'auth', 'status'], { env: t.env, credentials: keychain });
    expect(status.code).toBe(4);
  });

  it('says so when nothing was stored, and that environment credentials are not affected', async () => {
    const t = tempConfig();
    const r = await runBo(['logout'], { env: { ...t.env, BO_API_KEY: 'k', BO_API_SECRET: 's' }, credentials: createMemoryStore() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'No stored credentials for profile "default".\nBO_API_KEY and BO_API_SECRET in the environment are not affected.\n',
    );
  });

  it('a file-backed profile logs out even when no keychain is reachable (warning only)', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { ci: { 'credential-store': 'file' } } }));
    writeFileSync(t.credentialsFile, JSON.stringify({ profiles: { ci: token } }));
    const r = await runBo(['-p', 'ci', 'logout'], { env: { ...t.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Removed the credential of profile "ci" from ${t.credentialsFile}.`);
    expect(r.stderr).toMatch(/warning: .* could not be checked: the OS keychain is not available/);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: {} });
  });

  it('a keychain profile with no reachable keychain: exit 4, the credential is still there, retry later', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { default: { 'credential-store': 'keychain' } } }));
    const r = await runBo(['logout'], { env: { ...t.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: cannot remove the credential of profile "default": the OS keychain is not available/);
    // Not --insecure-storage: logout has no such flag.
    expect(r.stderr).toContain('hint: it is still stored there; run bo -p default logout again once the keychain can be reached');
  });
});
