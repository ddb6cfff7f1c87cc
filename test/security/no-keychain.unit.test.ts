// Without a keychain (no Secret Service on the bus), a profile that records no stored
// credential is simply not signed in: `bo logout`, `bo auth status`, `bo auth token`
// and `bo profiles remove` answer as documented and never ask the keychain.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };

/** A default profile with a base URL and nothing stored, on a machine with no keychain. */
function noKeychain() {
  const t = tempConfig();
  mkdirSync(t.dir, { recursive: true });
  writeFileSync(t.configFile, JSON.stringify({ profiles: { default: { 'base-url': 'https://tenant.example.com' } } }));
  return { ...t, env: { ...t.env, ...NO_BUS } };
}

describe('no keychain, nothing stored', () => {
  it('bo auth status: not signed in, exit 4, no keychain error', async () => {
    const t = noKeychain();
    const r = await runBo(['auth', 'status'], { env: t.env });
    expect(r).toMatchObject({ code: 4, stdout: '' });
    expect(r.stderr).toBe(
      'error: not signed in (profile "default")\n' +
        'hint: run bo login or bo auth set-key, or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET\n',
    );
  });

  it('bo auth token: not signed in, exit 4, no keychain error', async () => {
    const t = noKeychain();
    const r = await runBo(['auth', 'token'], { env: t.env });
    expect(r).toMatchObject({ code: 4, stdout: '' });
    expect(r.stderr).toBe('error: not signed in (profile "default")\nhint: run bo login\n');
  });

  it('bo logout: nothing stored, exit 0', async () => {
    const t = noKeychain();
    const r = await runBo(['logout'], { env: t.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('No stored credentials for profile "default".\n');
  });

  it('a command: not signed in (exit 4) rather than a keychain error', async () => {
    const t = noKeychain();
    const r = await runBo(['accounts', 'list'], { env: t.env });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe('error: not signed in (profile "default")');
  });

  it('bo profiles remove default: removed, and gone from the config', async () => {
    const t = noKeychain();
    const r = await runBo(['profiles', 'remove', 'default'], { env: t.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Removed profile "default".\n');
    expect(t.readJson(t.configFile)).toEqual({ profiles: {} });
    // Listed only as the profile in use, with nothing of its own left.
    const list = await runBo(['--json', 'profiles', 'list'], { env: t.env });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'default', current: true, baseUrl: null, apiKeyScheme: null, timeout: null, credentialStore: null },
    ]);
  });

  it('a profile that records a keychain credential still reports the missing keychain (exit 4)', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { default: { 'credential-store': 'keychain' } } }));
    const r = await runBo(['auth', 'status'], { env: { ...t.env, ...NO_BUS } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: the OS keychain is not available/);
  });
});
