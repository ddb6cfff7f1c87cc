// `bo auth set-key`, `bo auth status`, `bo logout` and `bo profiles remove` with the
// real keychain (run under .ci/keyring.sh); the stored item is read back with secret-tool.
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { keyringEnv, secretToolLookup, uniqueProfile } from '../helpers/keyring.js';

describe('commands with the OS keychain', () => {
  it('set-key stores in the keychain; status names it; logout removes it', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...keyringEnv() };
    const profile = uniqueProfile('cmd');
    const tenant = 'http://127.0.0.1:1';
    const set = await runBo(['-p', profile, '--base-url', tenant, 'auth', 'set-key', '--key', 'ak_kc', '--secret-stdin'], { env, stdin: 'sk_kc\n' });
    expect(set.code).toBe(0);
    expect(set.stderr).toBe(
      `Stored API key ak_kc for profile "${profile}" in Secret Service (service "bo").\n` +
        `Saved ${tenant} as the base URL of profile "${profile}"; the key is sent there only.\n`,
    );
    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toEqual({ kind: 'apiKey', key: 'ak_kc', secret: 'sk_kc', origin: tenant });
    // Nothing secret in the config file: the base URL and where the credential is.
    expect(t.readJson(t.configFile)).toEqual({ profiles: { [profile]: { 'base-url': tenant, 'credential-store': 'keychain' } } });

    const status = await runBo(['-p', profile, 'auth', 'status', '--json'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'apiKey', source: 'keychain', location: 'Secret Service (service "bo")', key: 'ak_kc' });
    expect(status.stdout).not.toContain('sk_kc');

    const logout = await runBo(['-p', profile, 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain(`Removed the credential of profile "${profile}" from Secret Service (service "bo").`);
    expect(secretToolLookup(profile)).toBeNull();
    expect((await runBo(['-p', profile, 'auth', 'status'], { env })).code).toBe(4);
  });

  it('profiles remove deletes the keychain item of that profile only', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...keyringEnv() };
    const gone = uniqueProfile('rm');
    const kept = uniqueProfile('keep');
    for (const p of [gone, kept]) {
      expect((await runBo(['-p', p, 'config', 'set', 'base-url', 'http://127.0.0.1:1'], { env })).code).toBe(0);
      expect((await runBo(['-p', p, 'auth', 'set-key', '--key', `k-${p}`, '--secret-stdin'], { env, stdin: 's\n' })).code).toBe(0);
    }
    const r = await runBo(['profiles', 'remove', gone], { env });
    expect(r.code).toBe(0);
    expect(secretToolLookup(gone)).toBeNull();
    expect(JSON.parse(secretToolLookup(kept) ?? 'null')).toMatchObject({ key: `k-${kept}` });
    expect(Object.keys(t.readJson(t.configFile).profiles)).toEqual([kept]);
    await runBo(['-p', kept, 'logout'], { env });
  });

  it('no Secret Service: set-key exits 4 and explains --insecure-storage, which then works', async () => {
    keyringEnv(); // this file runs under .ci/keyring.sh, like the tests above
    const t = tempConfig();
    const env = { ...t.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const r = await runBo(['--base-url', 'http://127.0.0.1:1', 'auth', 'set-key', '--key', 'k', '--secret-stdin'], { env, stdin: 's\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: the OS keychain is not available \(Secret Service: .*\)\nhint: pass --insecure-storage/);
    const insecure = await runBo(['--base-url', 'http://127.0.0.1:1', 'auth', 'set-key', '--key', 'k', '--secret-stdin', '--insecure-storage'], { env, stdin: 's\n' });
    expect(insecure.code).toBe(0);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { default: { kind: 'apiKey', key: 'k', secret: 's', origin: 'http://127.0.0.1:1' } } });
  });
});
